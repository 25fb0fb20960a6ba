import Dependencies
import ErrorWords
import Foundation
import GRDB
import GRDBSQLite
import SharingGRDB

#if canImport(Glibc)
  import Glibc
#endif

/// The SyncUps database (`syncups.sqlite` in the data directory): sync-ups, attendees,
/// meetings, their segments and a search index, in one SQLite file (WAL, busy timeout), shared
/// safely by any number of processes. Every write is one transaction: it happens whole or not
/// at all.
public final class SyncUpsDatabase: Sendable {
  public let writer: any DatabaseWriter
  /// The data directory, for a database on disk (nil in memory).
  public let directory: DataDirectory?
  let locks: RecordingLocks
  /// What `open` imported from `sync-ups.json` on this first run, if it did.
  public let firstRunImport: FirstRunImport?

  init(
    writer: any DatabaseWriter, directory: DataDirectory?, firstRunImport: FirstRunImport? = nil
  ) {
    self.writer = writer
    self.directory = directory
    self.locks = RecordingLocks(directory: directory?.url.appendingPathComponent("locks"))
    self.firstRunImport = firstRunImport
  }

  /// How long a writer waits for another process's transaction before failing. Transactions
  /// take milliseconds, but each commit waits for the disk: with the disk busy (a CI machine
  /// running the whole suite), three first runs at once once waited over 10 s for each other.
  static let busyTimeout: TimeInterval = 30

