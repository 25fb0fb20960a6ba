import Foundation
import GRDB

/// The team sync's tables: the database itself records what changed, so writes from
/// every process, and a crash between a write and its push, are covered.
///
/// - `syncOutbox`: one row per sync-up or finished meeting changed since it was last pushed;
///   `generation` grows at each change, so a push removes a row only if it did not change while
///   the push was in flight.
/// - `syncClock`: each field's hybrid logical clock (`milliseconds-counter-device`, as
///   `SyncUpsWire.HybridClock` writes it): a sync-up's title, theme, duration, attendees,
///   vocabulary and deleted; a meeting's `meeting` (its latest change, segments included),
///   and each corrected segment's `segment:ORDINAL` (0 = the first): segments merge one by
///   one, the later correction winning. Last writer wins, per field.
/// - `syncDevice`: this database's device id and its clock's last reading.
/// - `syncApplying`: holds a row only inside the transaction that applies a pull, so what a
///   pull writes does not enter the outbox (no other process ever sees the row).
/// - `syncTombstone`: what a deleted sync-up or meeting was, for the push that deletes it.
/// - `syncPendingPush`, `syncParked`, `syncState`: the push being sent (resent byte for byte
///   until acknowledged), meetings pulled before their sync-up, the pull's cursor.
///
/// Unfinished recordings never enter the outbox: meeting and segment triggers fire only for
/// finished meetings (finishing one is the change that enters).
enum SyncSchema {
  static func migrate(_ db: Database) throws {
    try db.execute(sql: tables)
    try db.execute(
      sql: "INSERT INTO syncDevice (id, milliseconds, counter) VALUES (?, 0, 0)",
      arguments: [UUID().lowercasedString])
    try db.execute(sql: triggers)
    // What the database held before it could sync enters the outbox once.
    try db.execute(
      sql: """
        \(tick);
        INSERT INTO syncClock (entityId, field, clock)
          SELECT syncUp.id, field.column1, \(clock)
          FROM syncUp, syncDevice, \(values(ClockedField.SyncUpField.stampedWhenMade.map(ClockedField.syncUp))) AS field;
        INSERT INTO syncOutbox (kind, entityId) SELECT 'syncUp', id FROM syncUp ORDER BY position;
        INSERT INTO syncClock (entityId, field, clock)
          SELECT meeting.id, \(ClockedField.meeting.sql), \(clock) FROM meeting, syncDevice WHERE isFinished;
        INSERT INTO syncOutbox (kind, entityId)
          SELECT 'meeting', id FROM meeting WHERE isFinished ORDER BY date;
        """)
  }

  /// Segment clocks: a finished meeting's segment changed in place (a correction, or putting
  /// back what was recognised) stamps its own clock, `segment:ORDINAL`, as well as the
  /// meeting's; a segment removed takes its clock with it. The segments corrected before have
  /// the meeting's clock.
  static func segmentClocks(_ db: Database) throws {
    let finished = { (meeting: String) in
      "(SELECT isFinished FROM meeting WHERE id = \(meeting))"
    }
    let segmentClock = """
      INSERT INTO syncClock (entityId, field, clock)
          SELECT new.meetingId, \(segment)new.ordinal, clock FROM syncClock
          WHERE entityId = new.meetingId AND field = \(ClockedField.meeting.sql)
          ON CONFLICT (entityId, field) DO UPDATE SET clock = excluded.clock;
      """
    let sql =
      """
      INSERT OR IGNORE INTO syncClock (entityId, field, clock)
        SELECT segment.meetingId, \(segment)segment.ordinal, syncClock.clock
        FROM segment JOIN syncClock
          ON syncClock.entityId = segment.meetingId AND syncClock.field = \(ClockedField.meeting.sql)
        WHERE segment.originalText IS NOT NULL;
      DROP TRIGGER sync_segment_update;
      DROP TRIGGER sync_segment_delete;

      """
      + trigger(
        "sync_segment_update", "AFTER UPDATE ON segment", when: finished("new.meetingId"),
        stamp("meeting", "new.meetingId", [.meeting]) + "\n  " + segmentClock)
      + trigger(
        "sync_segment_delete", "AFTER DELETE ON segment", when: finished("old.meetingId"),
        "DELETE FROM syncClock WHERE entityId = old.meetingId AND field = \(segment)old.ordinal;\n  "
          + stamp("meeting", "old.meetingId", [.meeting]))
    try db.execute(sql: sql)
  }

