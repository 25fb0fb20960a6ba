import Foundation
import SyncUpsFeatures
import Testing

/// The repository's root, found from this file's path.
let repositoryRoot = URL(fileURLWithPath: #filePath)
  .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// The `syncups` binary of this build: SwiftPM puts executables in the same products folder as
/// the test bundle (whatever the triple, configuration or --build-path), so look beside the
/// running test program first. `SYNCUPS_BINARY` overrides it.
let syncupsBinary: Result<URL, BinaryNotFound> = {
  let fileManager = FileManager.default
  var folders: [URL] = []
  if let override = ProcessInfo.processInfo.environment["SYNCUPS_BINARY"], !override.isEmpty {
    return fileManager.isExecutableFile(atPath: override)
      ? .success(URL(fileURLWithPath: override)) : .failure(BinaryNotFound(searched: [override]))
  }
  if let executable = try? fileManager.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
    folders.append(URL(fileURLWithPath: executable).deletingLastPathComponent())
  }
  folders.append(Bundle.main.bundleURL)
  folders.append(Bundle.main.bundleURL.deletingLastPathComponent())
  if let first = CommandLine.arguments.first {
    folders.append(URL(fileURLWithPath: first).deletingLastPathComponent())
  }
  // A test bundle folder (`X.xctest/...`) sits inside the products folder.
  folders += folders.compactMap { folder in
    var url = folder
    while url.path != "/" {
      if url.pathExtension == "xctest" { return url.deletingLastPathComponent() }
      url = url.deletingLastPathComponent()
    }
    return nil
  }
  folders.append(repositoryRoot.appendingPathComponent(".build/debug"))
  let candidates = folders.map { $0.appendingPathComponent("syncups").standardizedFileURL }
  if let found = candidates.first(where: { url in
    var isDirectory: ObjCBool = false
    return fileManager.fileExists(atPath: url.path, isDirectory: &isDirectory) && !isDirectory.boolValue
      && fileManager.isExecutableFile(atPath: url.path)
  }) {
    return .success(found)
  }
  return .failure(BinaryNotFound(searched: candidates.map(\.path)))
}()

struct BinaryNotFound: Error, CustomStringConvertible {
  var searched: [String]
  var description: String {
    "the syncups binary was not built (looked in \(searched.joined(separator: ", "))); run swift build"
  }
}

struct Run: CustomStringConvertible {
  var status: Int32
  var stdout: String
  var stderr: String
  var stderrLines: [String] { stderr.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).filter { !$0.isEmpty } }
  var description: String { "status \(status)\nstdout:\n\(stdout)\nstderr:\n\(stderr)" }
}

/// A fresh data directory (SYNCUPS_HOME) for one test, removed at the end.
final class Home: @unchecked Sendable {
  let url: URL
  var dataDirectory: DataDirectory { DataDirectory(url: url) }
  var dataFile: URL { dataDirectory.syncUpsFile }

  init() throws {
    url = FileManager.default.temporaryDirectory
      .appendingPathComponent("syncups-cli-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }

  deinit { try? FileManager.default.removeItem(at: url) }

  /// Runs `syncups` with this home, no terminal (stdin is /dev/null), UTC dates, and none of the
  /// test runner's variables (which would make the program pick test dependencies).
  func run(_ arguments: String..., environment: [String: String] = [:]) throws -> Run {
    try run(arguments, environment: environment)
  }

  func run(_ arguments: [String], environment: [String: String] = [:]) throws -> Run {
    try runSyncups(arguments, environment: ["SYNCUPS_HOME": url.path].merging(environment) { $1 })
  }

  /// Reads the sync-ups file as the app does, through `@Shared(.syncUps)`.
  func load() throws -> IdentifiedArrayOf<SyncUp> {
    try withDependencies {
      $0.defaultFileStorage = .fileSystem
      $0.dataDirectory = dataDirectory
    } operation: {
      @Shared(.syncUps) var syncUps = []
      if let error = $syncUps.loadError { throw error }
      return syncUps
    }
  }

  /// Changes the sync-ups through `@Shared(.syncUps)` and writes the file, as the app does.
  func update(_ change: (inout IdentifiedArrayOf<SyncUp>) -> Void) throws {
    try withDependencies {
      $0.defaultFileStorage = .fileSystem
      $0.dataDirectory = dataDirectory
    } operation: {
      @Shared(.syncUps) var syncUps = []
      if let error = $syncUps.loadError { throw error }
      $syncUps.withLock { change(&$0) }
      try $syncUps.save()
    }
  }

  func files() throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: url.path).sorted()
  }
}

func runSyncups(_ arguments: [String], environment: [String: String]) throws -> Run {
  let process = Process()
  process.executableURL = try syncupsBinary.get()
  process.arguments = arguments
  var merged = ProcessInfo.processInfo.environment
  for key in ["XCTestBundlePath", "XCTestConfigurationFilePath", "XCTestSessionIdentifier", "XCTestBundleInjectPath"] {
    merged[key] = nil
  }
  merged["TZ"] = "UTC"
  merged.merge(environment) { $1 }
  process.environment = merged
  let out = Pipe(), err = Pipe()
  process.standardInput = FileHandle.nullDevice
  process.standardOutput = out
  process.standardError = err
  try process.run()
  // Read both pipes at once so neither fills up.
  let errData = Collected()
  let reader = Thread { errData.set(err.fileHandleForReading.readDataToEndOfFile()) }
  reader.start()
  let outData = out.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  errData.wait()
  return Run(
    status: process.terminationStatus,
    stdout: String(decoding: outData, as: UTF8.self),
    stderr: String(decoding: errData.value, as: UTF8.self)
  )
}

final class Collected: @unchecked Sendable {
  private let condition = NSCondition()
  private var data: Data?
  var value: Data { condition.withLock { data ?? Data() } }
  func set(_ data: Data) {
    condition.withLock {
      self.data = data
      condition.broadcast()
    }
  }
  func wait() {
    condition.withLock { while data == nil { condition.wait() } }
  }
}

/// A failure as every command must end: exactly one line on stderr, nothing on stdout, non-zero.
func expectOneLineFailure(
  _ run: Run, containing parts: [String], sourceLocation: SourceLocation = #_sourceLocation
) {
  #expect(run.status != 0, "\(run)", sourceLocation: sourceLocation)
  #expect(run.stdout.isEmpty, "\(run)", sourceLocation: sourceLocation)
  #expect(run.stderrLines.count == 1, "\(run)", sourceLocation: sourceLocation)
  #expect(run.stderr.hasPrefix("syncups: "), "\(run)", sourceLocation: sourceLocation)
  #expect(run.stderr.hasSuffix("\n"), "\(run)", sourceLocation: sourceLocation)
  for part in parts {
    #expect(run.stderr.contains(part), "missing \(part.debugDescription) in \(run)", sourceLocation: sourceLocation)
  }
  #expect(!run.stderr.contains("Fatal error"), sourceLocation: sourceLocation)
}
