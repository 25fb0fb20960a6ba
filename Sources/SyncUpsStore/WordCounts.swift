import Foundation
import GRDB

/// The words a sync-up's language model learns from, counted as they change and never on a
/// read (`show` at a year of meetings reads three numbers): what each meeting adds is kept
/// (`meetingWords`, its words as JSON `{word: count}`), and the sync-up's sums beside it
/// (`syncUpWords`, `syncUpWord` per distinct word).
///
/// Triggers only mark what changed (`wordCountsStale`: a meeting whose segments, finishing,
/// date or pending sentence pass changed, or every meeting of a sync-up whose words were
/// forgotten); `catchUp` recounts those meetings alone, at the end of each write transaction
/// of the store (`SyncUpsDatabase.write`, a pull, a save of the list). Cost follows the
/// change, not the history.
enum WordCounts {
  static func migrate(_ db: Database) throws {
    try db.execute(
      sql: """
        CREATE TABLE wordCountsStale (meetingId TEXT PRIMARY KEY NOT NULL) WITHOUT ROWID;
        CREATE TABLE meetingWords (
          meetingId TEXT PRIMARY KEY NOT NULL,
          syncUpId TEXT NOT NULL REFERENCES syncUp(id) ON DELETE CASCADE,
          corrected INTEGER NOT NULL,
          uncorrected INTEGER NOT NULL,
          words BLOB NOT NULL
        );
        CREATE TABLE syncUpWords (
          syncUpId TEXT PRIMARY KEY NOT NULL REFERENCES syncUp(id) ON DELETE CASCADE,
          corrected INTEGER NOT NULL DEFAULT 0,
          uncorrected INTEGER NOT NULL DEFAULT 0,
          vocabulary INTEGER NOT NULL DEFAULT 0
        );
        CREATE TABLE syncUpWord (
          syncUpId TEXT NOT NULL REFERENCES syncUp(id) ON DELETE CASCADE,
          word TEXT NOT NULL,
          count INTEGER NOT NULL,
          PRIMARY KEY (syncUpId, word)
        ) WITHOUT ROWID;
        \(triggers)
        CREATE TRIGGER words_forgotten AFTER UPDATE OF wordsForgottenAt ON syncUp BEGIN
          INSERT OR IGNORE INTO wordCountsStale (meetingId)
            SELECT id FROM meeting WHERE syncUpId = new.id;
        END;
        INSERT INTO wordCountsStale (meetingId) SELECT id FROM meeting;
        """)
    try catchUp(db)
  }

  /// What marks a meeting: its segments' words, its finishing, date or sync-up, its pending
  /// sentence pass.
  private static var triggers: String {
    [
      ("segment_insert", "AFTER INSERT ON segment", "new.meetingId"),
      ("segment_delete", "AFTER DELETE ON segment", "old.meetingId"),
      ("segment_update", "AFTER UPDATE OF text, originalText ON segment", "new.meetingId"),
      ("meeting_update", "AFTER UPDATE OF isFinished, date, syncUpId ON meeting", "new.id"),
      ("meeting_delete", "AFTER DELETE ON meeting", "old.id"),
      ("pass_insert", "AFTER INSERT ON sentencePass", "new.meetingId"),
      ("pass_delete", "AFTER DELETE ON sentencePass", "old.meetingId"),
    ].map { name, event, meeting in
      """
      CREATE TRIGGER words_\(name) \(event) BEGIN
        INSERT OR IGNORE INTO wordCountsStale (meetingId) VALUES (\(meeting));
      END;
      """
    }.joined(separator: "\n")
  }

  /// What one meeting adds to its sync-up's words.
  struct Contribution: Equatable {
    var syncUpID: String
    var corrected = 0
    var uncorrected = 0
    var words: [String: Int] = [:]
  }

  /// Recounts the meetings marked since the last catch-up, and the sums of their sync-ups.
  static func catchUp(_ db: Database) throws {
    let stale = try String.fetchAll(db, sql: "SELECT meetingId FROM wordCountsStale")
    guard !stale.isEmpty else { return }
    for meeting in stale {
      let before = try kept(meeting, db)
      let after = try counted(meeting, db)
      guard before != after else { continue }
      if let before {
        try add(before, sign: -1, db)
        try db.execute(sql: "DELETE FROM meetingWords WHERE meetingId = ?", arguments: [meeting])
      }
      guard let after else { continue }
      try add(after, sign: 1, db)
      try db.execute(
        sql: """
          INSERT INTO meetingWords (meetingId, syncUpId, corrected, uncorrected, words)
          VALUES (?, ?, ?, ?, ?)
          """,
        arguments: [
          meeting, after.syncUpID, after.corrected, after.uncorrected,
          try JSONEncoder().encode(after.words),
        ])
    }
    try db.execute(sql: "DELETE FROM wordCountsStale")
  }

