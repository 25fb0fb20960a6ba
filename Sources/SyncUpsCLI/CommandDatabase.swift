import Foundation
import GRDB
import SyncUpsFeatures

/// What a command opens: the data directory's database (`syncups.sqlite`), once per process,
/// and only what it asks for next. Opening it finishes the meetings of dead recordings first
/// (one indexed query when there are none; not on a database that can only be read). A command
/// that reads then reads through requests: no shared list, no observation, no polling. Every
/// command closes it before it exits (`closeOpened`), so no command pays for another's log.
public struct CommandDatabase: Sendable {
  public let database: SyncUpsDatabase

  /// Opens the database (on the first run, after importing `sync-ups.json`, said in one line)
  /// and recovers dead recordings (`recoverRecordings`); one line saying why when it cannot.
  public static func open() async throws(CLIError) -> CommandDatabase {
    let data = try openWithoutRecovery()
    await data.recoverRecordings()
    return data
  }

  /// Opens the database without looking for dead recordings: the app recovers them once its
  /// screen is ready.
  public static func openWithoutRecovery() throws(CLIError) -> CommandDatabase {
    @Dependency(\.context) var context
    guard context == .live else {
      @Dependency(\.syncUpsDatabase) var database
      return CommandDatabase(database: database)
    }
    return CommandDatabase(database: try OpenedDatabase.shared.database())
  }

  /// Finishes (or drops) the meetings of recordings that died, each said in one line, so the
  /// next command finds a meeting whose recording was killed, and starts the sentence passes
  /// recordings left to do in the background. One indexed query each when there are none.
  public func recoverRecordings() async {
    guard !database.isReadOnly else { return }
    @Dependency(\.recordingStore) var recordingStore
    for line in await recordingStore.recover() { Console.error(line) }
    // Sentence passes a recording left (its background pass was killed, say) start again.
    @Dependency(\.sentencePasses) var sentencePasses
    if let pending = try? database.pendingSentencePasses(), !pending.isEmpty {
      sentencePasses.startInBackground()
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

  /// `request`'s result, read now; a failure says what could not be read (`what`: "your
  /// sync-ups", "the meetings").
  public func read<Request: FetchKeyRequest>(
    _ request: Request, _ what: String
  ) throws(CLIError) -> Request.Value {
    do {
      return try database.writer.read { db in try request.fetch(db) }
    } catch {
      throw CLIError(
        "cannot read \(what): \(SyncUpsDatabaseError(error, url: database.directory?.databaseFile))"
      )
    }
  }

  /// Every sync-up, with its attendees and meeting summaries (what `list` prints).
  public func syncUps() throws(CLIError) -> IdentifiedArrayOf<SyncUp> {
    try read(SyncUpsRequest(), "your sync-ups")
  }

  /// The sync-up `reference` names (see `SyncUpName.resolve`), read by its id.
  public func syncUp(_ reference: String) throws(CLIError) -> SyncUp {
    let name = try syncUpName(reference)
    guard let syncUp = try read(SyncUpRequest(syncUpID: name.id), "your sync-ups") else {
      throw CLIError("\(name.label) was deleted meanwhile")
    }
    return syncUp
  }

  /// The id and title of the sync-up `reference` names, from a query of ids and titles only.
  public func syncUpName(_ reference: String) throws(CLIError) -> SyncUpName {
    try SyncUpName.resolve(reference, in: try read(SyncUpNamesRequest(), "your sync-ups"))
  }

  /// Closes the database this process opened, if it did: its log is checkpointed into the
  /// database file first (see `SyncUpsDatabase.close`). Every command's last step.
  public static func closeOpened() {
    OpenedDatabase.shared.close()
  }

  /// Says that `@Shared` references now observe the database: closing it then only
  /// checkpoints (closing a pool under a running observation crashes).
  func observed() {
    OpenedDatabase.shared.observed()
  }
}

/// The database this process opened, once, and prepared as the `syncUpsDatabase`,
/// `defaultDatabase` and `defaultAppStorage` dependencies every key and client uses.
private final class OpenedDatabase: @unchecked Sendable {
  static let shared = OpenedDatabase()
  private let lock = NSLock()
  private var opened: SyncUpsDatabase?

  func database() throws(CLIError) -> SyncUpsDatabase {
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
      Console.error(
        "imported \(Format.count(summary.syncUps, "sync-up")) and "
          + "\(Format.count(summary.meetings, "meeting")) from \(imported.file.path) into "
          + "\(directory.databaseFile.path); the file is kept as \(imported.keptAs.path)")
    }
    return database
  }

  /// Set once `@Shared` references observe the database (the edits, `record`, the app).
  private var isObserved = false

  func observed() {
    lock.withLock { isObserved = true }
  }

  /// Checkpointed, and closed unless observations still run on it (they end with the process).
  func close() {
    lock.withLock {
      if isObserved { opened?.checkpoint() } else { opened?.close() }
    }
  }
}
