# The two Quick start commands: `make demo` (main job on the bundled sample) and `make test`.
SWIFT ?= swift

.PHONY: setup build demo test bench

setup:
	@.ci/setup

build: setup
	$(SWIFT) build

demo: build
	@echo "demo: not wired yet"

test: setup
	$(SWIFT) test
