import AudioCore
import Foundation
import GRDB
import SyncUpsWire

/// The pull side: one page of the server's changes applied in one transaction, with
/// `syncApplying` set so the triggers leave the outbox alone; last writer wins per field.
enum Pull {
  /// What applying a page changed here.
  struct Applied: Equatable, Sendable {
    var syncUps = 0
    var meetings = 0
    /// Audio files (relative to the data directory) of meetings deleted here: to delete once
    /// the transaction has committed.
    var deletedAudio: [String] = []
    /// Documents left out because they break the rules (why, one line each).
    var skipped: [String] = []
  }

  /// Applies `page` and stores its version as the cursor; `audioFiles` maps a meeting id to the
  /// audio file downloaded for it.
  static func apply(
    _ page: ChangesPage, audioFiles: [UUID: String], directory: URL?, now: Date = Date(),
    _ db: Database
  ) throws -> Applied {
    try db.execute(sql: "INSERT INTO syncApplying (active) VALUES (1)")
    var applied = Applied()
    let (kept, skipped) = keptByTheRules(page, now: now)
    applied.skipped = skipped
    let (syncUps, meetings) = (kept.syncUps, kept.meetings)
    for document in syncUps {
      if try apply(document, &applied, db) { applied.syncUps += 1 }
    }
    for document in meetings {
      if try apply(document, audioFile: audioFiles[document.id], &applied, db) {
        applied.meetings += 1
      }
    }
    // Meetings that came before their sync-up.
    for row in try Row.fetchAll(
      db,
      sql: """
        SELECT document FROM syncParked WHERE syncUpId IN (SELECT id FROM syncUp)
        """)
    {
      let document = try WireJSON.decoder().decode(MeetingDocument.self, from: row["document"])
      let file = audioFile(for: document, in: directory)
      if try apply(document, audioFile: file, &applied, db) { applied.meetings += 1 }
    }
    if applied.syncUps > 0 { try orderSyncUps(db) }
    try receive(syncUps, meetings, db)
    try setState("cursor", page.version, db)
    try db.execute(sql: "DELETE FROM syncApplying")
    return applied
  }

  /// The page without what breaks the rules every front end saves by, and why each document
  /// was left out: it is said and passed over (the cursor moves on), and its clocks are never
  /// adopted.
  static func keptByTheRules(_ page: ChangesPage, now: Date) -> (ChangesPage, skipped: [String]) {
    var skipped: [String] = []
    func passes(_ check: () throws(DocumentProblem) -> Void) -> Bool {
      do {
        try check()
        return true
      } catch {
        skipped.append(error.description)
        return false
      }
    }
    var kept = page
    kept.syncUps = page.syncUps.filter { document in
      passes { () throws(DocumentProblem) in try document.check(now: now) }
    }
    kept.meetings = page.meetings.filter { document in
      passes { () throws(DocumentProblem) in try document.check(now: now) }
    }
    return (kept, skipped)
  }

  /// The audio already downloaded for a parked meeting, if it is there.
  private static func audioFile(for document: MeetingDocument, in directory: URL?) -> String? {
    guard document.audio != nil, let directory else { return nil }
    let file = "audio/\(document.id.lowercasedStored).flac"
    return FileManager.default.fileExists(atPath: directory.appendingPathComponent(file).path)
      ? file : nil
  }

