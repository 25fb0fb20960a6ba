import Foundation
import SyncUpsFeatures
import SyncUpsTestSupport
import Testing

typealias Run = SyncupsRun

/// A fresh data directory (SYNCUPS_HOME) for one test, removed at the end.
final class Home: @unchecked Sendable {
  let url: URL
  var dataDirectory: DataDirectory { DataDirectory(url: url) }
  var dataFile: URL { dataDirectory.syncUpsFile }

  init() throws {
    url = try temporaryFolder()
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
      // A registry of its own: the file as it is now, not a value cached by an earlier call
      // (which would learn of a `syncups` process's write only when inotify tells it).
      $0.sharedRegistry = SharedRegistry()
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
      // A registry of its own: the file as it is now, not a value cached by an earlier call
      // (which would learn of a `syncups` process's write only when inotify tells it).
      $0.sharedRegistry = SharedRegistry()
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
    #expect(
      run.stderr.contains(part), "missing \(part.debugDescription) in \(run)",
      sourceLocation: sourceLocation)
  }
  #expect(!run.stderr.contains("Fatal error"), sourceLocation: sourceLocation)
}
