import Foundation
import GRDB

/// Where this laptop's team sync stands (`syncState`): the pull's cursor, when it last synced,
/// why it last failed, the last document it left out.
public enum SyncState {
  /// The server's version the next pull starts after.
  public static func cursor(_ db: Database) throws -> Int64 {
    try Int64.fetchOne(db, sql: "SELECT value FROM syncState WHERE key = 'cursor'") ?? 0
  }

  /// Records the version of the last page applied: the next pull starts after it.
  static func recordCursor(_ version: Int64, _ db: Database) throws {
    try record("cursor", version, db)
  }

  private static func record(
    _ key: String, _ value: (any DatabaseValueConvertible)?, _ db: Database
  ) throws {
    try db.execute(
      sql: "INSERT OR REPLACE INTO syncState (key, value) VALUES (?, ?)", arguments: [key, value])
  }

  /// What `syncups team status` shows.
  public struct Status: Equatable, Sendable {
    public var waiting: Int
    public var lastSync: Date?
    public var cursor: Int64
    public var lastProblem: String?
    public var lastSkipped: String?
    /// What the team server refused for good, kept here (`SetAside`).
    public var setAside: [SetAside.Document] = []
  }

  static func status(_ db: Database) throws -> Status {
    func value<T: DatabaseValueConvertible>(_ key: String) throws -> T? {
      try T.fetchOne(db, sql: "SELECT value FROM syncState WHERE key = ?", arguments: [key])
    }
    let lastSync: Double? = try value("lastSync")
    return Status(
      waiting: try Outbox.count(db), lastSync: lastSync.map(Date.init(timeIntervalSince1970:)),
      cursor: try cursor(db), lastProblem: try value("lastProblem"),
      lastSkipped: try value("lastSkipped"), setAside: try SetAside.documents(db))
  }

  /// Everything starts over with another server: every sync-up, finished meeting, what is
  /// learned of people and every blocker closed by hand waits to be pushed, the cursor goes back to 0, a push not yet
  /// acknowledged is dropped.
  static func startOver(_ db: Database) throws {
    try db.execute(
      sql: """
        DELETE FROM syncPendingPush;
        DELETE FROM syncParked;
        DELETE FROM syncState WHERE key IN ('cursor', 'lastSync');
        INSERT INTO syncOutbox (kind, entityId) SELECT 'syncUp', id FROM syncUp ORDER BY position
          ON CONFLICT (kind, entityId) DO UPDATE SET generation = generation + 1;
        INSERT INTO syncOutbox (kind, entityId)
          SELECT 'meeting', id FROM meeting WHERE isFinished ORDER BY date
          ON CONFLICT (kind, entityId) DO UPDATE SET generation = generation + 1;
        DELETE FROM syncParkedPerson;
        INSERT INTO syncPeopleOutbox (attendeeId)
          SELECT attendeeId FROM (SELECT attendeeId FROM voiceProfile
            UNION SELECT attendeeId FROM speakerAdaptation
            UNION SELECT attendeeId FROM attendeeForgotten) WHERE true
          ON CONFLICT (attendeeId) DO UPDATE SET generation = generation + 1;
        """)
    try BlockerSync.startOver(db)
  }

  static func recordSync(at date: Date, lastSkipped: String?, _ db: Database) throws {
    try record("lastSync", date.timeIntervalSince1970, db)
    if let lastSkipped { try record("lastSkipped", lastSkipped, db) }
  }

  static func recordProblem(_ problem: String?, _ db: Database) throws {
    try record("lastProblem", problem, db)
  }
}

/// The team sync's state as the sync and `syncups team` call it.
extension SyncUpsDatabase {
  /// The server's version the next pull starts after.
  public func syncCursor() async throws -> Int64 {
    try await writer.read { try SyncState.cursor($0) }
  }

  /// Records that a sync ended now, and the last document it left out, if it left one out.
  public func recordSyncEnded(at date: Date, lastSkipped: String?) async throws {
    try await writer.write { try SyncState.recordSync(at: date, lastSkipped: lastSkipped, $0) }
  }

  /// Records why the last sync failed (nil: it worked).
  public func recordSyncProblem(_ problem: String?) throws {
    try writer.write { try SyncState.recordProblem(problem, $0) }
  }

  public func syncStatus() throws -> SyncState.Status {
    try writer.read { try SyncState.status($0) }
  }

  /// Joining another server starts the sync over (`SyncState.startOver`).
  public func startSyncOver() throws {
    try writer.write { try SyncState.startOver($0) }
  }
}