  /// A sync-up, field by field: each field whose clock is later than this one's. A deletion
  /// deletes it here too, unless a meeting recorded here has not reached the server yet (or a
  /// recording runs): then it stays, and that meeting's push brings it back on the server.
  static func apply(_ remote: SyncUpDocument, _ applied: inout Applied, _ db: Database) throws
    -> Bool
  {
    let id = remote.id.lowercasedStored
    let clocks = try StoredDocuments.clocks(id, db)
    func later(_ field: String, _ clock: HybridClock) -> Bool {
      clock > (clocks[field] ?? StoredDocuments.zero)
    }
    let exists =
      try Bool.fetchOne(
        db, sql: "SELECT EXISTS (SELECT 1 FROM syncUp WHERE id = ?)", arguments: [id]) ?? false
    let fields: [(String, HybridClock)] = [
      ("title", remote.title.clock), ("theme", remote.theme.clock),
      ("duration", remote.duration.clock), ("attendees", remote.attendees.clock),
      ("vocabulary", remote.vocabulary.clock), ("deleted", remote.deleted.clock),
    ]
    if !exists {
      if remote.deleted.value || !later("deleted", remote.deleted.clock) {
        // Deleted there, or deleted here later (this laptop's deletion is on its way).
        for (field, clock) in fields where later(field, clock) {
          try StoredDocuments.setClock(id, field, clock, db)
        }
        return false
      }
      let position =
        try Int.fetchOne(db, sql: "SELECT coalesce(max(position), -1) + 1 FROM syncUp") ?? 0
      try db.execute(
        sql: """
          INSERT INTO syncUp (id, position, title, durationMilliseconds, theme)
          VALUES (?, ?, ?, ?, ?)
          """,
        arguments: [
          id, position, remote.title.value, milliseconds(remote.duration.value),
          remote.theme.value,
        ])
      try replaceAttendees(id, remote.attendees.value, db)
      try replaceVocabulary(id, remote.vocabulary.value, db)
      try db.execute(sql: "DELETE FROM syncTombstone WHERE entityId = ?", arguments: [id])
      for (field, clock) in fields { try StoredDocuments.setClock(id, field, clock, db) }
      return true
    }
    var changed = false
    if later("deleted", remote.deleted.clock), remote.deleted.value {
      guard try recordedHereSinceLastPush(id, db) else {
        applied.deletedAudio += try String.fetchAll(
          db, sql: "SELECT audioFile FROM meeting WHERE syncUpId = ? AND audioFile IS NOT NULL",
          arguments: [id])
        try db.execute(sql: "DELETE FROM syncUp WHERE id = ?", arguments: [id])
        for (field, clock) in fields where later(field, clock) {
          try StoredDocuments.setClock(id, field, clock, db)
        }
        return true
      }
    }
    if later("title", remote.title.clock) {
      try db.execute(
        sql: "UPDATE syncUp SET title = ? WHERE id = ?", arguments: [remote.title.value, id])
      changed = true
    }
    if later("theme", remote.theme.clock) {
      try db.execute(
        sql: "UPDATE syncUp SET theme = ? WHERE id = ?", arguments: [remote.theme.value, id])
      changed = true
    }
    if later("duration", remote.duration.clock) {
      try db.execute(
        sql: "UPDATE syncUp SET durationMilliseconds = ? WHERE id = ?",
        arguments: [milliseconds(remote.duration.value), id])
      changed = true
    }
    if later("attendees", remote.attendees.clock) {
      try replaceAttendees(id, remote.attendees.value, db)
      changed = true
    }
    if later("vocabulary", remote.vocabulary.clock) {
      try replaceVocabulary(id, remote.vocabulary.value, db)
      changed = true
    }
    for (field, clock) in fields where later(field, clock) {
      // A deletion kept off (a meeting recorded here) keeps this laptop's clock.
      if field == "deleted", remote.deleted.value { continue }
      try StoredDocuments.setClock(id, field, clock, db)
    }
    return changed
  }

