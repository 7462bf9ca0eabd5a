#!/usr/bin/env bash
# The whole test suite, in order: the code lints (no function over 60 lines in Sources/; each
# module's imports as docs/architecture.md's table lists them; no conversion that can trap outside
# the reviewed list), the unit and integration tests (core, layout,
# evdev, protocol, socket, process and recording tests), the Python client and its MQTT bridge against
# the daemon and a real broker, the WebSocket listener checked by python3-websockets, the JavaScript
# client against the daemon, TUIO out of a replay read by
# python-osc (from PyPI, in a virtual environment under .build), a short seeded run of every fuzzing
# target, the watch page and the web kiosk example in a headless browser (Debian's chromium over its
# DevTools protocol; the web kiosk over touchd's WebSocket listener), the end-to-end
# run on a real Linux kernel under QEMU (uinput and uhid devices, udevd, hotplug, recording and
# calibration, touchd in front of a GUI read by libinput), then the Debian package on a real systemd
# boot (Debian 12 under QEMU, systemd as PID 1).
# Tests that read ../shared/recordings say plainly when it is absent (and fail when CI is set).
set -euo pipefail
cd "$(dirname "$0")/.."
# A fresh machine's tools for the tests may need newer libraries than its image has: the tests may
# install them (scripts/install-deps.sh upgrades nothing unless told so, as here and in the demo).
export TOUCHD_DEPS_UPGRADE=allow
# systemd provides systemd-analyze and systemd-socket-activate, which the service tests use;
# librsvg2-bin provides rsvg-convert, for the PNG pictures; chromium shows the watch page; the
# Python client's tests run on Debian's python3 with pip, paho-mqtt and the mosquitto broker;
# python3-websockets is the independent client that checks the WebSocket listener.
bash scripts/install-deps.sh systemd librsvg2-bin python3 python3-pip nodejs chromium mosquitto python3-paho-mqtt \
  python3-websockets
echo "== lint: function length" >&2
python3 scripts/lint/function-length.py
echo "== lint: every module imports what docs/architecture.md's table says" >&2
python3 scripts/lint/imports.py
echo "== lint: conversions that can trap" >&2
bash scripts/lint/conversions.sh --strict
echo "== tests" >&2
swift build --build-tests
swift test --skip-build
echo "== the Python client and the MQTT bridge, against the daemon and mosquitto" >&2
TOUCHD_BIN="$(swift build --show-bin-path)" /usr/bin/python3 -m unittest discover -s clients/python/tests -v
echo "== the WebSocket listener, checked by an independent client (python3-websockets)" >&2
/usr/bin/python3 scripts/websocket/check.py --bin "$(swift build --show-bin-path)"
echo "== the JavaScript client, against the daemon" >&2
TOUCHD_BIN="$(swift build --show-bin-path)" node --test clients/js/test/
echo "== TUIO, read by an independent OSC decoder (python-osc)" >&2
python3 scripts/tuio/replay-check.py --bin "$(swift build --show-bin-path)"
echo "== fuzzing: every target for 20 s, seeded, under libFuzzer, ASan and LSan" >&2
bash scripts/fuzz.sh --seconds 20
echo "== the watch page, in a headless browser" >&2
python3 scripts/browser/watch-page.py --bin "$(swift build --show-bin-path)"
echo "== the web kiosk example, in a headless browser, across a restart of touchd" >&2
node --test examples/web-kiosk/test/
python3 scripts/browser/web-kiosk.py --bin "$(swift build --show-bin-path)"
echo "== end to end, on a real kernel" >&2
bash scripts/vm/e2e.sh
echo "== the Debian package, on a real systemd boot" >&2
bash scripts/vm/systemd-e2e.sh
