#!/usr/bin/env bash
# The whole daemon on a real kernel, against libinput and the floor, in one guest boot.
#
#   bash scripts/bench/daemon-vm.sh        (from anywhere; as root or through sudo; ~10 min)
#   settings: REPS=3 ICOUNT=shift=0,sleep=off TIMEOUT=1800 KEEP=DIR (keep the guest's raw output)
#             READERS="relay forward" (some of the readers below only; default: all)
#
# Builds touchd as scripts/vm/e2e.sh does, the guest programs in scripts/bench/guest (static C),
# and a layout of 340 views (60 Hz); boots the scripts/vm lab under QEMU -icount (guest time counts
# instructions: 1 ms = 1M instructions, the same on every run), and there measures, each reader
# alone on its own replay of one stream (10 fingers at 1 kHz, 302 frames, 9,988 events):
#   floor           a static C reader that only poll()s and read()s (bench-floor)
#   relay           a static C relay of each frame's raw events to a Unix socket and its static C
#                   reader (bench-relay, bench-relay-sub): the floor of any out-of-process bridge
#   libinput        libinput debug-events --quiet, and printing
#   touchd          the daemon with one client (bench-subscriber) subscribed to hits and actions,
#                   to touches at 60 Hz, or to touches at the input's rate (a touch message per
#                   touch and frame, or a touch_frame message per frame)
#   relay-tap, touchd-tap   the relay floor and the daemon subscribed to hits and actions on a second
#                   stream, one finger tapping (50 taps: 100 frames, 700 events), for the one-finger
#                   hit latency (goal: p99 <= 2 x the relay's on the taps; ten fingers: 4 x)
#   uinput-relay    a static C relay of each frame's events to a uinput touchscreen of its own, read
#                   there with the source by bench-forward: the floor of any forwarder
#   forward         the daemon forwarding every touch to its virtual touchscreen, read there with the
#                   source by bench-forward: the forwarded touch's latency from the source's kernel
#                   timestamp to the read() of the virtual touchscreen (goal: p99 <= 2 x the relay's)
# and prints a table (CPU, ratio to the floor, latency p50/p99, events seen) and one
# "goal NAME: ... met|missed" line per goal.
# The method is in docs/performance.md ("Whole daemon on a real kernel") and in scripts/bench/vm-job/run. Exits 0 when the
# benchmark ran, whether or not the goals were met (it says so); non-zero when it could not run.
set -uo pipefail
cd "$(dirname "$0")/../.."
REPS=${REPS:-3} ICOUNT=${ICOUNT:-shift=0,sleep=off} TIMEOUT=${TIMEOUT:-1800}
fail() { echo "daemon-vm: $1" >&2; exit 1; }

bash scripts/install-deps.sh libinput-tools >&2 || fail "cannot install the build dependencies and libinput-tools"
bash scripts/vm/setup.sh >&2 || fail "cannot set up the VM lab"
buildlog=$(mktemp)
swift build -c release --static-swift-stdlib --scratch-path .build-release --product touchd > "$buildlog" 2>&1 \
  || { tail -40 "$buildlog" >&2; rm -f "$buildlog"; fail "cannot build touchd"; }
rm -f "$buildlog"

w=$(mktemp -d); trap 'rm -rf "$w"' EXIT
mkdir -p "$w/job" "$w/bin"
cp -a scripts/bench/vm-job/. "$w/job/"
for prog in bench-player bench-floor bench-subscriber bench-relay bench-relay-sub bench-uinput-relay bench-forward; do
  gcc -static -O2 -Wall -o "$w/bin/$prog" "scripts/bench/guest/$prog.c" -lm || fail "cannot build $prog"
done
gcc -O2 -Wall -shared -fPIC -o "$w/bin/bench-readprobe.so" scripts/bench/guest/bench-readprobe.c -ldl || fail "cannot build bench-readprobe.so"
debug_events=/usr/libexec/libinput/libinput-debug-events
[ -x "$debug_events" ] || fail "no $debug_events (Debian's libinput-tools)"
mkdir -p "$w/job/share"; cp -r /usr/share/libinput "$w/job/share/"

# The layout: one 1280x800 window of 20 rows of 16 cells (340 views), the rows with handlers.
bash scripts/bench/stream-layout.sh > "$w/job/layout.toml"
.build-release/release/touchd check --config "$w/job/layout.toml" > "$w/check.txt" 2>&1 || { cat "$w/check.txt" >&2; fail "the benchmark's layout does not load"; }
# The forwarding layout: the bench touchscreen's axes one to one on the window's points, one
# full-screen view forwarding what touchd does not take, moves at input rate.
cat > "$w/job/forward.toml" <<'LAYOUT'
[[window]]
id = "screen"
size = [4095, 2559]
points_per_mm = 16
refresh_hz = 0

[[view]]
id = "app"
parent = "screen"
frame = [0, 0, 4095, 2559]
forward = "unclaimed"

[[device]]
match.name = "touchd bench touchscreen"
window = "screen"
grab = false
LAYOUT
.build-release/release/touchd check --config "$w/job/forward.toml" > "$w/check.txt" 2>&1 || { cat "$w/check.txt" >&2; fail "the forwarding layout does not load"; }

# The settings the guest's job reads.
{ echo "REPS=$REPS"; [ -n "${READERS:-}" ] && echo "READERS=\"$READERS\""; } > "$w/job/settings"

log=$w/guest.log
echo "daemon-vm: booting the guest (QEMU -icount $ICOUNT, REPS=$REPS)..." >&2
bash scripts/vm/run.sh --udev --timeout "$TIMEOUT" --icount "$ICOUNT" "$w/job" \
  .build-release/release/touchd "$w"/bin/* "$debug_events" > "$log" 2> "$w/guest.err"
rc=$?
[ -n "${KEEP:-}" ] && { mkdir -p "$KEEP"; cp "$log" "$w/guest.err" "$w/job/layout.toml" "$KEEP/"; }
grep -v '^result ' "$w/guest.err" | tail -20 >&2
[ "$rc" -eq 0 ] || { tail -30 "$w/guest.err" >&2; fail "the guest run failed (run.sh exit $rc)"; }
python3 scripts/bench/daemon-vm-report.py "$log" "$ICOUNT" || fail "cannot summarise the guest's results"