  /// A meeting whose clock is later than this one's replaces it whole (or deletes it). One
  /// into a sync-up this laptop deleted and has not yet pushed brings the sync-up back; one
  /// whose sync-up has not arrived yet waits in `syncParked`.
  static func apply(
    _ remote: MeetingDocument, audioFile: String?, _ applied: inout Applied, _ db: Database
  ) throws -> Bool {
    let id = remote.id.lowercasedStored
    let syncUpID = remote.syncUpID.lowercasedStored
    let local = try StoredDocuments.clocks(id, db)["meeting"] ?? StoredDocuments.zero
    let row = try Row.fetchOne(
      db, sql: "SELECT isFinished, audioFile FROM meeting WHERE id = ?", arguments: [id])
    try db.execute(sql: "DELETE FROM syncParked WHERE meetingId = ?", arguments: [id])
    // Never a recording in progress; never an older write.
    if let row, !(row["isFinished"] as Bool) { return false }
    guard remote.clock > local else { return false }
    if remote.deleted {
      try StoredDocuments.setClock(id, "meeting", remote.clock, db)
      guard let row else { return false }
      if let file = row["audioFile"] as String? { applied.deletedAudio.append(file) }
      try db.execute(sql: "DELETE FROM meeting WHERE id = ?", arguments: [id])
      return true
    }
    let syncUpExists =
      try Bool.fetchOne(
        db, sql: "SELECT EXISTS (SELECT 1 FROM syncUp WHERE id = ?)", arguments: [syncUpID])
      ?? false
    if !syncUpExists {
      guard try restoreDeleted(syncUpID, db) else {
        try db.execute(
          sql: "INSERT OR REPLACE INTO syncParked (meetingId, syncUpId, document) VALUES (?, ?, ?)",
          arguments: [id, syncUpID, try WireJSON.encoder().encode(remote)])
        return false
      }
      applied.syncUps += 1
    }
    try db.execute(
      sql: """
        INSERT INTO meeting (id, syncUpId, date, isFinished, length, audioFile, transcript)
        VALUES (?, ?, ?, 1, ?, ?, NULL)
        ON CONFLICT (id) DO UPDATE SET syncUpId = excluded.syncUpId, date = excluded.date,
          isFinished = 1, length = excluded.length, audioFile = excluded.audioFile,
          transcript = NULL
        """,
      arguments: [
        id, syncUpID, remote.date.timeIntervalSince1970, remote.length,
        remote.audio == nil ? nil : audioFile,
      ])
    try db.execute(sql: "DELETE FROM segment WHERE meetingId = ?", arguments: [id])
    let encoder = JSONEncoder()
    func storedWords(_ words: [MeetingDocument.Word]) throws -> Data {
      try encoder.encode(
        words.map {
          Transcription.Word(
            word: $0.text, start: $0.start, end: $0.end, confidence: $0.confidence ?? 1)
        })
    }
    for (ordinal, segment) in remote.segments.enumerated() {
      // A corrected segment brings what was recognised with it.
      try db.execute(
        sql: """
          INSERT INTO segment (meetingId, ordinal, speaker, startTime, endTime, text, words,
            originalSpeaker, originalText, originalWords)
          VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
          """,
        arguments: [
          id, ordinal, segment.speaker, segment.start, segment.end, segment.text,
          try storedWords(segment.words), segment.original?.speaker, segment.original?.text,
          try segment.original.map { try storedWords($0.words) },
        ])
    }
    try StoredDocuments.setClock(id, "meeting", remote.clock, db)
    return true
  }

  /// True when a meeting of the sync-up was recorded here and has not reached the server, or
  /// is being recorded.
  static func recordedHereSinceLastPush(_ syncUpID: String, _ db: Database) throws -> Bool {
    try Bool.fetchOne(
      db,
      sql: """
        SELECT EXISTS (SELECT 1 FROM meeting WHERE syncUpId = ? AND (NOT isFinished OR id IN
          (SELECT entityId FROM syncOutbox WHERE kind = 'meeting')))
        """, arguments: [syncUpID]) ?? false
  }

  /// Brings back a sync-up this laptop deleted (its deletion not yet pushed), because a meeting
  /// recorded elsewhere arrived for it: its deletion is undone by a later write of its own.
  static func restoreDeleted(_ syncUpID: String, _ db: Database) throws -> Bool {
    guard let was = try StoredDocuments.syncUp(syncUpID, db), was.deleted.value,
      try Bool.fetchOne(
        db, sql: "SELECT EXISTS (SELECT 1 FROM syncOutbox WHERE kind = 'syncUp' AND entityId = ?)",
        arguments: [syncUpID]) ?? false
    else { return false }
    let position =
      try Int.fetchOne(db, sql: "SELECT coalesce(max(position), -1) + 1 FROM syncUp") ?? 0
    try db.execute(
      sql: """
        INSERT INTO syncUp (id, position, title, durationMilliseconds, theme)
        VALUES (?, ?, ?, ?, ?)
        """,
      arguments: [
        syncUpID, position, was.title.value, milliseconds(was.duration.value), was.theme.value,
      ])
    try replaceAttendees(syncUpID, was.attendees.value, db)
    try replaceVocabulary(syncUpID, was.vocabulary.value, db)
    try db.execute(sql: "DELETE FROM syncTombstone WHERE entityId = ?", arguments: [syncUpID])
    try StoredDocuments.setClock(syncUpID, "deleted", try tick(db), db)
    try db.execute(
      sql: """
        INSERT INTO syncOutbox (kind, entityId) VALUES ('syncUp', ?)
        ON CONFLICT (kind, entityId) DO UPDATE SET generation = generation + 1
        """, arguments: [syncUpID])
    return true
  }