  /// `ClockedField.segment`'s name in SQL, before the ordinal.
  private static let segment = "'\(ClockedField.segmentPrefix)' || "

  /// The fields as an SQL table of one column.
  private static func values(_ fields: [ClockedField]) -> String {
    "(VALUES \(fields.map { "(\($0.sql))" }.joined(separator: ", ")))"
  }

  private static let tables = """
    CREATE TABLE syncDevice (
      id TEXT NOT NULL,
      milliseconds INTEGER NOT NULL,
      counter INTEGER NOT NULL
    );
    CREATE TABLE syncApplying (active INTEGER NOT NULL);
    CREATE TABLE syncClock (
      entityId TEXT NOT NULL,
      field TEXT NOT NULL,
      clock TEXT NOT NULL,
      PRIMARY KEY (entityId, field)
    ) WITHOUT ROWID;
    CREATE TABLE syncOutbox (
      kind TEXT NOT NULL CHECK (kind IN ('syncUp', 'meeting')),
      entityId TEXT NOT NULL,
      generation INTEGER NOT NULL DEFAULT 1,
      PRIMARY KEY (kind, entityId)
    );
    CREATE TABLE syncTombstone (
      entityId TEXT PRIMARY KEY NOT NULL,
      -- A sync-up: {title, theme, durationMilliseconds, attendees, vocabulary};
      -- a meeting: {syncUpId, date, length}.
      document TEXT NOT NULL
    );
    CREATE TABLE syncPendingPush (
      pushId TEXT PRIMARY KEY NOT NULL,
      -- The push's JSON, sent byte for byte until the server acknowledges it.
      body BLOB NOT NULL,
      -- JSON [{kind, entityId, generation}]: the outbox rows it empties.
      entries TEXT NOT NULL,
      -- JSON [{sha256, file}]: the audio it needs on the server first.
      audio TEXT NOT NULL
    );
    CREATE TABLE syncParked (
      meetingId TEXT PRIMARY KEY NOT NULL,
      syncUpId TEXT NOT NULL,
      document BLOB NOT NULL
    );
    CREATE TABLE syncState (key TEXT PRIMARY KEY NOT NULL, value);
    """

  /// The milliseconds of now.
  static let wall = "CAST((julianday('now') - 2440587.5) * 86400000.0 AS INTEGER)"

  /// Advances `syncDevice`'s clock: now, or one more count in the same millisecond (at most
  /// 9999 counts: then the next millisecond).
  static let tick = """
    UPDATE syncDevice SET
      counter = CASE WHEN \(wall) > milliseconds OR counter >= 9999 THEN 0 ELSE counter + 1 END,
      milliseconds = CASE WHEN \(wall) > milliseconds THEN \(wall)
        WHEN counter >= 9999 THEN milliseconds + 1 ELSE milliseconds END
    """

  /// `syncDevice`'s reading as text.
  static let clock = "printf('%016d-%04d-%s', milliseconds, counter, syncDevice.id)"

  private static let notApplying = "NOT EXISTS (SELECT 1 FROM syncApplying)"

  /// The statements that stamp `fields` of `entity` with a new clock and put it in the outbox.
  static func stamp(_ kind: String, _ entity: String, _ fields: [ClockedField]) -> String {
    """
    \(tick);
      INSERT INTO syncClock (entityId, field, clock)
        SELECT \(entity), field.column1, \(clock)
        FROM syncDevice, \(values(fields)) AS field
        WHERE true
        ON CONFLICT (entityId, field) DO UPDATE SET clock = excluded.clock;
      INSERT INTO syncOutbox (kind, entityId) VALUES ('\(kind)', \(entity))
        ON CONFLICT (kind, entityId) DO UPDATE SET generation = generation + 1;
    """
  }

  static func trigger(
    _ name: String, _ event: String, when condition: String? = nil, _ body: String
  ) -> String {
    let when = ([condition].compactMap { $0 } + [notApplying]).joined(separator: " AND ")
    return "CREATE TRIGGER \(name) \(event) WHEN \(when) BEGIN\n  \(body)\nEND;\n"
  }