  /// Opens (creating and migrating it if needed) the database of `directory`. An existing file
  /// is first checked through a read-only connection: one that is not a database, is damaged or
  /// comes from a newer syncups is never written, moved or deleted; opening throws instead.
  /// On the first open, an existing `sync-ups.json` is imported (see `importFileOnFirstOpen`).
  public static func open(_ directory: DataDirectory) throws -> SyncUpsDatabase {
    let url = directory.databaseFile
    var isDirectory: ObjCBool = false
    if FileManager.default.fileExists(atPath: directory.url.path, isDirectory: &isDirectory),
      !isDirectory.boolValue
    {
      throw SyncUpsDatabaseError.notAFolder(url: directory.url)
    }
    do {
      try FileManager.default.createDirectory(at: directory.url, withIntermediateDirectories: true)
    } catch {
      throw SyncUpsDatabaseError.cannotOpen(url: url, reason: describe(error))
    }
    if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory),
      isDirectory.boolValue
    {
      throw SyncUpsDatabaseError.corrupt(url: url, reason: "it is a folder, not a database file")
    }
    if FileManager.default.fileExists(atPath: url.path),
      !FileManager.default.isWritableFile(atPath: directory.url.path)
    {
      return try openReadOnly(directory)
    }
    return try alone(in: directory) { try openWritable(directory) }
  }

  /// The rest of `open`, for a folder this process can write, while no other process opens it.
  private static func openWritable(_ directory: DataDirectory) throws -> SyncUpsDatabase {
    let url = directory.databaseFile
    if FileManager.default.fileExists(atPath: url.path) {
      try check(url)
    } else if FileManager.default.fileExists(atPath: directory.syncUpsFile.path) {
      // A file this version cannot import (a newer format, damaged) creates no database.
      try checkImportable(directory.syncUpsFile)
    }
    var configuration = Configuration()
    configuration.busyMode = .timeout(busyTimeout)
    let pool: DatabasePool
    do {
      pool = try DatabasePool(path: url.path, configuration: configuration)
      // Each commit is on disk before it returns: a meeting's segments survive power loss.
      // (Set on the writer after the pool is made: GRDB's WAL set-up sets NORMAL, which syncs
      // only at checkpoints, after `prepareDatabase` has run.)
      try pool.writeWithoutTransaction { db in
        try db.execute(sql: "PRAGMA synchronous = FULL")
        // What a checkpoint leaves of the log on disk: a large write (an import) does not
        // leave a file every later connection reads again.
        try db.execute(sql: "PRAGMA journal_size_limit = \(journalSizeLimit)")
      }
      try Schema.migrator(directory: directory).migrate(pool)
    } catch {
      throw SyncUpsDatabaseError(error, url: url)
    }
    let database = SyncUpsDatabase(writer: pool, directory: directory)
    guard let imported = try database.importFileOnFirstOpen() else { return database }
    return SyncUpsDatabase(writer: pool, directory: directory, firstRunImport: imported)
  }

  /// Runs `body` while holding a `flock` on the data directory itself (no file of its own), so
  /// one process at a time opens the database. A first open turns the new file into a WAL
  /// database, and another process that reads it meanwhile and then tries to write is refused
  /// at once (SQLite's deadlock rule, no busy wait): three first runs at once failed so, about
  /// one in a hundred, with the machine loaded. And GRDB reads which migrations ran before it
  /// runs the others: two first runs at once both ran the first one ("table syncUp already
  /// exists").
  private static func alone<T>(in directory: DataDirectory, _ body: () throws -> T) throws -> T {
    let fd = Glibc.open(directory.url.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard fd >= 0 else {
      throw SyncUpsDatabaseError.cannotOpen(
        url: directory.url, reason: ErrorWords.reason(errno: errno))
    }
    defer { Glibc.close(fd) }
    while flock(fd, LOCK_EX) != 0 && errno == EINTR {}
    return try body()
  }

  /// A database in a folder this process cannot write (a read-only mount, another user's
  /// folder): SQLite cannot keep its WAL index there, so the file is read as immutable (nobody
  /// can change it either). Every write fails with `SyncUpsDatabaseError.readOnly`.
  static func openReadOnly(_ directory: DataDirectory) throws -> SyncUpsDatabase {
    let url = directory.databaseFile
    var configuration = Configuration()
    configuration.readonly = true
    do {
      var components = URLComponents()
      components.scheme = "file"
      components.path = url.path
      // Commits still in the write-ahead log (a writer that exited without a checkpoint) are
      // read through it: SQLite reads a WAL database whose `-wal` and `-shm` exist without
      // writing them. Without a log, the file is the whole database.
      let hasLog = FileManager.default.fileExists(atPath: url.path + "-wal")
      components.queryItems = [
        URLQueryItem(name: hasLog ? "mode" : "immutable", value: hasLog ? "ro" : "1")
      ]
      let queue = try DatabaseQueue(
        path: components.string ?? url.path, configuration: configuration)
      let (superseded, complete) = try queue.read { db in
        _ = try Row.fetchAll(db, sql: "SELECT name FROM sqlite_master")
        guard try db.tableExists("grdb_migrations") else { return (false, false) }
        return (
          try Schema.migrator.hasBeenSuperseded(db), try Schema.migrator.hasCompletedMigrations(db)
        )
      }
      if superseded { throw SyncUpsDatabaseError.newerSchema(url: url) }
      guard complete else {
        throw SyncUpsDatabaseError.readOnly(
          url: url, reason: "its folder is read-only and it needs an upgrade")
      }
      return SyncUpsDatabase(writer: queue, directory: directory)
    } catch {
      throw SyncUpsDatabaseError(error, url: url)
    }
  }

  /// The most a write-ahead log keeps on disk after a checkpoint (bytes): about SQLite's
  /// automatic checkpoint's worth (1000 pages).
  static let journalSizeLimit = 4 * 1024 * 1024

  /// Copies what the write-ahead log holds into the database file and starts the log over, as
  /// every command does before it exits: a command that exited without it left its log (62 MB
  /// after an import) for every later command to read again. A TRUNCATE checkpoint (waiting a
  /// second at most for other processes' transactions; partial if they hold on longer), then a
  /// one-page write, so the log holds one page: never empty, because GRDB writes to an empty log
  /// when it opens, which a full disk would refuse even to a command that only reads.
  public func checkpoint() {
    guard !isReadOnly else { return }
    _ = try? writer.writeWithoutTransaction { db in
      sqlite3_busy_timeout(db.sqliteConnection, 1000)
      defer { sqlite3_busy_timeout(db.sqliteConnection, Int32(Self.busyTimeout * 1000)) }
      try db.checkpoint(.truncate)
      let version = try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0
      try db.execute(sql: "PRAGMA user_version = \(version)")
    }
  }

  /// `checkpoint()`, then the connections closed; using the database afterwards fails with an
  /// error. Only when nothing else in the process uses it (no observation): GRDB crashes on a
  /// read in flight while its pool closes.
  public func close() {
    checkpoint()
    try? writer.close()
  }

  /// True when this database can only be read (see `openReadOnly`).
  public var isReadOnly: Bool { writer.configuration.readonly }

  /// An empty database in memory, with the schema: for tests and previews.
  public static func inMemory() throws -> SyncUpsDatabase {
    let queue = try DatabaseQueue()
    try Schema.migrator.migrate(queue)
    return SyncUpsDatabase(writer: queue, directory: nil)
  }

  /// Reads the file without any write: it must be an SQLite database whose migrations are all
  /// known to this version.
  private static func check(_ url: URL) throws {
    var configuration = Configuration()
    configuration.readonly = true
    configuration.busyMode = .timeout(busyTimeout)
    do {
      let queue = try DatabaseQueue(path: url.path, configuration: configuration)
      let superseded = try queue.read { db -> Bool in
        _ = try Row.fetchAll(db, sql: "SELECT name FROM sqlite_master")
        guard try db.tableExists("grdb_migrations") else { return false }
        return try Schema.migrator.hasBeenSuperseded(db)
      }
      if superseded { throw SyncUpsDatabaseError.newerSchema(url: url) }
    } catch let error as SyncUpsDatabaseError {
      throw error
    } catch {
      throw SyncUpsDatabaseError(error, url: url)
    }
  }

  /// Runs `body` in one write transaction, with the words it changed counted
  /// (`WordCounts`); SQLite errors become `SyncUpsDatabaseError`s.
  func write<T>(_ body: (Database) throws -> T) throws -> T {
    do {
      return try writer.write { db in
        let result = try body(db)
        try WordCounts.catchUp(db)
        return result
      }
    } catch let error as SyncUpsDatabaseError {
      throw error
    } catch let error as SyncUpBeingRecorded {
      throw error
    } catch let error as CorrectionProblem {
      throw error
    } catch {
      throw SyncUpsDatabaseError(error, url: directory?.databaseFile)
    }
  }

  func read<T>(_ body: (Database) throws -> T) throws -> T {
    do {
      return try writer.read(body)
    } catch let error as SyncUpBeingRecorded {
      throw error
    } catch {
      throw SyncUpsDatabaseError(error, url: directory?.databaseFile)
    }
  }
}

