// swift-tools-version: 6.0
import PackageDescription

// SyncUps for Linux. One folder per module under Sources/; C libraries sit behind
// system-library targets that only the client modules import.
let pointfree: [Target.Dependency] = [
  .product(name: "Dependencies", package: "swift-dependencies"),
  .product(name: "CustomDump", package: "swift-custom-dump"),
  .product(name: "IdentifiedCollections", package: "swift-identified-collections"),
  .product(name: "ConcurrencyExtras", package: "swift-concurrency-extras"),
  .product(name: "IssueReporting", package: "xctest-dynamic-overlay"),
]

/// Test targets link this so IssueReporting failures reach swift-testing.
let testSupport: [Target.Dependency] = [
  .product(name: "IssueReportingTestSupport", package: "xctest-dynamic-overlay")
]

let dependencyClient: [Target.Dependency] = [
  .product(name: "Dependencies", package: "swift-dependencies"),
  .product(name: "IssueReporting", package: "xctest-dynamic-overlay"),
]

let package = Package(
  name: "SyncUps",
  products: [
    .library(name: "Architecture", targets: ["Architecture"]),
    .library(name: "Sharing", targets: ["Sharing"]),
    .library(name: "SharingGRDB", targets: ["SharingGRDB"]),
    .library(name: "AudioCore", targets: ["AudioCore"]),
    .library(name: "WorkerThreads", targets: ["WorkerThreads"]),
    .library(name: "AudioFilesClient", targets: ["AudioFilesClient"]),
    .library(name: "AudioCaptureClient", targets: ["AudioCaptureClient"]),
    .library(name: "TranscriptionClient", targets: ["TranscriptionClient"]),
    .library(name: "AudioFilesClientLive", targets: ["AudioFilesClientLive"]),
    .library(name: "AudioCaptureClientLive", targets: ["AudioCaptureClientLive"]),
    .library(name: "TranscriptionClientLive", targets: ["TranscriptionClientLive"]),
    .executable(name: "syncups", targets: ["syncups"]),
    .executable(name: "timer-lag", targets: ["timer-lag"]),
    // The team server: its own product, so the laptops' `syncups` links no SwiftNIO.
    .library(name: "SyncUpsServer", targets: ["SyncUpsServer"]),
    .executable(name: "syncups-server", targets: ["SyncUpsServerCommand"]),
  ],
  dependencies: [
    .package(url: "https://github.com/pointfreeco/swift-dependencies", from: "1.17.1"),
    .package(url: "https://github.com/pointfreeco/swift-custom-dump", from: "1.7.3"),
    .package(url: "https://github.com/pointfreeco/swift-identified-collections", from: "1.1.1"),
    .package(url: "https://github.com/pointfreeco/swift-clocks", from: "1.1.1"),
    .package(url: "https://github.com/pointfreeco/swift-concurrency-extras", from: "1.4.3"),
    .package(url: "https://github.com/pointfreeco/xctest-dynamic-overlay", from: "1.13.1"),
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    .package(url: "https://github.com/pointfreeco/swift-tagged", from: "0.10.0"),
    .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
    // The team server's alone (nothing the laptop's `syncups` links depends on these).
    .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
    .package(url: "https://github.com/hummingbird-project/hummingbird-auth", from: "2.5.0"),
    .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
    // /metrics: the server's series through swift-metrics, written out by the Prometheus exporter.
    .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
    .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
    .package(url: "https://github.com/apple/swift-crypto", "3.12.3"..<"5.0.0"),
    .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
    // The server's own HTTPS, and the HTTP parts its header timeout reads.
    .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
    .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
    .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
    // The server's posts to the teams' chats, and the browser tests' WebDriver client
    // (chromedriver's headers are not ones URLSession reads).
    .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
  ],
  targets: [
    // MARK: Architecture core and shared state
    // Errors in words, one way everywhere on the laptop.
    .target(name: "ErrorWords"),
    .target(
      name: "Sharing",
      dependencies: pointfree + ["ErrorWords"]
    ),
    .target(
      name: "Architecture",
      dependencies: pointfree + [
        "Sharing",
        .product(name: "Clocks", package: "swift-clocks"),
      ]
    ),
    .testTarget(
      name: "ArchitectureTests",
      dependencies: ["Architecture"] + testSupport
    ),
    // A child program the Sharing tests spawn, kill and signal (multi-process file storage).
    .executableTarget(
      name: "SharingProbe",
      dependencies: ["Sharing", .product(name: "Dependencies", package: "swift-dependencies")],
      path: "Sources/Tools/SharingProbe"
    ),
    .testTarget(
      name: "SharingTests",
      dependencies: ["Sharing", "Architecture", "SharingProbe", "TestSupport"] + pointfree
        + testSupport
    ),

    // `@Shared` over a GRDB database: fetch keys, keys that write what changed, app storage.
    .target(
      name: "SharingGRDB",
      dependencies: ["Sharing", .product(name: "GRDB", package: "GRDB.swift")] + pointfree
    ),

    // MARK: Audio and speech (C libraries behind client modules)
    .systemLibrary(
      name: "CPocketSphinx", path: "Sources/CPocketSphinx", pkgConfig: "pocketsphinx",
      providers: [.apt(["libpocketsphinx-dev", "libsphinxbase-dev"])]
    ),
    .systemLibrary(
      // No pkgConfig: libpulse-simple.pc only adds -D_REENTRANT/-pthread, which SwiftPM rejects
      // with a warning; the headers are in /usr/include and the modulemap links the libraries.
      name: "CPulse", path: "Sources/CPulse",
      providers: [.apt(["libpulse-dev"])]
    ),
    .systemLibrary(
      name: "CSndfile", path: "Sources/CSndfile", pkgConfig: "sndfile",
      providers: [.apt(["libsndfile1-dev"])]
    ),
    .systemLibrary(
      name: "CSampleRate", path: "Sources/CSampleRate", pkgConfig: "samplerate",
      providers: [.apt(["libsamplerate0-dev"])]
    ),
    .target(name: "AudioCore"),
    .testTarget(name: "AudioCoreTests", dependencies: ["AudioCore"]),
    // Voice profiles (Gaussian mixtures over a sentence's MFCC frames) and who said what.
    .target(name: "VoiceProfiles", dependencies: ["AudioCore"]),
    .testTarget(name: "VoiceProfilesTests", dependencies: ["VoiceProfiles", "AudioCore"]),
    // A thread of its own for blocking work, so the cooperative pool never waits on C or disk.
    .target(name: "WorkerThreads"),
    // Children started with every signal at its default (the sentence pass, tests' tmux, PostgreSQL).
    .target(name: "ChildProcesses"),
    .testTarget(name: "WorkerThreadsTests", dependencies: ["WorkerThreads"]),
    // Each client: an interface module (types, the client struct, test value; no C) that
    // features depend on, and a live module that imports the C library and adds `liveValue`.
    .target(
      name: "AudioFilesClient", dependencies: ["AudioCore", "ErrorWords"] + dependencyClient),
    .target(
      name: "AudioFilesClientLive",
      dependencies: [
        "AudioCore", "AudioFilesClient", "CSndfile", "CSampleRate", "ErrorWords", "WorkerThreads",
      ]
        + dependencyClient
    ),
    .target(name: "AudioCaptureClient", dependencies: ["AudioCore"] + dependencyClient),
    .target(
      name: "AudioCaptureClientLive",
      dependencies: [
        "AudioCore", "AudioCaptureClient", "AudioFilesClientLive", "CPulse", "WorkerThreads",
      ] + dependencyClient
    ),
    // Vocabulary and language models: a team's words, flite's letter-to-sound rules,
    // the stand-up model interpolated with the general one.
    .systemLibrary(name: "CFlite", path: "Sources/CFlite", providers: [.apt(["flite1-dev"])]),
    .target(name: "SpeechVocabulary"),
    .target(
      name: "SpeechAdaptation",
      dependencies: ["AudioCore", "SpeechVocabulary", "CFlite", "CPocketSphinx"]),
    .testTarget(
      name: "SpeechAdaptationTests",
      dependencies: [
        "SpeechAdaptation", "SpeechVocabulary", "TranscriptionClient", "TranscriptionClientLive",
        "AudioCore", "AudioFilesClient", "AudioFilesClientLive", "TestSupport",
      ] + dependencyClient
    ),
    .target(name: "TranscriptionClient", dependencies: ["AudioCore"] + dependencyClient),
    .target(
      name: "TranscriptionClientLive",
      dependencies: [
        "AudioCore", "AudioFilesClient", "AudioFilesClientLive", "TranscriptionClient",
        "CPocketSphinx", "WorkerThreads", "SpeechAdaptation", "SpeechVocabulary", "ChildProcesses",
      ] + dependencyClient
    ),
    .target(
      name: "BatchTranscriber",
      dependencies: [
        "AudioCore", "AudioFilesClient", "AudioFilesClientLive", "TranscriptionClient",
        "TranscriptionClientLive", "WorkerThreads",
      ]
    ),
    // The recorder: one meeting's capture, audio file, live pass and second pass, as a stream of
    // events; the live module composes the capture, audio files and transcription clients.
    .target(
      name: "MeetingRecorder",
      dependencies: ["AudioCore"] + dependencyClient
    ),
    .target(
      name: "MeetingRecorderLive",
      dependencies: [
        "AudioCore", "MeetingRecorder", "AudioCaptureClient", "AudioCaptureClientLive",
        "AudioFilesClient", "AudioFilesClientLive", "ErrorWords", "TranscriptionClient",
        "TranscriptionClientLive", "WorkerThreads",
        .product(name: "ConcurrencyExtras", package: "swift-concurrency-extras"),
      ] + dependencyClient
    ),
    .testTarget(
      name: "MeetingRecorderTests",
      dependencies: [
        "AudioCore", "MeetingRecorder", "MeetingRecorderLive", "AudioCaptureClient",
        "AudioFilesClient", "TranscriptionClient",
        .product(name: "Clocks", package: "swift-clocks"),
        .product(name: "ConcurrencyExtras", package: "swift-concurrency-extras"),
      ] + dependencyClient + testSupport
    ),
    .testTarget(
      name: "AudioFilesClientTests",
      dependencies: [
        "AudioCore", "AudioFilesClient", "AudioFilesClientLive", "SyncUpsTestSupport",
        "TestSupport",
      ] + dependencyClient
    ),
    .testTarget(
      name: "AudioCaptureClientTests",
      dependencies: [
        "AudioCore", "AudioCaptureClient", "AudioCaptureClientLive", "AudioFilesClientLive",
        "TranscriptionClient", "TranscriptionClientLive", "SyncUpsTestSupport", "TestSupport",
      ] + dependencyClient
    ),
    .testTarget(
      name: "TranscriptionClientTests",
      dependencies: [
        "SyncUpsTestSupport", "AudioCore", "AudioFilesClient", "AudioFilesClientLive",
        "AudioCaptureClient", "AudioCaptureClientLive", "TranscriptionClient",
        "TranscriptionClientLive", "BatchTranscriber", "TestSupport",
      ] + dependencyClient
    ),
    .testTarget(
      name: "TranscribeCommandTests",
      dependencies: ["syncups", "AudioCore", "SyncUpsTestSupport", "TestSupport"]
    ),
    // The lag of a 1 s timer while two decoders run as fast as they can (`make bench`).
    .executableTarget(
      name: "timer-lag",
      dependencies: [
        "AudioCore", "TranscriptionClient", "TranscriptionClientLive", "AudioFilesClientLive",
      ],
      path: "Sources/Tools/TimerLag"
    ),

    // MARK: Features and the app
    // The laptop's store: the models, the SQLite schema, records, requests and every write
    // (the app's, the command line's and the team sync's), each by name and by the rules.
    .target(
      name: "SyncUpsStore",
      dependencies: [
        "AudioCore", "ErrorWords", "SpeechVocabulary", "Sharing", "SharingGRDB", "VoiceProfiles",
        "SyncUpsWire",
        .product(name: "Dependencies", package: "swift-dependencies"),
        .product(name: "IdentifiedCollections", package: "swift-identified-collections"),
        .product(name: "Tagged", package: "swift-tagged"),
        .product(name: "GRDB", package: "GRDB.swift"),
      ]
    ),
    .target(
      name: "SyncUpsFeatures",
      dependencies: [
        "Architecture", "AudioCore", "AudioCaptureClient", "MeetingRecorder", "SyncUpsStore",
        "VoiceProfiles", "WorkerThreads", "ChildProcesses", "SyncUpsWire", "StandupDigest",
        .product(name: "Tagged", package: "swift-tagged"),
      ]
    ),
    // A child program the database tests spawn, kill (at each step of a save) and run two at once.
    .executableTarget(
      name: "DatabaseProbe",
      dependencies: ["SyncUpsStore", "SharingGRDB"],
      path: "Sources/Tools/DatabaseProbe"
    ),
    .testTarget(
      name: "DatabaseTests",
      dependencies: [
        "SyncUpsFeatures", "SyncUpsStore", "SharingGRDB", "DatabaseProbe", "WorkerThreads",
        "TestSupport", "VoiceProfiles",
      ] + pointfree + testSupport
    ),
    // `make bench-store`: the database at 10 and 250 meetings (a command, not a test).
    .executableTarget(
      name: "StoreBenchmark",
      dependencies: ["SyncUpsStore", "SharingGRDB"],
      path: "Sources/Tools/StoreBenchmark"
    ),
    // Interface modules only: no C library is built or linked for the features' tests.
    .testTarget(
      name: "SyncUpsFeaturesTests",
      dependencies: ["SyncUpsFeatures", "AudioCore", "AudioCaptureClient", "MeetingRecorder"]
        + testSupport
    ),
    // The features with the live clients: real decoding, real files.
    .testTarget(
      name: "SyncUpsFeaturesLiveTests",
      dependencies: [
        "SyncUpsFeatures", "AudioCore", "AudioCaptureClient", "AudioCaptureClientLive",
        "AudioFilesClient", "AudioFilesClientLive", "TranscriptionClient",
        "TranscriptionClientLive", "MeetingRecorder", "MeetingRecorderLive", "SyncUpsTestSupport",
        "TestSupport", "WorkerThreads",
      ] + testSupport
    ),
    .target(
      name: "SyncUpsCLI",
      dependencies: [
        "SyncUpsFeatures", "AudioCore", "AudioCaptureClient", "AudioCaptureClientLive",
        "AudioFilesClient", "AudioFilesClientLive", "TranscriptionClient",
        "TranscriptionClientLive", "MeetingRecorder", "MeetingRecorderLive", "SpeechAdaptation",
        "WorkerThreads", "ErrorWords",
      ]
    ),
    // Helpers the tests share: the repository's paths, the private PulseAudio daemon, virtual
    // microphones.
    .target(
      name: "SyncUpsTestSupport",
      dependencies: [
        "AudioCore", "WorkerThreads", "SyncUpsFeatures", "TestSupport", "ChildProcesses",
      ],
      path: "Tests/SyncUpsTestSupport"
    ),
    // What any test may need, with no dependency but ChildProcesses (so every test target can
    // link it): waiting for a condition or an event, child processes whose exit is awaited,
    // temporary folders, and `.ownThread` for the few tests that block their thread (a decoder run in-process).
    .target(name: "TestSupport", dependencies: ["ChildProcesses"], path: "Tests/TestSupport"),
    .testTarget(
      name: "RecordCommandTests",
      dependencies: [
        "syncups", "SyncUpsTestSupport", "TestSupport", "AudioFilesClient", "AudioFilesClientLive",
      ]
    ),
    .executableTarget(
      name: "syncups",
      dependencies: [
        "AudioCaptureClient",
        "AudioCaptureClientLive",
        "AudioFilesClientLive",
        "TranscriptionClientLive",
        "MeetingRecorderLive",
        "BatchTranscriber",
        "SpeechVocabulary",
        "SyncUpsCLI",
        "SyncUpsFeatures",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
        "SyncClient", "SyncClientLive", "TeamSync", "SyncUpsWire", "SyncUpsVersion",
        "StandupDigest",
      ]
    ),
    // The interactive app's screens, and the app driven through tmux.
    .testTarget(
      name: "InteractiveAppTests",
      dependencies: [
        "SyncUpsTestSupport", "TestSupport", "syncups", "SyncUpsCLI", "SyncUpsFeatures",
        "MeetingRecorder",
      ]
    ),
    // Runs the built `syncups` binary with a temporary SYNCUPS_HOME.
    .testTarget(
      name: "SyncUpsCLITests",
      dependencies: [
        "syncups", "SyncUpsCLI", "SyncUpsFeatures", "AudioCaptureClient", "AudioCaptureClientLive",
        "AudioFilesClient", "AudioFilesClientLive", "TranscriptionClient",
        "TranscriptionClientLive", "MeetingRecorder", "MeetingRecorderLive",
        "SyncUpsTestSupport", "TestSupport",
      ]
    ),

    // The stand-up digest: yesterday, today and blockers per person from a meeting's segments,
    // by written rules (pure Swift: no C library, no model, no network).
    .target(name: "StandupDigest", dependencies: ["AudioCore"]),
    .testTarget(name: "StandupDigestTests", dependencies: ["StandupDigest"]),
    // `make bench-digest`: the digest of meetings given as JSON (a command, not a test).
    .executableTarget(
      name: "DigestProbe", dependencies: ["StandupDigest"], path: "Sources/Tools/DigestProbe"),

    // MARK: Team server
    // The JSON documents laptops and the server send each other, and the search query parser
    // both FTS5 and PostgreSQL use: Foundation only, so the laptop can link it without SwiftNIO.
    .target(name: "SyncUpsWire", dependencies: ["SpeechVocabulary", "VoiceProfiles"]),
    // The version both programs print and the Debian packages carry (one place to change it).
    .target(name: "SyncUpsVersion"),
    .testTarget(name: "SyncUpsWireTests", dependencies: ["SyncUpsWire"]),
    // The laptop's side of the team sync: the server's routes as a client (interface, and a
    // live module on FoundationNetworking's URLSession, no SwiftNIO), and the sync itself
    // (pushes, pages pulled, audio up and down); what it reads and writes in the laptop's
    // database (the outbox, pulled changes, the cursor) is SyncUpsStore's.
    .target(name: "SyncClient", dependencies: ["SyncUpsWire"] + dependencyClient),
    .target(
      name: "SyncClientLive",
      dependencies: ["ErrorWords", "SyncClient", "SyncUpsWire"] + dependencyClient),
    .target(
      name: "TeamSync",
      dependencies: [
        "SyncClient", "SyncUpsWire", "SyncUpsStore", "AudioCore", "WorkerThreads",
      ]
    ),
    .testTarget(
      name: "TeamSyncTests",
      dependencies: [
        "TeamSync", "SyncClient", "SyncUpsWire", "SyncUpsFeatures", "SyncUpsStore", "AudioCore",
        "syncups",
        "SyncUpsTestSupport", "TestSupport", .product(name: "GRDB", package: "GRDB.swift"),
      ] + dependencyClient + testSupport
    ),
    // The server: PostgreSQL schema and queries, people and tokens, the HTTP API on Hummingbird,
    // audio files by hash (no GRDB, no C libraries of its own).
    .target(
      name: "SyncUpsServer",
      dependencies: [
        "SyncUpsWire", "AudioCore", "ChildProcesses", "StandupDigest",
        .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "HummingbirdTLS", package: "hummingbird"),
        .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
        .product(name: "NIOSSL", package: "swift-nio-ssl"),
        .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
        .product(name: "Metrics", package: "swift-metrics"),
        .product(name: "Prometheus", package: "swift-prometheus"),
        .product(name: "PostgresNIO", package: "postgres-nio"),
        .product(name: "Crypto", package: "swift-crypto"),
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOPosix", package: "swift-nio"),
        .product(name: "Logging", package: "swift-log"),
        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        // The posts to the teams' chats (`WebhookPoster`).
        .product(name: "AsyncHTTPClient", package: "async-http-client"),
      ],
      // The pages' stylesheet and script, compiled into the binary (`PackageResources`).
      resources: [.embedInCode("Resources/style.css"), .embedInCode("Resources/script.js")]
    ),
    // `syncups-server`: migrate, serve, user, token.
    .executableTarget(
      name: "SyncUpsServerCommand",
      dependencies: [
        "SyncUpsServer", "SyncUpsVersion",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
        .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "Logging", package: "swift-log"),
      ]
    ),
    // `make bench-pages`: the meeting page of a 60-minute meeting (9,000 words) rendered again
    // and again, p50/p99 against the API's JSON of the same meeting (a command, not a test).
    .executableTarget(
      name: "PageBenchmark",
      dependencies: ["SyncUpsServer", "SyncUpsWire"],
      path: "Sources/Tools/PageBenchmark"
    ),
    // The team's scenarios end to end: the built `syncups-server` on the private PostgreSQL of
    // .ci/postgres, and two laptops (data directories) running the built `syncups`.
    .testTarget(
      name: "TeamSyncEndToEndTests",
      dependencies: [
        "syncups", "SyncUpsServerCommand", "SyncUpsTestSupport", "TestSupport",
        .product(name: "GRDB", package: "GRDB.swift"),
      ]
    ),
    // Against a real PostgreSQL (.ci/postgres), a database per test, through HummingbirdTesting.
    .testTarget(
      name: "SyncUpsServerTests",
      dependencies: [
        "SyncUpsServer", "SyncUpsWire", "SyncUpsServerCommand", "TestSupport", "ChildProcesses",
        "StandupDigest",
        // The laptops of the web page's correction test run the real `syncups`.
        "SyncUpsTestSupport",
        .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "HummingbirdTesting", package: "hummingbird"),
        .product(name: "AsyncHTTPClient", package: "async-http-client"),
        .product(name: "PostgresNIO", package: "postgres-nio"),
        .product(name: "Crypto", package: "swift-crypto"),
        .product(name: "Logging", package: "swift-log"),
        .product(name: "NIOSSL", package: "swift-nio-ssl"),
      ]
    ),
  ],
  swiftLanguageModes: [.v6]
)
