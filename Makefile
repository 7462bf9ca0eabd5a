# touchd: common tasks. The README's two commands are scripts/demo.sh and scripts/test.sh.
.PHONY: deps build demo test vm-test clean

deps:
	@bash scripts/install-deps.sh

build: deps
	swift build

demo:
	bash scripts/demo.sh

test:
	bash scripts/test.sh

clean:
	rm -rf .build .build-*
