# The two Quick start commands: `make demo` (main job on the bundled sample) and `make test`.
# Tests that record use a private PulseAudio daemon (.ci/pulse starts it when it is not running,
# in its own runtime folder, never a user's session daemon); the exported PULSE_* variables point
# every client in `swift test` at it.
SWIFT ?= swift
PULSE = eval "$$(.ci/pulse)"

.PHONY: setup build demo test bench bench-store latency pulse

setup:
	@.ci/setup

build: setup
	$(SWIFT) build

# Records the bundled stand-up into a demo sync-up in a temporary data directory and prints the
# saved transcript by speaker (see .ci/demo).
demo: build
	@.ci/demo .build/debug/syncups

pulse: setup
	@.ci/pulse >/dev/null

test: setup
	@$(PULSE) && $(SWIFT) test

# Benchmark against pocketsphinx_batch (a command, not a timed test): see .ci/bench.
bench: setup
	$(SWIFT) build -c release --scratch-path .build-release --product syncups
	.ci/bench .build-release/release/syncups

# Latency from the end of each utterance to its final result, through a virtual microphone.
latency: setup
	@$(PULSE) && $(SWIFT) test --filter microphoneTranscriptEqualsFileTranscript 2>&1 | grep -E "latency|passed|failed"

# The database at 10 and 250 meetings (release build; a command, not a test): times of list,
# show, meetings, transcript, search and a meeting's save, peak memory, 250/10 ratios.
bench-store: setup
	$(SWIFT) build -c release --scratch-path .build-release --product StoreBenchmark
	.build-release/release/StoreBenchmark
