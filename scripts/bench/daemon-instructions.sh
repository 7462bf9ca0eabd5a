#!/usr/bin/env bash
# The real daemon's instructions per frame on this machine, under callgrind: `touchd run` replays
# the daemon benchmarks' stream (bench-player's 10 fingers at 1 kHz, 302 frames) with the 340-view
# layout (stream-layout.sh, 60 Hz) and one bench-subscriber, subscribed in turn to hits and
# actions (kiosk), to touches at 60 Hz (display), to touches at the input's rate (input) and to
# touch frames at the input's rate (frames); only
# the event loop is counted (loading the layout and the recording are not). Prints table rows
# (section, measure, figure, goal; tab-separated) for scripts/bench.sh.
#
#   bash scripts/bench/daemon-instructions.sh TOUCHD
set -euo pipefail
cd "$(dirname "$0")/../.."
touchd=$1
work=$(mktemp -d /tmp/touchd-daemon-ir.XXXXXX)
trap 'rm -rf "$work"' EXIT
. scripts/bench/stream-setup.sh
socket=$work/touchd.sock
frames=302
name='instructions: the daemon replaying 10 fingers at 1 kHz (340 views, 1 subscriber)'
for mode in kiosk display input frames; do
  rm -f "$socket"
  # Slowed down 20 times so that valgrind keeps up with the stream's 1 kHz.
  valgrind --tool=callgrind --callgrind-out-file="$work/callgrind.out" --toggle-collect='*9EventLoopC3run*' \
    "$work/touchd" run --config "$work/layout.toml" --socket "$socket" --no-devices --log-level warning \
    --replay "$work/stream.evemu" --replay-speed 0.05 --replay-waits-for-client --exit-after-replay \
    > "$work/daemon.out" 2> "$work/daemon.err" &
  daemon=$!
  for _ in $(seq 1 300); do [ -S "$socket" ] && break; sleep 0.1; done
  "$work/bench-subscriber" "$socket" "$mode" > "$work/subscriber.out" 2>&1 || true
  wait "$daemon" || true
  total=$(sed -n 's/.*Collected : \([0-9]*\).*/\1/p' "$work/daemon.err" | tail -1)
  case $mode in
    kiosk) what="hits + actions"; received=$(sed -n 's/.* hits=\([0-9]*\) .*/\1/p' "$work/subscriber.out"); expect=10;;
    display) what="touches at 60 Hz"; received=$(sed -n 's/.* samples=\([0-9]*\) .*/\1/p' "$work/subscriber.out"); expect=3000;;
    input) what="touches at input rate"; received=$(sed -n 's/.* touches=\([0-9]*\) .*/\1/p' "$work/subscriber.out"); expect=3020;;
    frames) what="touch frames at input rate"; received=$(sed -n 's/.* frames=\([0-9]*\) .*/\1/p' "$work/subscriber.out"); expect=302;;
  esac
  if [ -z "$total" ] || [ "${received:-0}" != "$expect" ]; then
    printf '%s\tevent loop per frame, %s\tnot measured (%s of %s received)\t\n' "$name" "$what" "${received:-none}" "$expect"
    tail -5 "$work/daemon.err" >&2
    continue
  fi
  printf '%s\tevent loop per frame, %s\t%s instructions/frame\t\n' "$name" "$what" $(( total / frames ))
done
