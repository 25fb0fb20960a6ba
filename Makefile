# The two Quick start commands: `make demo` (main job on the bundled sample) and `make test`.
# Tests that record use a private PulseAudio daemon (.ci/pulse starts it when it is not running,
# in its own runtime folder, never a user's session daemon); the exported PULSE_* variables point
# every client in `swift test` at it.
SWIFT ?= swift
PULSE = eval "$$(.ci/pulse)"

.PHONY: setup build demo test bench latency pulse

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

# Benchmark against pocketsphinx_batch (a command, not a timed test): see .ci/bench. Then the
# lag of a 1 s timer while two decoders run (Sources/TimerLag), against in-run baselines.
bench: setup
	$(SWIFT) build -c release --scratch-path .build-release --product syncups
	.ci/bench .build-release/release/syncups
	$(SWIFT) build -c release --scratch-path .build-release --product timer-lag
	.build-release/release/timer-lag

# Latency from the end of each utterance to its final result, through a virtual microphone.
latency: setup
	@$(PULSE) && $(SWIFT) test --filter microphoneTranscriptEqualsFileTranscript 2>&1 | grep -E "latency|passed|failed"
