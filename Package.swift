// swift-tools-version: 6.0
import PackageDescription

// SyncUps for Linux. One folder per module under Sources/; C libraries sit behind
// system-library targets that only the client modules import.
let pointfree: [Target.Dependency] = [
  .product(name: "Dependencies", package: "swift-dependencies"),
  .product(name: "DependenciesMacros", package: "swift-dependencies"),
  .product(name: "CasePaths", package: "swift-case-paths"),
  .product(name: "CustomDump", package: "swift-custom-dump"),
  .product(name: "IdentifiedCollections", package: "swift-identified-collections"),
  .product(name: "ConcurrencyExtras", package: "swift-concurrency-extras"),
  .product(name: "IssueReporting", package: "xctest-dynamic-overlay"),
]

/// Test targets link this so IssueReporting failures reach swift-testing.
let testSupport: [Target.Dependency] = [
  .product(name: "IssueReportingTestSupport", package: "xctest-dynamic-overlay"),
]

let package = Package(
  name: "SyncUps",
  products: [
    .library(name: "Architecture", targets: ["Architecture"]),
    .library(name: "Sharing", targets: ["Sharing"]),
  ],
  dependencies: [
    .package(url: "https://github.com/pointfreeco/swift-dependencies", from: "1.17.1"),
    .package(url: "https://github.com/pointfreeco/swift-case-paths", from: "1.10.0"),
    .package(url: "https://github.com/pointfreeco/swift-custom-dump", from: "1.7.3"),
    .package(url: "https://github.com/pointfreeco/swift-identified-collections", from: "1.1.1"),
    .package(url: "https://github.com/pointfreeco/swift-clocks", from: "1.1.1"),
    .package(url: "https://github.com/pointfreeco/swift-concurrency-extras", from: "1.4.3"),
    .package(url: "https://github.com/pointfreeco/xctest-dynamic-overlay", from: "1.13.1"),
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    .package(url: "https://github.com/pointfreeco/swift-tagged", from: "0.10.0"),
  ],
  targets: [
    // MARK: Architecture core and shared state
    .target(
      name: "Sharing",
      dependencies: pointfree
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
      dependencies: ["Sharing", .product(name: "Dependencies", package: "swift-dependencies")]
    ),
    .testTarget(
      name: "SharingTests",
      dependencies: ["Sharing", "Architecture", "SharingProbe"] + pointfree + testSupport
    ),

    // MARK: Audio and speech (C libraries behind client modules)

    // MARK: Features and the app
    .target(
      name: "SyncUpsFeatures",
      dependencies: [
        "Architecture",
        .product(name: "Tagged", package: "swift-tagged"),
      ]
    ),
    .testTarget(
      name: "SyncUpsFeaturesTests",
      dependencies: ["SyncUpsFeatures"] + testSupport
    ),
  ],
  swiftLanguageModes: [.v6]
)
