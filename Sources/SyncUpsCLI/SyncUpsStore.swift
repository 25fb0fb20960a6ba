import Foundation
import SyncUpsFeatures

/// The sync-ups in the data directory, as every command sees them: the database
/// (`syncups.sqlite`), opened once per process and put in the dependencies so every key and
/// client uses it, read through `@Shared(.syncUps)`, with sync-ups found by id prefix or title.
public struct SyncUpsStore: Sendable {
  public let syncUps: Shared<IdentifiedArrayOf<SyncUp>>
  public let database: SyncUpsDatabase

  /// Opens the data. Meetings whose recording died are finished first (by the recording
  /// store), each said in one line; a `sync-ups.json` imported on this first run is said too.
  public static func open(
    report: (String) -> Void = { FileHandle.standardError.write(Data("syncups: \($0)\n".utf8)) }
  ) async throws(CLIError) -> SyncUpsStore {
    let database = try openDatabase(report: report)
    if !database.isReadOnly {
      @Dependency(\.recordingStore) var recordingStore
      for line in await recordingStore.recover() { report(line) }
    }
    return try load(database)
  }

  /// Opens the data without looking for unfinished meetings (`open` does both).
  public static func load(
    report: (String) -> Void = { FileHandle.standardError.write(Data("syncups: \($0)\n".utf8)) }
  ) throws(CLIError) -> SyncUpsStore {
    try load(try openDatabase(report: report))
  }

  private static func load(_ database: SyncUpsDatabase) throws(CLIError) -> SyncUpsStore {
    @Shared(.syncUps) var syncUps
    if let error = $syncUps.loadError {
      throw CLIError(
        "cannot read your sync-ups: "
          + "\(SyncUpsDatabaseError(error, url: database.directory?.databaseFile))")
    }
    return SyncUpsStore(syncUps: $syncUps, database: database)
  }

  /// The process's database. Run live, the data directory's, opened (and, on the first run,
  /// filled from `sync-ups.json`) the first time and prepared as the `syncUpsDatabase`,
  /// `defaultDatabase` and `defaultAppStorage` dependencies; in tests, the dependency's.
  static func openDatabase(report: (String) -> Void) throws(CLIError) -> SyncUpsDatabase {
    @Dependency(\.context) var context
    guard context == .live else {
      @Dependency(\.syncUpsDatabase) var database
      return database
    }
    return try OpenedDatabase.shared.database(report: report)
  }

  /// Writes what is pending now; says why when it cannot (nothing is claimed saved then).
  public func save() throws(CLIError) {
    do {
      try syncUps.save()
    } catch {
      throw CLIError(
        "cannot save your sync-ups: "
          + "\(SyncUpsDatabaseError(error, url: database.directory?.databaseFile))")
    }
  }

  /// Refuses a change before it is made when the database can only be read.
  public func checkWritable() throws(CLIError) {
    guard database.isReadOnly else { return }
    throw CLIError(
      "cannot change anything: \(database.directory?.databaseFile.path ?? "the database") "
        + "can only be read here (its folder is read-only); list, show, meetings and transcript "
        + "still work"
    )
  }

  /// Finds one sync-up by `reference`: the start of its id or of its title (any case). A
  /// complete id always wins, then a whole title, then the starts of ids and titles. More than
  /// one match is an error that lists them; none, an error that suggests close titles.
  public func resolve(_ reference: String) throws(CLIError) -> Shared<SyncUp> {
    let all = syncUps.wrappedValue
    let query = reference.trimmingCharacters(in: .whitespaces)
    let lowered = query.lowercased()
    guard !lowered.isEmpty else {
      throw CLIError("no sync-up matches ''; give the start of its id or its title")
    }
    let byID = all.filter { $0.fullID == lowered }
    let byTitle = all.filter { $0.title.lowercased() == lowered }
    let byStart = all.filter {
      $0.fullID.hasPrefix(lowered) || $0.title.lowercased().hasPrefix(lowered)
    }
    let matches = [byID, byTitle, byStart].first { !$0.isEmpty } ?? []
    guard matches.count <= 1 else {
      throw CLIError(
        "'\(query)' matches \(matches.count) sync-ups: "
          + matches.map(\.label).joined(separator: ", ")
          + "; use more of the title or the id"
      )
    }
    guard let match = matches.first, let shared = Shared(syncUps[id: match.id]) else {
      throw CLIError("no sync-up matches '\(query)'" + suggestions(for: lowered, in: all))
    }
    return shared
  }

  private func suggestions(for query: String, in all: IdentifiedArrayOf<SyncUp>) -> String {
    let close =
      all
      .map { (syncUp: $0, distance: editDistance(query, $0.title.lowercased())) }
      .filter {
        $0.distance <= max(2, query.count / 3) || $0.syncUp.title.lowercased().contains(query)
      }
      .sorted { $0.distance < $1.distance }
      .prefix(3)
    if close.isEmpty {
      return all.isEmpty
        ? "; there are no sync-ups yet: add one with 'syncups add'"
        : "; 'syncups list' shows them all"
    }
    return "; did you mean " + close.map { $0.syncUp.label }.joined(separator: " or ") + "?"
  }
}

/// The database this process opened, once.
private final class OpenedDatabase: @unchecked Sendable {
  static let shared = OpenedDatabase()
  private let lock = NSLock()
  private var opened: SyncUpsDatabase?

  func database(report: (String) -> Void) throws(CLIError) -> SyncUpsDatabase {
    lock.lock()
    defer { lock.unlock() }
    if let opened { return opened }
    @Dependency(\.dataDirectory) var directory
    let database: SyncUpsDatabase
    do {
      database = try SyncUpsDatabase.open(directory)
    } catch {
      throw CLIError(SyncUpsDatabaseError(error, url: directory.databaseFile).description)
    }
    // The schema has the settings table: nothing is written to open it.
    let storage = AppStorage(settingsIn: database.writer)
    prepareDependencies {
      $0.syncUpsDatabase = database
      $0.defaultDatabase = database.writer
      $0.defaultAppStorage = storage
    }
    opened = database
    if let imported = database.firstRunImport {
      let summary = imported.summary
      report(
        "imported \(Format.count(summary.syncUps, "sync-up")) and "
          + "\(Format.count(summary.meetings, "meeting")) from \(imported.file.path) into "
          + "\(directory.databaseFile.path); the file is kept as \(imported.keptAs.path)")
    }
    return database
  }
}

extension SyncUp {
  /// How commands name a sync-up: its title (`visible`) and the start of its id.
  public var label: String {
    "'\(title.visible)' (\(id.rawValue.lowercasedString.prefix(8)))"
  }
}

/// Levenshtein distance, for suggesting the title the user probably meant.
func editDistance(_ a: String, _ b: String) -> Int {
  let a = Array(a)
  let b = Array(b)
  guard !a.isEmpty else { return b.count }
  guard !b.isEmpty else { return a.count }
  var previous = Array(0...b.count)
  for i in 1...a.count {
    var current = [i] + Array(repeating: 0, count: b.count)
    for j in 1...b.count {
      current[j] = min(
        previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
      )
    }
    previous = current
  }
  return previous[b.count]
}
