import GRDB

/// What is learned of people, synced: each attendee's voice profile, acoustic adaptation and
/// the instant it was last forgotten (`attendeeForgotten`) travel as one document per attendee
/// (`PersonDocument`), stamped with one clock (`syncClock` field `learned`, entity the
/// attendee's id) and queued in `syncPeopleOutbox`; a sync-up's `wordsForgottenAt` is its field
/// `wordsForgotten`. A document pulled before its attendee waits in `syncParkedPerson`.
enum LearnedSchema {
  static func migrate(_ db: Database) throws {
    try db.execute(
      sql: """
        ALTER TABLE syncUp ADD COLUMN wordsForgottenAt DOUBLE;
        CREATE TABLE attendeeForgotten (
          attendeeId TEXT PRIMARY KEY NOT NULL REFERENCES attendee(id) ON DELETE CASCADE,
          forgottenAt DOUBLE NOT NULL
        );
        CREATE TABLE syncPeopleOutbox (
          attendeeId TEXT PRIMARY KEY NOT NULL,
          generation INTEGER NOT NULL DEFAULT 1
        );
        CREATE TABLE syncParkedPerson (
          attendeeId TEXT PRIMARY KEY NOT NULL,
          document BLOB NOT NULL
        );
        """)
    try db.execute(sql: triggers)
    // What was learned before it could sync enters the outbox once.
    try db.execute(
      sql: """
        \(SyncSchema.tick);
        INSERT INTO syncClock (entityId, field, clock)
          SELECT attendeeId, \(ClockedField.learned.sql), \(SyncSchema.clock) FROM syncDevice,
            (SELECT attendeeId FROM voiceProfile UNION SELECT attendeeId FROM speakerAdaptation)
          WHERE true ON CONFLICT (entityId, field) DO NOTHING;
        INSERT INTO syncPeopleOutbox (attendeeId)
          SELECT attendeeId FROM voiceProfile UNION SELECT attendeeId FROM speakerAdaptation;
        """)
  }

  /// The statements that stamp an attendee's document and queue it.
  static func stamp(_ attendee: String) -> String {
    """
    \(SyncSchema.tick);
      INSERT INTO syncClock (entityId, field, clock)
        SELECT \(attendee), \(ClockedField.learned.sql), \(SyncSchema.clock) FROM syncDevice WHERE true
        ON CONFLICT (entityId, field) DO UPDATE SET clock = excluded.clock;
      INSERT INTO syncPeopleOutbox (attendeeId) VALUES (\(attendee))
        ON CONFLICT (attendeeId) DO UPDATE SET generation = generation + 1;
    """
  }

  private static var triggers: String {
    var sql = ""
    // Not when the attendee itself is being deleted: the cascade runs after its row is gone.
    let attendeeExists = "EXISTS (SELECT 1 FROM attendee WHERE id = old.attendeeId)"
    for table in ["voiceProfile", "speakerAdaptation", "attendeeForgotten"] {
      sql += SyncSchema.trigger(
        "sync_\(table)_insert", "AFTER INSERT ON \(table)", stamp("new.attendeeId"))
      sql += SyncSchema.trigger(
        "sync_\(table)_update", "AFTER UPDATE ON \(table)", stamp("new.attendeeId"))
      sql += SyncSchema.trigger(
        "sync_\(table)_delete", "AFTER DELETE ON \(table)", when: attendeeExists,
        stamp("old.attendeeId"))
    }
    sql += SyncSchema.trigger(
      "sync_syncUp_wordsForgotten", "AFTER UPDATE OF wordsForgottenAt ON syncUp",
      when: "old.wordsForgottenAt IS NOT new.wordsForgottenAt",
      SyncSchema.stamp("syncUp", "new.id", [.syncUp(.wordsForgotten)]))
    return sql
  }
}