  /// What the meeting was counted for (nil: nothing).
  private static func kept(_ meeting: String, _ db: Database) throws -> Contribution? {
    guard
      let row = try Row.fetchOne(
        db,
        sql: "SELECT syncUpId, corrected, uncorrected, words FROM meetingWords WHERE meetingId = ?",
        arguments: [meeting])
    else { return nil }
    return Contribution(
      syncUpID: row["syncUpId"], corrected: row["corrected"], uncorrected: row["uncorrected"],
      words: try JSONDecoder().decode([String: Int].self, from: row["words"]))
  }

  /// What the meeting counts for now: its segments' words when it is finished, began after its
  /// sync-up's words were last forgotten, and has no sentence pass waiting (as `textToLearn`).
  private static func counted(_ meeting: String, _ db: Database) throws -> Contribution? {
    guard
      let syncUp = try String.fetchOne(
        db,
        sql: """
          SELECT meeting.syncUpId FROM meeting JOIN syncUp ON syncUp.id = meeting.syncUpId
          WHERE meeting.id = ? AND meeting.isFinished
            AND meeting.date >= coalesce(syncUp.wordsForgottenAt, -1e300)
            AND meeting.id NOT IN (SELECT meetingId FROM sentencePass)
          """, arguments: [meeting])
    else { return nil }
    var contribution = Contribution(syncUpID: syncUp)
    let rows = try Row.fetchCursor(
      db, sql: "SELECT text, originalText IS NOT NULL FROM segment WHERE meetingId = ?",
      arguments: [meeting])
    while let row = try rows.next() {
      let spoken = (row[0] as String).split(whereSeparator: \.isWhitespace)
      if row[1] as Bool {
        contribution.corrected += spoken.count
      } else {
        contribution.uncorrected += spoken.count
      }
      for word in spoken { contribution.words[word.lowercased(), default: 0] += 1 }
    }
    return contribution
  }

  /// Adds (`sign` 1) or takes away (-1) a meeting's words from its sync-up's sums.
  private static func add(_ contribution: Contribution, sign: Int, _ db: Database) throws {
    let syncUp = contribution.syncUpID
    // Deleted: its sums went with it.
    guard try SyncUpRecord.exists(db, key: syncUp) else { return }
    var distinct = 0
    for (word, count) in contribution.words {
      let before =
        try Int.fetchOne(
          db.cachedStatement(sql: "SELECT count FROM syncUpWord WHERE syncUpId = ? AND word = ?"),
          arguments: [syncUp, word]) ?? 0
      let after = max(0, before + sign * count)
      if after == 0 {
        try db.cachedStatement(sql: "DELETE FROM syncUpWord WHERE syncUpId = ? AND word = ?")
          .execute(arguments: [syncUp, word])
      } else {
        try db.cachedStatement(
          sql: """
            INSERT INTO syncUpWord (syncUpId, word, count) VALUES (?, ?, ?)
            ON CONFLICT (syncUpId, word) DO UPDATE SET count = excluded.count
            """
        ).execute(arguments: [syncUp, word, after])
      }
      distinct += (after > 0 ? 1 : 0) - (before > 0 ? 1 : 0)
    }
    try db.execute(
      sql: """
        INSERT INTO syncUpWords (syncUpId, corrected, uncorrected, vocabulary) VALUES (?, ?, ?, ?)
        ON CONFLICT (syncUpId) DO UPDATE SET corrected = max(0, corrected + excluded.corrected),
          uncorrected = max(0, uncorrected + excluded.uncorrected),
          vocabulary = max(0, vocabulary + excluded.vocabulary)
        """,
      arguments: [
        syncUp, sign * contribution.corrected, sign * contribution.uncorrected, distinct,
      ])
  }

  /// The sync-up's sums as kept.
  static func learned(_ syncUpID: SyncUp.ID, _ db: Database) throws -> WordsLearned {
    var words = WordsLearned(forgotten: try SyncUpsDatabase.wordsForgotten(syncUpID, db))
    if let row = try Row.fetchOne(
      db, sql: "SELECT corrected, uncorrected, vocabulary FROM syncUpWords WHERE syncUpId = ?",
      arguments: [syncUpID])
    {
      (words.corrected, words.uncorrected, words.vocabulary) =
        (row["corrected"], row["uncorrected"], row["vocabulary"])
    }
    return words
  }
}
