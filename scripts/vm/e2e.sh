#!/usr/bin/env bash
# End to end on a real kernel: builds touchd, boots the QEMU guest with udevd and hid-multitouch,
# creates a touchscreen and a touchpad through uinput and a touchscreen through uhid, plays touches,
# unplugs and replugs a device mid-touch, and checks what touchd reports to a subscribed client.
set -euo pipefail
cd "$(dirname "$0")/../.."
bash scripts/install-deps.sh
bash scripts/vm/setup.sh
swift build -c release --static-swift-stdlib --scratch-path .build-vm --product touchd
swift build -c release --static-swift-stdlib --scratch-path .build-vm --product touchctl
bin=.build-vm/release
bash scripts/vm/run.sh --udev --timeout 300 scripts/vm/e2e-job "$bin/touchd" "$bin/touchctl"
