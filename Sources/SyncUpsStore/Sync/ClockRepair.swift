import Foundation
import GRDB
import SyncUpsWire

/// Clocks a laptop stored before they were checked: a reading more than the drift allows ahead
/// of now (`HybridClock.maximumDrift`, pulled from a server that took it, or stamped by a device
/// clock such a reading pushed ahead), or one that cannot be read. The server refuses every push
/// that holds one, and the device clock ahead stamps every later change ahead too: the laptop
/// never synced again. The migration brings the device clock back to now and stamps each such
/// field again, now, queued to be pushed; a meeting whose segment was stamped again is stamped
/// after it (its clock is its latest change). A push stored with the old clocks is dropped (its
/// changes stay in the outbox, and the next push carries the new clocks).
enum ClockRepair {
  static func migrate(_ db: Database) throws {
    try migrate(db, now: Date())
  }

  static func migrate(_ db: Database, now: Date) throws {
    let bound = Int64(
      ((now.timeIntervalSince1970 + HybridClock.maximumDrift) * 1000).rounded(.down))
    try db.execute(
      sql: """
        UPDATE syncDevice SET milliseconds = \(SyncSchema.wall), counter = 0
        WHERE milliseconds > ? OR milliseconds < 0 OR counter > ? OR counter < 0
        """, arguments: [bound, HybridClock.largestCounter])
    let stale = try Row.fetchAll(db, sql: "SELECT entityId, field, clock FROM syncClock")
      .compactMap { row -> (entity: String, field: String)? in
        let text: String = row["clock"]
        if let clock = HybridClock(text), clock.description == text, !clock.isAhead(of: now) {
          return nil
        }
        return (entity: row["entityId"] as String, field: row["field"] as String)
      }
    guard !stale.isEmpty else { return }
    // Segments before their meeting: the meeting's clock is later than each of its segments'.
    var meetings: Set<String> = []
    for item in stale {
      switch ClockedField(stored: item.field) {
      case .meeting: meetings.insert(item.entity)
      case .segment:
        try stamp(item.entity, item.field, db)
        meetings.insert(item.entity)
      default: try stamp(item.entity, item.field, db)
      }
    }
    for meeting in meetings.sorted() { try stamp(meeting, ClockedField.meeting.description, db) }
    try db.execute(sql: "DELETE FROM syncPendingPush")
  }

  /// Stamps `field` of `entity` now and queues what it belongs to.
  private static func stamp(_ entity: String, _ field: String, _ db: Database) throws {
    try db.execute(sql: SyncSchema.tick)
    try db.execute(
      sql: """
        INSERT INTO syncClock (entityId, field, clock)
          SELECT ?, ?, \(SyncSchema.clock) FROM syncDevice WHERE true
          ON CONFLICT (entityId, field) DO UPDATE SET clock = excluded.clock
        """, arguments: [entity, field])
    switch ClockedField(stored: field) {
    case .syncUp: try queue("syncUp", entity, db)
    case .meeting, .segment: try queue("meeting", entity, db)
    case .learned:
      try db.execute(
        sql: """
          INSERT INTO syncPeopleOutbox (attendeeId) VALUES (?)
            ON CONFLICT (attendeeId) DO UPDATE SET generation = generation + 1
          """, arguments: [entity])
    case nil: break
    }
  }

  private static func queue(_ kind: String, _ entity: String, _ db: Database) throws {
    try db.execute(
      sql: """
        INSERT INTO syncOutbox (kind, entityId) VALUES (?, ?)
          ON CONFLICT (kind, entityId) DO UPDATE SET generation = generation + 1
        """, arguments: [kind, entity])
  }
}