  private static var triggers: String {
    let finished = { (meeting: String) in
      "(SELECT isFinished FROM meeting WHERE id = \(meeting))"
    }
    let parentExists = "EXISTS (SELECT 1 FROM syncUp WHERE id = old.syncUpId)"
    var sql = ""
    // Sync-ups.
    sql += trigger(
      "sync_syncUp_insert", "AFTER INSERT ON syncUp",
      "DELETE FROM syncTombstone WHERE entityId = new.id;\n"
        + stamp(
          "syncUp", "new.id", ClockedField.SyncUpField.stampedWhenMade.map(ClockedField.syncUp)))
    for (column, field) in [
      ("title", ClockedField.SyncUpField.title), ("theme", .theme),
      ("durationMilliseconds", .duration),
    ] {
      sql += trigger(
        "sync_syncUp_\(field)", "AFTER UPDATE OF \(column) ON syncUp",
        when: "old.\(column) IS NOT new.\(column)", stamp("syncUp", "new.id", [.syncUp(field)]))
    }
    // Before the cascade removes them: what the sync-up was, for the push that deletes it.
    sql += trigger(
      "sync_syncUp_tombstone", "BEFORE DELETE ON syncUp",
      """
      INSERT OR REPLACE INTO syncTombstone (entityId, document) VALUES (old.id, json_object(
          'title', old.title, 'theme', old.theme,
          'durationMilliseconds', old.durationMilliseconds,
          'attendees', (SELECT json_group_array(json_object('id', id, 'name', name))
            FROM (SELECT id, name FROM attendee WHERE syncUpId = old.id ORDER BY position)),
          'vocabulary', (SELECT json_group_array(word)
            FROM (SELECT word FROM vocabularyWord WHERE syncUpId = old.id ORDER BY rowid))));
      """)
    sql += trigger(
      "sync_syncUp_delete", "AFTER DELETE ON syncUp", stamp("syncUp", "old.id", [.syncUp(.deleted)])
    )
    // Attendees and vocabulary: the sync-up's `attendees` and `vocabulary` fields (not when
    // the sync-up itself is being deleted: the cascade runs after its row is gone).
    for (table, field) in [
      ("attendee", ClockedField.syncUp(.attendees)), ("vocabularyWord", .syncUp(.vocabulary)),
    ] {
      sql += trigger(
        "sync_\(table)_insert", "AFTER INSERT ON \(table)",
        stamp("syncUp", "new.syncUpId", [field]))
      sql += trigger(
        "sync_\(table)_update", "AFTER UPDATE ON \(table)",
        stamp("syncUp", "new.syncUpId", [field]))
      sql += trigger(
        "sync_\(table)_delete", "AFTER DELETE ON \(table)", when: parentExists,
        stamp("syncUp", "old.syncUpId", [field]))
    }
    // Finished meetings and their segments.
    sql += trigger(
      "sync_meeting_insert", "AFTER INSERT ON meeting", when: "new.isFinished",
      "DELETE FROM syncTombstone WHERE entityId = new.id;\n"
        + stamp("meeting", "new.id", [.meeting]))
    sql += trigger(
      "sync_meeting_update",
      "AFTER UPDATE OF isFinished, syncUpId, date, length, audioFile, transcript ON meeting",
      when: "new.isFinished", stamp("meeting", "new.id", [.meeting]))
    sql += trigger(
      "sync_meeting_delete", "AFTER DELETE ON meeting", when: "old.isFinished",
      """
      INSERT OR REPLACE INTO syncTombstone (entityId, document) VALUES (old.id, json_object(
          'syncUpId', old.syncUpId, 'date', old.date, 'length', old.length));
      """ + stamp("meeting", "old.id", [.meeting]))
    sql += trigger(
      "sync_segment_insert", "AFTER INSERT ON segment", when: finished("new.meetingId"),
      stamp("meeting", "new.meetingId", [.meeting]))
    sql += trigger(
      "sync_segment_update", "AFTER UPDATE ON segment", when: finished("new.meetingId"),
      stamp("meeting", "new.meetingId", [.meeting]))
    sql += trigger(
      "sync_segment_delete", "AFTER DELETE ON segment", when: finished("old.meetingId"),
      stamp("meeting", "old.meetingId", [.meeting]))
    return sql
  }
}
