#!/usr/bin/env bash
# The daemon's main job on bundled data, with no touchscreen needed: validates the bundled kiosk
# layout, then explains where touches on the seed experiment layout go.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
swift build --product touchd
bin=$(swift build --show-bin-path)/touchd
echo "== touchd check --config config/kiosk.toml"
"$bin" check --config config/kiosk.toml
echo
echo "== touchd hit-test --config config/seed-experiment.toml 100 200"
"$bin" hit-test --config config/seed-experiment.toml 100 200
