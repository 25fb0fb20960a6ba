import Foundation
import GRDB
import SyncUpsWire

/// Documents the team server refused for good (a 4xx answer that names one of them): each is
/// set aside at the outbox generation it was refused at (`syncSetAside`), so the next pushes
/// go without it, and the rest of the outbox goes on. Nothing of it is deleted here: its
/// outbox row stays, and its next change (a higher generation), or `retrySetAside`, tries it
/// again. Meetings and what is learned of attendees of a sync-up set aside wait with it (each
/// push carries its sync-up, which the server would refuse again).
public enum SetAside {
  /// What a document is: `syncUp`, `meeting` (the outbox's kinds) or `person` (an attendee's
  /// learned voice, by the attendee's id).
  public struct Document: Equatable, Sendable {
    public var kind: String
    public var entityID: String
    /// In words: `sync-up 'Morning Sync'`.
    public var what: String
    /// Why the server refused it, as it said.
    public var reason: String

    public init(kind: String, entityID: String, what: String, reason: String) {
      self.kind = kind
      self.entityID = entityID
      self.what = what
      self.reason = reason
    }
  }

  /// The most characters of the server's reason kept.
  static let longestReason = 400

  static func migrate(_ db: Database) throws {
    try db.execute(
      sql: """
        CREATE TABLE syncSetAside (
          kind TEXT NOT NULL CHECK (kind IN ('syncUp', 'meeting', 'person')),
          entityId TEXT NOT NULL,
          -- The outbox generation it was refused at (0: it was not in the outbox, only carried
          -- along with a meeting): a later change has another, and is tried again.
          generation INTEGER NOT NULL,
          what TEXT NOT NULL,
          reason TEXT NOT NULL,
          at DOUBLE NOT NULL,
          PRIMARY KEY (kind, entityId)
        )
        """)
  }

  /// The outbox generation of a document now (0: not in the outbox), as SQL over `table.kind`
  /// and `table.entityId`.
  static func generation(_ table: String) -> String {
    """
    coalesce(CASE \(table).kind WHEN 'person'
        THEN (SELECT generation FROM syncPeopleOutbox WHERE attendeeId = \(table).entityId)
        ELSE (SELECT generation FROM syncOutbox o
          WHERE o.kind = \(table).kind AND o.entityId = \(table).entityId) END, 0)
    """
  }

  /// SQL: the document `kind`/`entity` (SQL expressions) is set aside now.
  static func isSetAside(kind: String, entity: String) -> String {
    """
    EXISTS (SELECT 1 FROM syncSetAside a WHERE a.kind = \(kind) AND a.entityId = \(entity)
      AND a.generation = \(generation("a")))
    """
  }

  /// SQL: the sync-up with id `syncUp` (an SQL expression) is set aside now.
  static func syncUpIsSetAside(_ syncUp: String) -> String {
    isSetAside(kind: "'syncUp'", entity: syncUp)
  }

  /// SQL: the sync-up of the meeting `meeting` (an SQL expression; deleted here: its tombstone's).
  static func syncUpOfMeeting(_ meeting: String) -> String {
    """
    coalesce((SELECT syncUpId FROM meeting WHERE id = \(meeting)),
      (SELECT json_extract(document, '$.syncUpId') FROM syncTombstone WHERE entityId = \(meeting)))
    """
  }

  /// The documents set aside now, in the order they were refused.
  static func documents(_ db: Database) throws -> [Document] {
    try Row.fetchAll(
      db,
      sql: """
        SELECT kind, entityId, what, reason FROM syncSetAside a
        WHERE a.generation = \(generation("a")) ORDER BY at, rowid
        """
    ).map {
      Document(kind: $0["kind"], entityID: $0["entityId"], what: $0["what"], reason: $0["reason"])
    }
  }

  /// How many outbox rows are set aside now (they are not waiting to be pushed; one set aside
  /// at generation 0 has no row there).
  static func count(_ db: Database) throws -> Int {
    try Int.fetchOne(
      db,
      sql: """
        SELECT count(*) FROM syncSetAside a
        WHERE a.generation > 0 AND a.generation = \(generation("a"))
        """) ?? 0
  }

