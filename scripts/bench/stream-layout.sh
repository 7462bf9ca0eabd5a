#!/usr/bin/env bash
# Prints the layout of the daemon benchmarks (scripts/bench/daemon-vm.sh and the host daemon's
# instruction count in scripts/bench.sh): one 1280x800 window of 20 rows of 16 cells (340 views),
# the rows with touches_began and touches_ended handlers, and every touchscreen mapped onto it.
set -euo pipefail
printf '[[window]]\nid = "screen"\nsize = [1280, 800]\n\n'
printf '[[device]]\nmatch.kind = "touchscreen"\nwindow = "screen"\n\n'
for r in $(seq 0 19); do
  printf '[[view]]\nid = "row%d"\nparent = "screen"\nframe = [0, %d, 1280, 40]\n\n' "$r" $((r * 40))
  for c in $(seq 0 15); do
    printf '[[view]]\nid = "row%d.cell%d"\nparent = "row%d"\nframe = [%d, 0, 80, 40]\nmultiple_touch = true\n\n' "$r" "$c" "$r" $((c * 80))
  done
  printf '[[handler]]\nresponder = "row%d"\non = "touches_began"\naction = "row%d-down"\n\n' "$r" "$r"
  printf '[[handler]]\nresponder = "row%d"\non = "touches_ended"\naction = "row%d-up"\n\n' "$r" "$r"
done
