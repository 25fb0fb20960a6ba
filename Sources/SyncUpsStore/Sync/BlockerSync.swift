import Foundation
import GRDB
import SyncUpsWire

/// Blockers closed by hand (`blockerClosed`), pushed and pulled. A closing is for good, so
/// there is nothing to merge: a closing here that the server does not have yet is pushed once
/// (`pushed` false until acknowledged); one pulled is kept as the server has it.
enum BlockerSync {
  /// The closings the server does not have yet, of meetings that are here and finished, while
  /// the push stays under `byteLimit` (at most `Rules.mostClosingsInAPush`: the rest go with
  /// the next push); every one taken is acknowledged with the push.
  static func prepare(
    _ db: Database, blockers: inout [BlockerClosure], entries: inout [Outbox.Entry],
    size: inout Int, byteLimit: Int
  ) throws {
    let encoder = WireJSON.encoder()
    for row in try Row.fetchAll(
      db,
      sql: """
        SELECT b.meetingId, b.segment, b.key, b.closedAt FROM blockerClosed b
        JOIN meeting m ON m.id = b.meetingId AND m.isFinished
        WHERE NOT b.pushed ORDER BY b.closedAt, b.rowid LIMIT ?
        """, arguments: [Rules.mostClosingsInAPush])
    {
      let closure = BlockerClosure(
        meetingID: UUID(stored: row["meetingId"]), segment: row["segment"], key: row["key"],
        closedAt: Date(timeIntervalSince1970: row["closedAt"]))
      let bytes = try encoder.encode(closure).count
      if !entries.isEmpty, size + bytes > byteLimit { break }
      size += bytes
      blockers.append(closure)
      entries.append(Outbox.Entry(kind: "blocker", entityId: entity(closure), generation: 0))
    }
  }

  /// How many closings wait to be pushed.
  static func waiting(_ db: Database) throws -> Int {
    try Int.fetchOne(
      db,
      sql: """
        SELECT count(*) FROM blockerClosed b JOIN meeting m ON m.id = b.meetingId AND m.isFinished
        WHERE NOT b.pushed
        """) ?? 0
  }

  /// An outbox entry's name of a closing: `meeting/segment/key`.
  static func entity(_ closure: BlockerClosure) -> String {
    "\(closure.meetingID.lowercasedString)/\(closure.segment)/\(closure.key)"
  }

  /// The server has the closing.
  static func acknowledge(_ entry: Outbox.Entry, _ db: Database) throws {
    let parts = entry.entityId.split(separator: "/").map(String.init)
    guard parts.count == 3, let segment = Int(parts[1]) else { return }
    try db.execute(
      sql: "UPDATE blockerClosed SET pushed = 1 WHERE meetingId = ? AND segment = ? AND key = ?",
      arguments: [parts[0], segment, parts[2]])
  }

  /// Every closing waits to be pushed again (another server).
  static func startOver(_ db: Database) throws {
    try db.execute(sql: "UPDATE blockerClosed SET pushed = 0 WHERE pushed")
  }
}

extension PulledChanges {
  /// Keeps the page's closings as the server has them (a closing made here too needs no push
  /// any more); those of meetings the page deleted go, also when pulled before their meeting.
  /// Returns how many were new here.
  static func applyPulledBlockers(_ page: ChangesPage, _ db: Database) throws -> Int {
    var changed = 0
    for closure in page.blockers {
      let id = closure.meetingID.lowercasedString
      let known = try Bool.fetchOne(
        db,
        sql: "SELECT pushed FROM blockerClosed WHERE meetingId = ? AND segment = ? AND key = ?",
        arguments: [id, closure.segment, closure.key])
      try db.execute(
        sql: """
          INSERT INTO blockerClosed (meetingId, segment, key, closedBy, closedAt, pushed)
          VALUES (?, ?, ?, ?, ?, 1)
          ON CONFLICT (meetingId, segment, key) DO UPDATE SET closedBy = excluded.closedBy,
            closedAt = excluded.closedAt, pushed = 1
          """,
        arguments: [
          id, closure.segment, closure.key, closure.closedBy,
          closure.closedAt.timeIntervalSince1970,
        ])
      if known == nil { changed += 1 }
    }
    for meeting in page.meetings where meeting.deleted {
      try db.execute(
        sql: "DELETE FROM blockerClosed WHERE meetingId = ?",
        arguments: [meeting.id.lowercasedString])
    }
    return changed
  }
}