  /// Sets `kind`/`entityID` aside at its outbox generation now, with the server's `reason`, and
  /// drops the refused push (the server saved none of it; its rows stay in the outbox and the
  /// next push is made without this document). Returns it in words.
  static func setAside(
    kind: String, entityID: String, reason: String, pending: Outbox.Pending, now: Date,
    _ db: Database
  ) throws -> Document {
    let document = Document(
      kind: kind, entityID: entityID, what: try what(kind: kind, entityID: entityID, db),
      reason: String(reason.prefix(longestReason)))
    try db.execute(
      sql: """
        INSERT OR REPLACE INTO syncSetAside (kind, entityId, generation, what, reason, at)
        SELECT :kind, :id, \(generation("d")), :what, :reason, :at
        FROM (SELECT :kind AS kind, :id AS entityId) AS d
        """,
      arguments: [
        "kind": kind, "id": entityID, "what": document.what, "reason": document.reason,
        "at": now.timeIntervalSince1970,
      ])
    try db.execute(
      sql: "DELETE FROM syncPendingPush WHERE pushId = ?",
      arguments: [pending.pushID.lowercasedString])
    return document
  }

  /// A pushed document is on the server now: nothing of it is set aside any more.
  static func forget(kind: String, entityID: String, _ db: Database) throws {
    try db.execute(
      sql: "DELETE FROM syncSetAside WHERE kind = ? AND entityId = ?", arguments: [kind, entityID])
  }

  /// Every document set aside is tried again at the next sync; returns how many there were.
  static func retry(_ db: Database) throws -> Int {
    let count = try count(db)
    try db.execute(sql: "DELETE FROM syncSetAside")
    return count
  }

  /// A document in words, as this laptop has it.
  private static func what(kind: String, entityID: String, _ db: Database) throws -> String {
    func title(_ syncUp: String?) throws -> String? {
      guard let syncUp else { return nil }
      if let title = try String.fetchOne(
        db, sql: "SELECT title FROM syncUp WHERE id = ?", arguments: [syncUp])
      {
        return title
      }
      return try StoredDocuments.syncUp(syncUp, db)?.title.value
    }
    switch kind {
    case "syncUp":
      let title = try title(entityID)
      return "sync-up " + (title.map { "'\($0)'" } ?? entityID)
    case "meeting":
      let syncUp = try String.fetchOne(
        db, sql: "SELECT \(syncUpOfMeeting("?"))", arguments: [entityID, entityID])
      let title = try title(syncUp)
      return "meeting \(entityID)" + (title.map { " of '\($0)'" } ?? "")
    default:
      let row = try Row.fetchOne(
        db,
        sql: """
          SELECT attendee.name, syncUp.title FROM attendee
          JOIN syncUp ON syncUp.id = attendee.syncUpId WHERE attendee.id = ?
          """, arguments: [entityID])
      guard let row else { return "what is learned of attendee \(entityID)" }
      return "what is learned of '\(row["name"] as String)' in '\(row["title"] as String)'"
    }
  }
}

/// The documents set aside, as the team sync and `syncups team` call them.
extension SyncUpsDatabase {
  /// Sets a refused document aside and drops the refused push (see `SetAside.setAside`).
  public func setAside(
    kind: String, entityID: String, reason: String, pending: Outbox.Pending, now: Date = Date()
  ) async throws -> SetAside.Document {
    try await writer.write {
      try SetAside.setAside(
        kind: kind, entityID: entityID, reason: reason, pending: pending, now: now, $0)
    }
  }

  /// The documents set aside now (see `SetAside`).
  public func setAsideDocuments() throws -> [SetAside.Document] {
    try writer.read { try SetAside.documents($0) }
  }

  /// Every document set aside is tried again at the next sync; returns how many there were.
  public func retrySetAside() throws -> Int {
    try writable()
    return try writer.write { try SetAside.retry($0) }
  }
}
