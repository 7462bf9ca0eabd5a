#!/usr/bin/env bash
# Coverage-guided fuzzing of touchd with libFuzzer and AddressSanitizer (docs/operations.md, Fuzzing).
#
# Builds touchd-fuzz with `-sanitize=fuzzer,address` (scratch path .build-fuzz; the toolchain ships
# the libFuzzer and ASan runtimes) and runs each target in turn for a fixed time or number of runs,
# seeded. Leaks are detected after every input (LeakSanitizer), an input that runs longer than
# --timeout seconds is a hang, and one that takes more than --rss-mb MiB is out of memory: any of
# them, or a crash or a broken invariant, fails the run. The input that failed is written to
# .build-fuzz/artifacts/TARGET/; once its bug is fixed it belongs in Fuzz/regressions/TARGET/.
#
# The committed seeds (Fuzz/corpus/TARGET) and regressions are read, never written: what the fuzzer
# finds goes to .build-fuzz/work/TARGET, which later runs start from. For the recording targets,
# the first lines of each recording of ../shared/recordings in that format are added as seeds when
# it is there.
#
# Usage: scripts/fuzz.sh [TARGET...] [--seconds N | --runs N] [--seed N] [--timeout S] [--rss-mb M]
#                        [--fresh] [--no-build]
#   TARGET     request, layout, evemu, libinput-record, getevent, frames, websocket (default: all)
#   --seconds  how long each target runs (default 20)
#   --runs     how many inputs each target runs instead (libFuzzer's -runs)
#   --seed     libFuzzer's -seed (default 1: a run repeats; 0 lets libFuzzer pick one and print it)
#   --fresh    start from the committed seeds only (forget .build-fuzz/work)
# Environment: FUZZ_NICE (a niceness for the fuzzers, default 0), FUZZ_ARGS (more libFuzzer flags).
# Prints, for each target, the executions, executions per second, coverage and the seed, and
# exits non-zero when any target failed.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

all_targets=(request layout evemu libinput-record getevent frames websocket)
targets=()
seconds=20
runs=""
seed=1
timeout=10
rss_mb=2048
fresh=0
build=1
while [ $# -gt 0 ]; do
  case "$1" in
    --seconds) seconds="$2"; shift 2 ;;
    --runs) runs="$2"; shift 2 ;;
    --seed) seed="$2"; shift 2 ;;
    --timeout) timeout="$2"; shift 2 ;;
    --rss-mb) rss_mb="$2"; shift 2 ;;
    --fresh) fresh=1; shift ;;
    --no-build) build=0; shift ;;
    -h|--help) sed -n '2,26p' "$0"; exit 0 ;;
    -*) echo "fuzz.sh: unknown option $1" >&2; exit 2 ;;
    *)
      if [[ " ${all_targets[*]} " != *" $1 "* ]]; then echo "fuzz.sh: unknown target $1 (${all_targets[*]})" >&2; exit 2; fi
      targets+=("$1"); shift ;;
  esac
done
[ ${#targets[@]} -gt 0 ] || targets=("${all_targets[@]}")

scratch=.build-fuzz
if [ "$build" = 1 ]; then
  bash scripts/install-deps.sh
  echo "fuzz.sh: building touchd-fuzz with libFuzzer and AddressSanitizer" >&2
  # With exclusivity's run-time checks, which the daemon's release builds leave out (Package.swift).
  TOUCHD_EXCLUSIVITY_CHECKS=1 swift build -c release --scratch-path "$scratch" --product touchd-fuzz \
    -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library -Xswiftc -DTOUCHD_LIBFUZZER \
    -Xcc -fsanitize=fuzzer-no-link,address -Xcxx -fsanitize=fuzzer-no-link,address >&2
fi
binary="$scratch/release/touchd-fuzz"
[ -x "$binary" ] || { echo "fuzz.sh: $binary is missing (run without --no-build)" >&2; exit 2; }

# Seeds from the shared recordings: the first 80 lines of each file in the target's format.
recording_seeds() {
  local target="$1" dir="$scratch/recording-seeds/$1" format
  case "$target" in
    evemu) format="evemu" ;; libinput-record) format="libinput-record" ;; getevent) format="getevent" ;; *) return ;;
  esac
  local index="$root/../shared/recordings/INDEX.tsv"
  [ -f "$index" ] || return 0
  rm -rf "$dir"; mkdir -p "$dir"
  local n=0
  while IFS=$'\t' read -r path _ _ _ fmt _; do
    case "$fmt" in *"$format"*) ;; *) continue ;; esac
    [ -f "$root/../shared/recordings/$path" ] || continue
    n=$((n + 1))
    head -n 80 "$root/../shared/recordings/$path" > "$dir/$n"
  done < <(tail -n +2 "$index")
  echo "$dir"
}

summary=()
failed=0
for target in "${targets[@]}"; do
  work="$scratch/work/$target"
  artifacts="$scratch/artifacts/$target/"
  [ "$fresh" = 1 ] && rm -rf "$work"
  mkdir -p "$work" "$artifacts" "Fuzz/regressions/$target"
  inputs=("$work" "Fuzz/corpus/$target" "Fuzz/regressions/$target")
  extra=$(recording_seeds "$target")
  [ -n "$extra" ] && inputs+=("$extra")
  limit=(-max_total_time="$seconds")
  [ -n "$runs" ] && limit=(-runs="$runs")
  # The request target runs a daemon per input: shorter inputs keep it fast.
  max_len=8192
  [ "$target" = request ] && max_len=1024
  log="$scratch/$target.log"
  echo "fuzz.sh: $target (${limit[*]}, seed $seed)" >&2
  status=0
  TOUCHD_FUZZ_TARGET="$target" TOUCHD_FUZZ_CONFIG="$root/config" SWIFT_BACKTRACE=enable=no ASAN_OPTIONS="detect_leaks=1:${ASAN_OPTIONS:-}" \
    nice -n "${FUZZ_NICE:-0}" "$binary" "${inputs[@]}" "${limit[@]}" -seed="$seed" -timeout="$timeout" \
    -rss_limit_mb="$rss_mb" -malloc_limit_mb="$rss_mb" -max_len="$max_len" -detect_leaks=1 -print_final_stats=1 \
    -artifact_prefix="$artifacts" ${FUZZ_ARGS:-} > "$log" 2>&1 || status=$?
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
  cov=$(grep -o 'cov: [0-9]* ft: [0-9]*' "$log" | tail -1 || true)
  used_seed=$(sed -n 's/^INFO: Seed: *//p' "$log" | head -1)
  if [ "$status" -ne 0 ]; then
    failed=1
    echo "fuzz.sh: $target FAILED (exit $status); the log is $log, the input in $artifacts" >&2
    grep -E 'touchd-fuzz:|ERROR: (libFuzzer|AddressSanitizer|LeakSanitizer)|SUMMARY|Test unit written' "$log" | head -20 >&2 || true
    summary+=("$(printf '%-16s FAILED (exit %s) after %s executions' "$target" "$status" "${execs:-?}")")
  else
    summary+=("$(printf '%-16s %10s executions %7s exec/s  %-20s seed %s' "$target" "${execs:-?}" "${rate:-?}" "${cov:-?}" "${used_seed:-$seed}")")
  fi
done
echo "fuzz.sh: commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
printf '%s\n' "${summary[@]}"
if [ "$failed" -ne 0 ]; then
  echo "fuzz.sh: at least one target failed" >&2
  exit 1
fi
n=${#targets[@]}
echo "fuzz: $n passed, 0 failed"
