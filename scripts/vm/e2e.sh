#!/usr/bin/env bash
# End to end on a real kernel: builds touchd, boots the QEMU guest with udevd and hid-multitouch,
# creates a touchscreen and a touchpad through uinput and a touchscreen through uhid, plays touches,
# unplugs and replugs a device mid-touch, overflows a stopped reader (SYN_DROPPED), and checks what
# `touchd devices --json`, `touchd debug-events` and a client subscribed to the daemon report. A second
# guest runs a uinput keyboard and a uinput accelerometer: presses, remote control, shakes and the
# first responder (scripts/vm/e2e-keys-job). A third runs the installer's tools: a skewed uinput
# touchscreen calibrated with `touchctl calibrate`, and a touchscreen recorded through the daemon and
# from its node, each recording replayed against the live run (scripts/vm/e2e-installer-job). A fourth
# puts touchd in front of a GUI: a skewed touchscreen calibrated by touchd, what its layout does not
# take forwarded to its virtual touchscreen, read there by Debian's libinput debug-events, and the
# virtual touchscreen's life (stop, reload, crash, no uinput) (scripts/vm/e2e-forward-job).
#
# Runs from anywhere, as root on Debian 12 (or through sudo): installs what it needs on first use
# (scripts/vm/setup.sh caches the lab under $TOUCHD_VMLAB, default /tmp/touchd-vm). Ends with an
# `N passed, N failed` line (both guests' checks together) and exits 0 only when every check passed.
set -uo pipefail
cd "$(dirname "$0")/../.."
started=$(date +%s)
give_up() { echo "e2e: $1" >&2; echo "0 passed, 1 failed"; exit 1; }

bash scripts/install-deps.sh libinput-tools || give_up "cannot install the build dependencies and libinput-tools"
bash scripts/vm/setup.sh || give_up "cannot set up the VM lab"
ready=$(date +%s)
buildlog=$(mktemp)
# One binary, as installed: touchctl is touchd invoked under that name (run.sh copies what the
# link points to, under the link's name).
if ! swift build -c release --static-swift-stdlib --scratch-path .build-release --product touchd > "$buildlog" 2>&1; then
  tail -40 "$buildlog" >&2
  give_up "cannot build touchd"
fi
tail -1 "$buildlog"
rm -f "$buildlog"
mkdir -p .build-release/multicall && ln -sfn ../release/touchd .build-release/multicall/touchctl
built=$(date +%s)

bin=.build-release/release
log=$(mktemp); forward=$(mktemp -d); trap 'rm -rf "$log" "$forward"' EXIT
# The forwarding job reads touchd's virtual touchscreen with Debian's libinput debug-events, which
# needs libinput's device quirks in the guest.
debug_events=/usr/libexec/libinput/libinput-debug-events
[ -x "$debug_events" ] || give_up "no $debug_events (Debian's libinput-tools)"
cp -a scripts/vm/e2e-forward-job/. "$forward/"
mkdir -p "$forward/share"; cp -r /usr/share/libinput "$forward/share/"
# Four jobs, each in its own guest: touch devices, keys and motion, the installer's tools, touchd
# in front of a GUI. Their counts are summed.
passed=0 failed=0 rc=0
for job in scripts/vm/e2e-job scripts/vm/e2e-keys-job scripts/vm/e2e-installer-job "$forward"; do
  extra=(); name=$job
  [ "$job" = "$forward" ] && extra=("$debug_events") name=scripts/vm/e2e-forward-job
  echo "=== $name"
  bash scripts/vm/run.sh --udev --timeout 600 "$job" "$bin/touchd" .build-release/multicall/touchctl "${extra[@]}" | tee "$log"
  job_rc=${PIPESTATUS[0]}
  summary=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$log" | tail -1)
  if [ -z "$summary" ]; then
    echo "e2e: $name ended without a result (run.sh exit $job_rc)" >&2
    failed=$((failed + 1)); rc=1; continue
  fi
  job_passed=${summary%% passed*}
  job_failed=${summary#* passed, }; job_failed=${job_failed%% failed}
  passed=$((passed + job_passed)); failed=$((failed + job_failed))
  # A guest that exited non-zero although every check passed is a failure too.
  if [ "$job_rc" -ne 0 ] && [ "$job_failed" -eq 0 ]; then
    echo "e2e: the guest of $name exited $job_rc although every check passed" >&2
    failed=$((failed + 1))
  fi
  [ "$job_rc" -ne 0 ] && rc=$job_rc
done
finished=$(date +%s)
echo "e2e: setup $((ready - started))s, build $((built - ready))s, guests $((finished - built))s" >&2
[ "$failed" -gt 0 ] && [ "$rc" -eq 0 ] && rc=1
echo "$passed passed, $failed failed"
exit "$rc"
