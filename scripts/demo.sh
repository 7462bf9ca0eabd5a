#!/usr/bin/env bash
# The daemon's main job on bundled data, with no touchscreen needed: touchd runs the bundled kiosk
# layout (config/kiosk.toml) and plays a bundled recording (config/demo-taps.evemu, made by
# scripts/make-demo-recording.py) as if it were a touchscreen; touchctl subscribes over the socket
# and prints what a kiosk app would receive.
set -euo pipefail
cd "$(dirname "$0")/.."
# libudev-dev needs libudev1 (and with it systemd's libraries) at its own version: on a machine whose
# image is older than the archive, installing it upgrades those, which install-deps.sh names.
TOUCHD_DEPS_UPGRADE=allow bash scripts/install-deps.sh
swift build --product touchd
swift build --product touchctl
bin=$(swift build --show-bin-path)
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
"$bin/touchd" check --config config/kiosk.toml
echo
echo "== touchd --config config/kiosk.toml --replay config/demo-taps.evemu; touchctl monitor:"
"$bin/touchd" --config config/kiosk.toml --socket "$dir/touchd.sock" --log-level warning \
  --replay config/demo-taps.evemu --replay-waits-for-client --exit-after-replay &
daemon=$!
for _ in $(seq 100); do [ -S "$dir/touchd.sock" ] && break; sleep 0.1; done
"$bin/touchctl" monitor --socket "$dir/touchd.sock" --topics hits,actions,devices
wait "$daemon"
