import Foundation
import SyncUpsFeatures
import SyncUpsTestSupport
import TestSupport
import Testing

typealias Run = SyncupsRun

/// A fresh data directory (SYNCUPS_HOME) for one test, removed at the end.
final class Home: @unchecked Sendable {
  let url: URL
  var dataDirectory: DataDirectory { DataDirectory(url: url) }
  var dataFile: URL { dataDirectory.syncUpsFile }

  init() throws {
    url = try TemporaryDirectory().url
  }

  deinit { try? FileManager.default.removeItem(at: url) }

  /// Runs `syncups` with this home, no terminal (stdin is /dev/null), UTC dates, and none of the
  /// test runner's variables (which would make the program pick test dependencies).
  func run(_ arguments: String..., environment: [String: String] = [:]) async throws -> Run {
    try await run(arguments, environment: environment)
  }

  func run(_ arguments: [String], environment: [String: String] = [:]) async throws -> Run {
    try await runSyncups(
      arguments, environment: ["SYNCUPS_HOME": url.path].merging(environment) { $1 })
  }

  /// Everything in the database, meetings with their transcripts (what `sync-ups.json` held).
  func load() throws -> IdentifiedArrayOf<SyncUp> {
    try SyncUpsDatabase.open(dataDirectory).exportedSyncUps()
  }

  /// Changes the sync-ups through `@Shared(.syncUps)` over the database and saves, as the app
  /// does.
  func update(_ change: (inout IdentifiedArrayOf<SyncUp>) -> Void) throws {
    let database = try SyncUpsDatabase.open(dataDirectory)
    try withDependencies {
      $0.dataDirectory = dataDirectory
      $0.syncUpsDatabase = database
      // A registry of its own: the database as it is now, not a value cached by an earlier call.
      $0.sharedRegistry = SharedRegistry()
    } operation: {
      @Shared(.syncUps) var syncUps
      if let error = $syncUps.loadError { throw error }
      $syncUps.withLock { change(&$0) }
      try $syncUps.save()
    }
    // Everything in the file itself before this returns: the shared reference's observation
    // lets go of its connection a moment later, and the last connection to close copies the
    // log into the file; a test that compares the file's bytes must not see that happen.
    try database.writer.writeWithoutTransaction { db in _ = try db.checkpoint(.truncate) }
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

/// Pieces of a `sync-ups.json` as the tests seed it (imported on a data directory's first run).
enum SeedJSON {
  /// A four-second segment with no timed words.
  static func segment(_ speaker: String, _ start: Double, _ text: String) -> [String: Any] {
    ["speaker": speaker, "start": start, "end": start + 4, "text": text, "words": []]
  }

  /// Attendees named `names`, their ids counting up from `base`.
  static func attendees(_ names: [String], _ base: Int) -> [[String: Any]] {
    names.enumerated().map { index, name in
      ["id": String(format: "00000000-0000-0000-0000-%012d", base + index), "name": name]
    }
  }
}
