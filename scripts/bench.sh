#!/usr/bin/env bash
# `make bench`: figures for docs/performance.md, printed as one table.
#
# On a shared, noisy machine no absolute time decides anything: each goal is a ratio of two figures
# measured in the same run (whole pipeline / decode only, 10,000 / 100 views), an instruction count
# (callgrind), an allocation count, or a memory and wakeup figure of the real daemon.
#
# Sections: in-process pipeline on real recordings (touchd-bench), hit-test scaling, the cost of a tap as views,
# recognizers in the window and on one hit path, subscription patterns and touches grow (dispatch scaling), snapshot time, instructions
# per frame under callgrind (in-process, and of the real daemon replaying the daemon benchmarks'
# stream: scripts/bench/daemon-instructions.sh), heap allocations per move frame (a preloaded
# malloc counter), memory (peak RSS of the daemon with a 1,000-view layout and 10 subscribed
# clients; RSS growth over 1 million frames in-process), idle wakeups and CPU time of the daemon
# over 10 s, the footprint (the installed size of `make install`; the idle daemon's RSS), and the
# whole daemon on a real kernel (scripts/bench/daemon-vm.sh, when present).
#
# Environment: TOUCHD_RECORDINGS (default ../shared/recordings), BENCH_FRAMES (default 1000000),
# BENCH_IDLE_SECONDS (default 10).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
recordings=${TOUCHD_RECORDINGS:-$root/../shared/recordings}
frames=${BENCH_FRAMES:-1000000}
idle_seconds=${BENCH_IDLE_SECONDS:-10}

bash scripts/install-deps.sh valgrind python3 binutils bsdextrautils gcc >&2
echo "building (release)..." >&2
swift build -c release --product touchd-bench >&2
# The daemon as installed: the Swift runtime linked statically (`make release`).
make release >&2
bench=$root/.build/release/touchd-bench
touchd=$root/.build-release/release/touchd

work=$(mktemp -d /tmp/touchd-bench.XXXXXX)
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT
table=$work/table.tsv
printf 'section\tmeasure\tfigure\tgoal\n' > "$table"

# The two recordings, found through the index of the shared recordings.
find_recording() {
  local suffix=$1
  [ -f "$recordings/INDEX.tsv" ] || return 1
  local rel
  rel=$(awk -F'\t' -v s="$suffix" 'substr($1, length($1) - length(s) + 1) == s { print $1; exit }' "$recordings/INDEX.tsv")
  [ -n "$rel" ] && [ -f "$recordings/$rel" ] && echo "$recordings/$rel"
}
ten_finger=$(find_recording "Wacom DTH2242 Finger.events" || true)
faulty=$(find_recording "advanced-silicon_2149_231c_0.ev" || true)
if [ -z "$ten_finger" ] || [ -z "$faulty" ]; then
  echo "the shared recordings are absent ($recordings/INDEX.tsv): the pipeline, memory and instruction figures need them" >&2
  [ -n "${CI:-}" ] && exit 1
fi
recs=()
[ -n "$ten_finger" ] && recs+=("$ten_finger")
[ -n "$faulty" ] && recs+=("$faulty")

python3 scripts/bench/make-layout.py 1000 > "$work/views-1000.toml"
"$touchd" check --config "$work/views-1000.toml" > /dev/null

echo "hit-test scaling..." >&2
"$bench" hit-test >> "$table"
echo "dispatch scaling..." >&2
"$bench" dispatch-scaling >> "$table"

echo "snapshot..." >&2
"$bench" snapshot >> "$table"

