import AudioCore
import Foundation
import GRDB
import SyncUpsWire

// Meetings pulled from the server: each replaces the one here whole, waits for its sync-up,
// or brings back a sync-up this laptop deleted.
extension PulledChanges {
  /// A meeting whose clock is later than this one's replaces it whole (or deletes it). One
  /// into a sync-up this laptop deleted and has not yet pushed brings the sync-up back; one
  /// whose sync-up has not arrived yet waits in `syncParked`.
  static func applyPulledMeeting(
    _ remote: MeetingDocument, audioFile: String?, _ applied: inout Applied, _ db: Database
  ) throws -> Bool {
    let id = remote.id.lowercasedString
    let syncUpID = remote.syncUpID.lowercasedString
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
    if try !syncUpExists(syncUpID, db) {
      guard try restoreDeletedSyncUp(syncUpID, db) else {
        try parkMeeting(remote, db)
        return false
      }
      applied.syncUps += 1
    }
    try replaceMeeting(with: remote, audioFile: audioFile, db)
    try StoredDocuments.setClock(id, "meeting", remote.clock, db)
    return true
  }

  /// Keeps a meeting that came before its sync-up until the sync-up arrives.
  private static func parkMeeting(_ remote: MeetingDocument, _ db: Database) throws {
    try db.execute(
      sql: "INSERT OR REPLACE INTO syncParked (meetingId, syncUpId, document) VALUES (?, ?, ?)",
      arguments: [
        remote.id.lowercasedString, remote.syncUpID.lowercasedString,
        try WireJSON.encoder().encode(remote),
      ])
  }

  /// Applies the parked meetings whose sync-up is here now.
  static func applyParkedMeetings(
    directory: URL?, _ applied: inout Applied, _ db: Database
  ) throws {
    for row in try Row.fetchAll(
      db,
      sql: """
        SELECT document FROM syncParked WHERE syncUpId IN (SELECT id FROM syncUp)
        """)
    {
      let document = try WireJSON.decoder().decode(MeetingDocument.self, from: row["document"])
      let file = audioFile(for: document, in: directory)
      if try applyPulledMeeting(document, audioFile: file, &applied, db) { applied.meetings += 1 }
    }
  }

  /// The audio already downloaded for a parked meeting, if it is there.
  private static func audioFile(for document: MeetingDocument, in directory: URL?) -> String? {
    guard document.audio != nil, let directory else { return nil }
    let file = "audio/\(document.id.lowercasedString).flac"
    return FileManager.default.fileExists(atPath: directory.appendingPathComponent(file).path)
      ? file : nil
  }

  /// The meeting's row and segments as the document has them (a finished meeting).
  private static func replaceMeeting(
    with remote: MeetingDocument, audioFile: String?, _ db: Database
  ) throws {
    let id = remote.id.lowercasedString
    try db.execute(
      sql: """
        INSERT INTO meeting (id, syncUpId, date, isFinished, length, audioFile, transcript)
        VALUES (?, ?, ?, 1, ?, ?, NULL)
        ON CONFLICT (id) DO UPDATE SET syncUpId = excluded.syncUpId, date = excluded.date,
          isFinished = 1, length = excluded.length, audioFile = excluded.audioFile,
          transcript = NULL
        """,
      arguments: [
        id, remote.syncUpID.lowercasedString, remote.date.timeIntervalSince1970, remote.length,
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
  }

  /// Brings back a sync-up this laptop deleted (its deletion not yet pushed), because a meeting
  /// recorded elsewhere arrived for it: its deletion is undone by a later write of its own.
  static func restoreDeletedSyncUp(_ syncUpID: String, _ db: Database) throws -> Bool {
    guard let was = try StoredDocuments.syncUp(syncUpID, db), was.deleted.value,
      try Bool.fetchOne(
        db, sql: "SELECT EXISTS (SELECT 1 FROM syncOutbox WHERE kind = 'syncUp' AND entityId = ?)",
        arguments: [syncUpID]) ?? false
    else { return false }
    try insertSyncUp(was, db)
    try StoredDocuments.setClock(syncUpID, "deleted", try tick(db), db)
    try db.execute(
      sql: """
        INSERT INTO syncOutbox (kind, entityId) VALUES ('syncUp', ?)
        ON CONFLICT (kind, entityId) DO UPDATE SET generation = generation + 1
        """, arguments: [syncUpID])
    return true
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
  static func receiveClocks(of page: ChangesPage, _ db: Database) throws {
    var latest =
      (page.meetings.map(\.clock) + page.people.map(\.clock)).max() ?? StoredDocuments.zero
    for document in page.syncUps { latest = max(latest, document.clock) }
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
}
