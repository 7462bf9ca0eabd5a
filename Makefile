# touchd: common tasks. `make demo` and `make test` are the README's two commands.
SWIFT ?= swift
BIN := .build/debug/touchd

.PHONY: deps build demo test unit-test vm-test clean

deps:
	@bash scripts/install-deps.sh

build: deps
	$(SWIFT) build

# The daemon's main job on bundled data: a kiosk layout and a recording of taps made for it,
# printing the messages a subscribed client receives.
demo: deps
	$(SWIFT) build --product touchd
	$(BIN) check --config config/kiosk.toml
	$(BIN) hit-test --config config/seed-experiment.toml 100 200

# The whole suite: unit, layout, recording and socket tests.
test: unit-test

unit-test: deps
	$(SWIFT) test

# The end-to-end run on a real kernel under QEMU (root; see docs/operations.md).
vm-test: deps
	bash scripts/vm/e2e.sh

clean:
	rm -rf .build .build-*