if [ ${#recs[@]} -gt 0 ]; then
  echo "in-process pipeline..." >&2
  "$bench" pipeline --layout config/kiosk.toml --window main "${recs[@]}" >> "$table"
  "$bench" pipeline --layout "$work/views-1000.toml" --window main "${recs[0]}" \
    | sed 's/^pipeline: /pipeline, 1,000 views: /' >> "$table"

  echo "allocations..." >&2
  cc -O2 -shared -fPIC -o "$work/malloc-count.so" scripts/bench/malloc-count.c
  LD_PRELOAD="$work/malloc-count.so" "$bench" allocations --layout config/kiosk.toml --window main "${recs[@]}" >> "$table"

  echo "instructions (callgrind)..." >&2
  # One run per recording; the inclusive instruction counts of the bench's decode() and whole()
  # (loading excluded) divided by the frames of a pass. Valgrind cannot read Swift's debug
  # information, so it runs a copy without it.
  strip --strip-debug -o "$work/touchd-bench" "$bench"
  for rate in 0 60; do
  for rec in "${recs[@]}"; do
    if [ "$rate" = 0 ]; then name="$(basename "$rec") (every input frame)"; else name="$(basename "$rec") ($rate Hz)"; fi
    out=$(valgrind --tool=callgrind --callgrind-out-file="$work/callgrind.out" "$work/touchd-bench" run --stage both \
      --passes 1 --refresh-hz "$rate" --layout config/kiosk.toml --window main "$rec" 2>&1)
    pass_frames=$(echo "$out" | sed -n 's/^frames \([0-9]*\) passes.*/\1/p')
    inclusive() { callgrind_annotate --inclusive=yes --threshold=100 "$work/callgrind.out" | grep "PipelineBench$1" | head -1 | awk '{ gsub(",", "", $1); print $1 }'; }
    decode_total=$(inclusive 'V6decodeSiyF')
    whole_total=$(inclusive 'V5whole3app')
    if [ -z "$decode_total" ] || [ -z "$whole_total" ] || [ -z "$pass_frames" ]; then
      printf 'instructions: %s\tcallgrind\tnot measured (see %s)\t\n' "$name" "valgrind's output" >> "$table"
      echo "$out" | tail -5 >&2
      continue
    fi
    decode_ir=$(( decode_total / pass_frames ))
    whole_ir=$(( whole_total / pass_frames ))
    printf 'instructions: %s\tdecode only\t%s instructions/frame\t\n' "$name" "$decode_ir" >> "$table"
    printf 'instructions: %s\twhole pipeline\t%s instructions/frame\t\n' "$name" "$whole_ir" >> "$table"
    goal=""; [ "$rate" != 0 ] && goal="<= 3x"
    printf 'instructions: %s\twhole / decode\t%sx\t%s\n' "$name" \
      "$(awk -v a="$whole_ir" -v b="$decode_ir" 'BEGIN { printf "%.2f", a / b }')" "$goal" >> "$table"
  done
  done

  echo "memory: $frames frames in-process..." >&2
  "$bench" memory --layout "$work/views-1000.toml" --window main --frames "$frames" "${recs[0]}" >> "$table"
fi

echo "instructions of the daemon (callgrind)..." >&2
bash scripts/bench/daemon-instructions.sh "$touchd" >> "$table"

# Figures of one process from /proc: context switches (all threads), CPU ticks, peak and current RSS.
proc_figures() { # pid -> "switches ticks hwm_kib rss_kib"
  local pid=$1 switches=0 t
  for t in /proc/"$pid"/task/*/status; do
    switches=$(( switches + $(awk '/^(voluntary|nonvoluntary)_ctxt_switches/ { s += $2 } END { print s + 0 }' "$t" 2>/dev/null || echo 0) ))
  done
  local ticks
  ticks=$(awk '{ print $14 + $15 }' /proc/"$pid"/stat)
  local hwm rss
  hwm=$(awk '/^VmHWM/ { print $2 }' /proc/"$pid"/status)
  rss=$(awk '/^VmRSS/ { print $2 }' /proc/"$pid"/status)
  echo "$switches $ticks $hwm $rss"
}
start_subscribers() { # socket count
  local i
  rm -f "$work"/ready.*
  for i in $(seq 1 "$2"); do
    python3 scripts/bench/subscriber.py "$1" "$work/ready.$i" > "$work/subscriber.$i.out" &
    pids+=($!)
  done
}
wait_subscribed() { # count: until that many clients have their subscription confirmed (30 s at most)
  local tries=0
  while [ "$(ls "$work"/ready.* 2>/dev/null | wc -l)" -lt "$1" ] && [ $tries -lt 300 ]; do
    sleep 0.1
    tries=$((tries + 1))
  done
}

if [ -n "$ten_finger" ]; then
  echo "memory: the daemon replaying with 1,000 views and 10 clients..." >&2
  sock=$work/replay.sock
  "$touchd" run --config "$work/views-1000.toml" --socket "$sock" --no-devices --log-level warning \
    --replay "$ten_finger" --replay-speed 4 --replay-waits-for-client --exit-after-replay &
  daemon=$!
  pids+=("$daemon")
  start_subscribers "$sock" 10
  hwm=0
  while kill -0 "$daemon" 2>/dev/null; do
    read -r _ _ h _ < <(proc_figures "$daemon" 2>/dev/null || echo "0 0 0 0") || true
    [ "${h:-0}" -gt "$hwm" ] && hwm=$h
    sleep 0.2
  done
  wait "$daemon" || true
  sleep 0.5
  got=$(cat "$work"/subscriber.*.out 2>/dev/null | awk '{ s += $1 } END { print s + 0 }')
  printf 'memory: daemon, 1,000 views, 10 clients\tpeak RSS (VmHWM) replaying %s at 4x\t%s MiB (%s KiB)\t\n' \
    "$(basename "$ten_finger")" "$((hwm / 1024))" "$hwm" >> "$table"
  printf 'memory: daemon, 1,000 views, 10 clients\tmessages the 10 clients received\t%s\t\n' "$got" >> "$table"
fi

echo "idle: $idle_seconds s without input..." >&2
sock=$work/idle.sock
"$touchd" run --config "$work/views-1000.toml" --socket "$sock" --log-level warning 2> "$work/idle.log" &
daemon=$!
pids+=("$daemon")
start_subscribers "$sock" 10
wait_subscribed 10
sleep 1
if kill -0 "$daemon" 2>/dev/null; then
  read -r s0 c0 _ _ < <(proc_figures "$daemon")
  sleep "$idle_seconds"
  read -r s1 c1 h1 r1 < <(proc_figures "$daemon")
  hz=$(getconf CLK_TCK)
  printf 'idle: daemon watching devices, 1,000 views, 10 clients\twakeups (context switches, all threads) in %s s\t%s\t0\n' \
    "$idle_seconds" "$((s1 - s0))" >> "$table"
  printf 'idle: daemon watching devices, 1,000 views, 10 clients\tCPU time in %s s\t%s ms\t0\n' \
    "$idle_seconds" "$(( (c1 - c0) * 1000 / hz ))" >> "$table"
  printf 'idle: daemon watching devices, 1,000 views, 10 clients\tRSS\t%s MiB (%s KiB)\t\n' "$((r1 / 1024))" "$r1" >> "$table"
  kill "$daemon"
  wait "$daemon" 2>/dev/null || true
else
  printf 'idle\tthe daemon did not start\t%s\t\n' "$(tail -1 "$work/idle.log")" >> "$table"
fi

echo "footprint: make install into a staging directory..." >&2
if make install DESTDIR="$work/stage" PREFIX=/usr SYSCONFDIR=/etc > "$work/install.log" 2>&1; then
  installed=$(du -sb "$work/stage" | cut -f1)
  binary=$(stat -c %s "$work/stage/usr/bin/touchd")
  printf 'footprint: make install (PREFIX=/usr)\tinstalled size\t%s MB (%s bytes)\t<= 20 MB\n' \
    "$(awk -v b="$installed" 'BEGIN { printf "%.1f", b / 1e6 }')" "$installed" >> "$table"
  printf 'footprint: make install (PREFIX=/usr)\tof which the one binary (touchd; touchctl is a link)\t%s MB\t\n' \
    "$(awk -v b="$binary" 'BEGIN { printf "%.1f", b / 1e6 }')" >> "$table"
else
  printf 'footprint\tmake install failed\t%s\t\n' "$(tail -1 "$work/install.log")" >> "$table"
fi

echo
echo "touchd benchmarks ($(nproc) cores, $(awk -F': ' '/model name/ { print $2; exit }' /proc/cpuinfo), Linux $(uname -r))"
echo
column -t -s $'\t' "$table"
echo
# The in-process goal, judged on instruction counts (noise cannot change them): at 60 Hz with 10
# subscribers, the whole pipeline at most 3x decoding.
awk -F'\t' '$1 ~ /^instructions: .*\(60 Hz\)$/ && $2 == "whole / decode" {
  sub(/^instructions: /, "", $1); x = $3; sub(/x$/, "", x)
  printf "goal in-process pipeline, %s, 10 subscribers: whole %.2fx decoding (instructions) against at most 3x: %s\n", $1, x, (x + 0 <= 3 ? "met" : "missed")
}' "$table"
# The footprint goals: the installed size at most 20 MB, the idle daemon's RSS at most 12 MiB.
awk -F'\t' '$1 ~ /^footprint: / && $2 == "installed size" {
  x = $3; sub(/ MB.*/, "", x)
  printf "goal footprint, installed size: %s MB against at most 20 MB: %s\n", x, (x + 0 <= 20 ? "met" : "missed")
}
$1 ~ /^idle: / && $2 == "RSS" {
  x = $3; sub(/.*\(/, "", x); sub(/ KiB\)/, "", x)
  printf "goal footprint, idle daemon RSS (1,000 views, 10 clients): %.1f MiB against at most 12 MiB: %s\n", x / 1024, (x / 1024 <= 12 ? "met" : "missed")
}' "$table"
echo
if [ -f scripts/bench/daemon-vm.sh ]; then
  echo "Whole daemon on a real kernel (scripts/bench/daemon-vm.sh):"
  bash scripts/bench/daemon-vm.sh
else
  echo "Whole daemon on a real kernel: skipped (scripts/bench/daemon-vm.sh is not there)."
fi