  /// The list's order is the same on every laptop: by when each sync-up was made (the clock of
  /// its `deleted` field, set when it is made), then as it was here (sync-ups that were here
  /// before the sync keep their order).
  private static func orderSyncUps(_ db: Database) throws {
    try db.execute(
      sql: """
        WITH ordered AS (
          SELECT syncUp.id, row_number() OVER (
            ORDER BY coalesce(syncClock.clock, ''), syncUp.position, syncUp.rowid) - 1 AS place
          FROM syncUp LEFT JOIN syncClock
            ON syncClock.entityId = syncUp.id AND syncClock.field = 'deleted')
        UPDATE syncUp SET position = (SELECT place FROM ordered WHERE ordered.id = syncUp.id)
        """)
  }

  private static func replaceAttendees(
    _ id: String, _ attendees: [SyncUpDocument.Attendee], _ db: Database
  ) throws {
    try db.execute(sql: "DELETE FROM attendee WHERE syncUpId = ?", arguments: [id])
    for (position, attendee) in attendees.enumerated() {
      try db.execute(
        sql: "INSERT OR REPLACE INTO attendee (id, syncUpId, position, name) VALUES (?, ?, ?, ?)",
        arguments: [attendee.id.lowercasedStored, id, position, attendee.name])
    }
  }

  private static func replaceVocabulary(_ id: String, _ words: [String], _ db: Database) throws {
    try db.execute(sql: "DELETE FROM vocabularyWord WHERE syncUpId = ?", arguments: [id])
    for word in words {
      try db.execute(
        sql: "INSERT OR IGNORE INTO vocabularyWord (syncUpId, word) VALUES (?, ?)",
        arguments: [id, word])
    }
  }

  private static func milliseconds(_ seconds: Double) -> Int64 {
    Int64(saturating: (seconds * 1000).rounded())
  }

  /// A local change's clock: now, or one more count than the last reading.
  static func tick(_ db: Database, now: Date = Date()) throws -> HybridClock {
    guard
      let row = try Row.fetchOne(db, sql: "SELECT id, milliseconds, counter FROM syncDevice")
    else { return StoredDocuments.zero }
    var clock = HybridClock(
      milliseconds: row["milliseconds"], counter: row["counter"], device: row["id"])
    clock = clock.tick(now: now, device: clock.device)
    try db.execute(
      sql: "UPDATE syncDevice SET milliseconds = ?, counter = ?",
      arguments: [clock.milliseconds, clock.counter])
    return clock
  }

  /// The hybrid clock's receive rule: this laptop's next change is later than anything seen.
  private static func receive(
    _ syncUps: [SyncUpDocument], _ meetings: [MeetingDocument], _ db: Database
  ) throws {
    var latest = meetings.map(\.clock).max() ?? StoredDocuments.zero
    for document in syncUps {
      latest = max(
        latest, document.title.clock, document.theme.clock, document.duration.clock,
        document.attendees.clock, document.vocabulary.clock, document.deleted.clock)
    }
    try db.execute(
      sql: """
        UPDATE syncDevice SET milliseconds = ?, counter = ?
        WHERE milliseconds < ? OR (milliseconds = ? AND counter < ?)
        """,
      arguments: [
        latest.milliseconds, latest.counter, latest.milliseconds, latest.milliseconds,
        latest.counter,
      ])
  }

  static func setState(_ key: String, _ value: (any DatabaseValueConvertible)?, _ db: Database)
    throws
  {
    try db.execute(
      sql: "INSERT OR REPLACE INTO syncState (key, value) VALUES (?, ?)", arguments: [key, value])
  }
}
