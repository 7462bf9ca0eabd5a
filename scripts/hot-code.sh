#!/usr/bin/env bash
# Writes link/hot-code.ld: the functions a started daemon runs, which the release link puts side by
# side at the start of the binary's code.
#
# The kernel maps a process's code a window of pages at a time (fault-around: 16 pages around
# each page it runs), so code spread over the binary counts many times its size in the daemon's
# resident memory; side by side, the code a touch and a client run counts about its own size.
# Once started, the daemon unmaps its code (MemoryRelease) and the warm-up maps back what a touch
# runs: with this ordering that is a few contiguous windows, not one window in three of the binary.
#
# The list is a profile: the daemon runs under callgrind over the daemon benchmarks' stream (ten
# fingers at 1 kHz) for each subscription form (hits and actions, touches at 60 Hz, at the input
# rate, touch frames), and on a 1,000-view layout with two idle clients, and every function that
# ran once the daemon had given its memory back (the warm-up, the loop) is kept, the most run first. A function renamed
# since drops out of the list (the linker ignores a pattern that matches nothing) and is placed as
# any other: rerun this after a change to the daemon's hot paths.
#
#   scripts/hot-code.sh [TOUCHD]   (default: make release's binary, built first)
set -euo pipefail
cd "$(dirname "$0")/.."
touchd=${1:-}
if [ -z "$touchd" ]; then
  make release >&2
  touchd=.build-release/release/touchd
fi
bash scripts/install-deps.sh valgrind python3 gcc >&2
work=$(mktemp -d /tmp/touchd-hot-code.XXXXXX)
trap 'rm -rf "$work"' EXIT
. scripts/bench/stream-setup.sh
python3 scripts/bench/make-layout.py 1000 > "$work/views-1000.toml"
socket=$work/touchd.sock
profile() { # name, then the daemon's arguments; sets $daemon
  local name=$1
  shift
  valgrind --tool=callgrind --demangle=no --compress-strings=no --compress-pos=no --dump-instr=no \
    --callgrind-out-file="$work/cg.$name" --dump-after='*13MemoryReleaseO8giveBack*' \
    "$work/touchd" run --socket "$socket" --log-level warning "$@" > "$work/daemon.$name.out" 2>&1 &
  daemon=$!
}
for mode in kiosk display input frames; do
  echo "profiling: $mode..." >&2
  rm -f "$socket"
  profile "$mode" --config "$work/layout.toml" --no-devices --replay "$work/stream.evemu" --replay-speed 0.05 \
    --replay-waits-for-client --exit-after-replay
  for _ in $(seq 1 600); do [ -S "$socket" ] && break; sleep 0.1; done
  "$work/bench-subscriber" "$socket" "$mode" > "$work/subscriber.$mode.out" 2>&1 || true
  wait "$daemon" || true
done
echo "profiling: idle clients on 1,000 views..." >&2
rm -f "$socket"
profile idle --config "$work/views-1000.toml"
for _ in $(seq 1 600); do [ -S "$socket" ] && break; sleep 0.1; done
for i in 1 2; do python3 scripts/bench/subscriber.py "$socket" "$work/ready.$i" > /dev/null & done
for _ in $(seq 1 600); do [ "$(ls "$work"/ready.* 2>/dev/null | wc -l)" -ge 2 ] && break; sleep 0.1; done
sleep 1
kill -TERM "$daemon" 2>/dev/null || true
wait "$daemon" || true
# Each profile's first part (cg.NAME.1) is the start, up to the memory given back; the rest
# (cg.NAME) is what a started daemon runs.
profiles=()
for name in kiosk display input frames idle; do
  profiles+=("$work/cg.$name")
  if [ ! -f "$work/cg.$name.1" ] || [ ! -f "$work/cg.$name" ]; then
    echo "the $name profile was not split where the daemon gives its memory back (MemoryRelease.giveBack):" >&2
    tail -5 "$work/daemon.$name.out" >&2
    exit 1
  fi
done
python3 scripts/hot-code.py "$(dirname "$(readlink -f "$touchd")")" "${profiles[@]}" > "$work/hot-code.ld"
mv "$work/hot-code.ld" link/hot-code.ld
echo "link/hot-code.ld: $(grep -c '^    \*' link/hot-code.ld) entries" >&2