extension DataDirectory {
  /// The database: every sync-up and meeting.
  public var databaseFile: URL { url.appendingPathComponent("syncups.sqlite") }
}

/// What went wrong with the database, as one line a user can act on.
public enum SyncUpsDatabaseError: Error, Equatable, CustomStringConvertible {
  /// Not a database, or damaged: left untouched.
  case corrupt(url: URL, reason: String)
  /// Written by a newer syncups (a migration this version does not know): left untouched.
  case newerSchema(url: URL)
  case diskFull(url: URL?)
  case readOnly(url: URL?, reason: String)
  case cannotOpen(url: URL, reason: String)
  /// The data directory (`SYNCUPS_HOME`) is a file or a device.
  case notAFolder(url: URL)
  /// Another process held the database longer than the busy timeout.
  case busy(url: URL?)
  case importFailed(url: URL, reason: String)
  case noSuchMeeting(id: Meeting.ID)
  case noSuchSyncUp(id: SyncUp.ID)
  case other(reason: String)

  public var description: String {
    switch self {
    case .corrupt(let url, let reason):
      "\(url.path) is damaged or not a SyncUps database (\(reason)); it was left untouched: "
        + "restore it from a backup, or move it away to start a new one"
    case .newerSchema(let url):
      "\(url.path) was written by a newer version of syncups; it was left untouched: "
        + "update syncups to use it"
    case .diskFull(let url):
      "the disk holding \(url?.path ?? "the database") is full; this change was not saved "
        + "(what was saved before is kept): free some space and try again"
    case .readOnly(let url, let reason):
      "cannot write \(url?.path ?? "the database") (\(reason)); nothing was changed: "
        + "check the permissions of the file and its folder"
    case .cannotOpen(let url, let reason):
      "cannot open \(url.path) (\(reason)): check that its folder exists and is writable"
    case .notAFolder(let url):
      "the data directory \(url.path) is not a folder: set SYNCUPS_HOME to a folder (or unset it "
        + "for ~/.local/share/syncups)"
    case .busy(let url):
      "\(url?.path ?? "the database") stayed locked by another syncups for "
        + "\(Int(SyncUpsDatabase.busyTimeout)) s; nothing was changed: try again"
    case .importFailed(let url, let reason):
      "cannot import \(url.path) (\(reason)); it was left untouched: fix or move the file"
    case .noSuchMeeting(let id):
      "no meeting \(id.rawValue.lowercasedString) in the database"
    case .noSuchSyncUp(let id):
      "no sync-up \(id.rawValue.lowercasedString) in the database"
    case .other(let reason):
      reason
    }
  }

