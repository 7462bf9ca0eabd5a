#!/usr/bin/env bash
# End to end on a real kernel: builds touchd, boots the QEMU guest with udevd and hid-multitouch,
# creates a touchscreen and a touchpad through uinput and a touchscreen through uhid, plays touches,
# unplugs and replugs a device mid-touch, overflows a stopped reader (SYN_DROPPED), and checks what
# `touchd devices --json`, `touchd debug-events` and a client subscribed to the daemon report.
#
# Runs from anywhere, as root on Debian 12 (or through sudo): installs what it needs on first use
# (scripts/vm/setup.sh caches the lab under $TOUCHD_VMLAB, default /tmp/touchd-vm). Ends with an
# `N passed, N failed` line and exits 0 only when every check passed.
set -uo pipefail
cd "$(dirname "$0")/../.."
started=$(date +%s)
give_up() { echo "e2e: $1" >&2; echo "0 passed, 1 failed"; exit 1; }

bash scripts/install-deps.sh || give_up "cannot install the build dependencies"
bash scripts/vm/setup.sh || give_up "cannot set up the VM lab"
ready=$(date +%s)
buildlog=$(mktemp)
for product in touchd touchctl; do
  if ! swift build -c release --static-swift-stdlib --scratch-path .build-vm --product "$product" > "$buildlog" 2>&1; then
    tail -40 "$buildlog" >&2
    give_up "cannot build $product"
  fi
  tail -1 "$buildlog"
done
rm -f "$buildlog"
built=$(date +%s)

bin=.build-vm/release
log=$(mktemp); trap 'rm -f "$log"' EXIT
bash scripts/vm/run.sh --udev --timeout 600 scripts/vm/e2e-job "$bin/touchd" "$bin/touchctl" | tee "$log"
rc=${PIPESTATUS[0]}
finished=$(date +%s)
echo "e2e: setup $((ready - started))s, build $((built - ready))s, guest $((finished - built))s" >&2
summary=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$log" | tail -1)
if [ -z "$summary" ]; then
  give_up "the guest run ended without a result (run.sh exit $rc)"
fi
# The job's own summary was printed above; repeat it last, with the guest's failure when it had one.
if [ "$rc" -ne 0 ] && [ "${summary#* passed, }" = "0 failed" ]; then
  give_up "the guest exited $rc although every check passed"
fi
echo "$summary"
exit "$rc"
