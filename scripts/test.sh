#!/usr/bin/env bash
# The whole test suite: core, layout, protocol, socket and recording tests.
# Tests that read ../shared/recordings say plainly when it is absent (and fail when CI is set).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
swift build --build-tests
swift test --skip-build