  public init(_ error: any Error, url: URL?) {
    if let error = error as? SyncUpsDatabaseError {
      self = error
      return
    }
    guard let error = error as? DatabaseError else {
      self = .other(reason: describe(error))
      return
    }
    let reason = error.message ?? "\(error.resultCode)"
    switch error.resultCode.primaryResultCode {
    case .SQLITE_FULL:
      self = .diskFull(url: url)
    case .SQLITE_READONLY, .SQLITE_PERM:
      self = .readOnly(url: url, reason: "it can only be read here")
    case .SQLITE_CORRUPT, .SQLITE_NOTADB:
      self = url.map { .corrupt(url: $0, reason: reason) } ?? .other(reason: reason)
    case .SQLITE_CANTOPEN:
      self = url.map { .cannotOpen(url: $0, reason: reason) } ?? .other(reason: reason)
    case .SQLITE_BUSY, .SQLITE_LOCKED:
      self = .busy(url: url)
    default:
      self = .other(reason: "database error: \(reason)")
    }
  }
}

/// A reason without Swift's type names, Foundation's domains or SQLite's codes (`ErrorWords`).
func describe(_ error: any Error) -> String { ErrorWords.describe(error) }

extension DatabaseError: WordedError {
  public var words: String {
    resultCode.primaryResultCode == .SQLITE_FULL
      ? ErrorWords.diskFull : message ?? "the database refused (\(resultCode))"
  }
}

extension SyncUpsDatabase: DependencyKey {
  /// The data directory's database, opened on first use. Commands should open it themselves
  /// (`open`) and report a failure their way; this fallback prints the one line and exits 1.
  public static var liveValue: SyncUpsDatabase {
    @Dependency(\.dataDirectory) var directory
    do {
      return try open(directory)
    } catch {
      FileHandle.standardError.write(Data("syncups: \(error)\n".utf8))
      exit(1)
    }
  }
  public static var testValue: SyncUpsDatabase { try! inMemory() }
}

extension DependencyValues {
  /// The SyncUps database. Tests get an empty one in memory.
  public var syncUpsDatabase: SyncUpsDatabase {
    get { self[SyncUpsDatabase.self] }
    set { self[SyncUpsDatabase.self] = newValue }
  }
}
