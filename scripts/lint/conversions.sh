#!/usr/bin/env bash
# Fails on any conversion in Sources/ that can trap and is not in the reviewed list.
#
# `Int(someDouble)` stops the process on NaN, infinity or a value out of range, and so do
# narrowing or sign-changing integer conversions (`Int32(someInt)`, `UInt(someNegativeInt)`).
# The compiler finds them by type: a copy of the package gets, in each Swift target, a generated
# file (scripts/lint/generate-overloads.py) of deprecated overloads of those initialisers, which
# shadow the standard library's in that module, so every such call compiles to a deprecation
# warning naming its file and line. The warnings are compared, by file, conversion and trimmed
# source line (not line number: edits elsewhere do not disturb the list), with
# scripts/lint/conversions.reviewed, where each accepted conversion has a reason. A reason
# starting `TRAPS:` marks one that can trap and is yet to be fixed: accepted, but counted.
#
# Generic code (`Int(x)` with `x: some BinaryFloatingPoint`) and conversions hidden behind other
# functions (`numericCast`) are not seen.
#
# Every Swift target is compiled again on each run (debug, its own scratch path): about two
# minutes on a busy two-core machine, three and a half for the first run, which also builds the
# dependencies. Only the result is printed; the build's output is in the work directory.
#
# Usage: scripts/lint/conversions.sh [--update] [--strict]
#   --update  rewrite the reviewed list: keep the reasons of conversions still there, add the new
#             ones with the reason UNREVIEWED (for a person to write), drop those gone
#   --strict  fail on conversions marked TRAPS: too
# Exit status: 0 all reviewed, 1 unreviewed conversions (or TRAPS: with --strict), 2 the lint
# itself failed. Environment: TOUCHD_LINT_WORK (default .build/lint-conversions), where the copy
# and its build are kept between runs.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
update=0
strict=0
for arg in "$@"; do
  case $arg in
    --update) update=1 ;;
    --strict) strict=1 ;;
    *) echo "usage: $0 [--update] [--strict]" >&2; exit 2 ;;
  esac
done

work=${TOUCHD_LINT_WORK:-$root/.build/lint-conversions}
copy=$work/package
scratch=$work/scratch
log=$work/build.log
mkdir -p "$copy" "$scratch"
start=$(date +%s)

# The package as it is now, builds and history aside (with tar: rsync is not always installed).
# The copy's Package.resolved is kept, so that its dependencies resolve as they did last time.
find "$copy" -mindepth 1 -maxdepth 1 ! -name Package.resolved -exec rm -rf {} +
tar -C "$root" -cf - --exclude='./.build*' --exclude='./.git' --exclude='./.swiftpm' --exclude='./Package.resolved' . \
  | tar -C "$copy" -xf -
python3 scripts/lint/generate-overloads.py > "$work/LintConversions.swift"
targets=()
for dir in "$copy"/Sources/*/; do
  # C targets (CEvdev, CUdev, CLinux) have no Swift files.
  if [ -n "$(find "$dir" -name '*.swift' -print -quit)" ]; then
    cp "$work/LintConversions.swift" "$dir/LintConversions.swift"
    targets+=("$(basename "$dir")")
  fi
done

# Every Swift file is compiled afresh (a file found up to date would give no warnings): each is
# made newer than its last build. The dependencies' builds are kept.
find "$copy/Sources" -name '*.swift' -exec touch {} +
if ! (cd "$copy" && swift build --scratch-path "$scratch" > "$log" 2>&1); then
  echo "conversions: the lint build failed ($log):" >&2
  grep -E "error:" "$log" | head -20 >&2
  exit 2
fi
built=$(date +%s)

set +e
python3 scripts/lint/compare-conversions.py --log "$log" --copy "$copy" --reviewed scripts/lint/conversions.reviewed \
  $([ $update = 1 ] && echo --update) $([ $strict = 1 ] && echo --strict)
status=$?
set -e
echo "conversions: ${#targets[@]} Swift targets built in $((built - start)) s" >&2
exit $status
