#!/usr/bin/env bash
# The whole test suite: core, layout, evdev, protocol, socket, process and recording tests, a short
# fuzzing run of every fuzzing target, then the end-to-end run on a real Linux kernel under QEMU
# (uinput and uhid devices, udevd, hotplug).
# Tests that read ../shared/recordings say plainly when it is absent (and fail when CI is set).
set -euo pipefail
cd "$(dirname "$0")/.."
# systemd provides systemd-analyze and systemd-socket-activate, which the service tests use;
# librsvg2-bin provides rsvg-convert, for the PNG pictures.
bash scripts/install-deps.sh systemd librsvg2-bin
swift build --build-tests
swift test --skip-build
# Coverage-guided fuzzing, seeded: every target for 20 seconds under libFuzzer, ASan and LSan.
bash scripts/fuzz.sh --seconds 20
bash scripts/vm/e2e.sh
