import AudioCore
import Foundation
import GRDB
import SyncUpsWire

/// The pull side: one page of the server's changes applied in one transaction, with
/// `syncApplying` set so the triggers leave the outbox alone; last writer wins per field. What
/// breaks the rules every front end saves by is left out first (`keptByTheRules`).
public enum PulledChanges {
  /// What applying a page changed here.
  public struct Applied: Equatable, Sendable {
    public var syncUps = 0
    public var meetings = 0
    /// Attendees whose learned voice or adaptation changed (or was forgotten) here.
    public var people = 0
    /// Audio files (relative to the data directory) of meetings deleted here: to delete once
    /// the transaction has committed.
    public var deletedAudio: [String] = []
    /// Documents left out because they break the rules (why, one line each).
    public var skipped: [String] = []
    /// The segments (0 = a meeting's first) whose speaker, text or words the page changed, in
    /// meetings that were here before: what was learned from them is to learn again.
    public var changedSegments: [UUID: [Int]] = [:]
  }

  /// Applies `page` and records its version as the sync cursor; `audioFiles` maps a meeting id
  /// to the audio file downloaded for it.
  public static func apply(
    _ page: ChangesPage, audioFiles: [UUID: String], directory: URL?, now: Date = Date(),
    _ db: Database
  ) throws -> Applied {
    try db.execute(sql: "INSERT INTO syncApplying (active) VALUES (1)")
    var applied = Applied()
    let (kept, skipped) = keptByTheRules(page, now: now)
    applied.skipped = skipped
    for document in kept.syncUps {
      if try applyPulledSyncUp(document, &applied, db) { applied.syncUps += 1 }
    }
    for document in kept.meetings {
      if try applyPulledMeeting(document, audioFile: audioFiles[document.id], &applied, db) {
        applied.meetings += 1
      }
    }
    try applyParkedMeetings(directory: directory, &applied, db)
    for document in kept.people where try applyPulledPerson(document, db) { applied.people += 1 }
    applied.people += try applyParkedPeople(db)
    if applied.syncUps > 0 { try orderSyncUpsAsEveryLaptopDoes(db) }
    try receiveClocks(of: kept, db)
    try SyncState.recordCursor(page.version, db)
    try db.execute(sql: "DELETE FROM syncApplying")
    return applied
  }

  /// The page without what breaks the rules every front end saves by, and why each document
  /// was left out: it is said and passed over (the cursor moves on), and its clocks are never
  /// adopted.
  public static func keptByTheRules(_ page: ChangesPage, now: Date) -> (
    ChangesPage, skipped: [String]
  ) {
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
    kept.people = page.people.filter { document in
      passes { () throws(DocumentProblem) in try document.check(now: now) }
    }
    return (kept, skipped)
  }

  /// A field of a sync-up document and its clock.
  typealias StampedField = (name: String, clock: HybridClock)

  /// A sync-up, field by field: each field whose clock is later than this one's. A deletion
  /// deletes it here too, unless a meeting recorded here has not reached the server yet (or a
  /// recording runs): then it stays, and that meeting's push brings it back on the server.
  static func applyPulledSyncUp(_ remote: SyncUpDocument, _ applied: inout Applied, _ db: Database)
    throws -> Bool
  {
    let id = remote.id.lowercasedString
    let clocks = try StoredDocuments.clocks(id, db)
    let later = { (field: StampedField) in
      field.clock > (clocks[field.name] ?? StoredDocuments.zero)
    }
    let fields: [StampedField] =
      [
        ("title", remote.title.clock), ("theme", remote.theme.clock),
        ("duration", remote.duration.clock), ("attendees", remote.attendees.clock),
        ("vocabulary", remote.vocabulary.clock), ("deleted", remote.deleted.clock),
      ] + (remote.wordsForgotten.map { [("wordsForgotten", $0.clock)] } ?? [])
    let deletedLater = later(("deleted", remote.deleted.clock))
    guard try syncUpExists(id, db) else {
      // Deleted there, or deleted here later (this laptop's deletion is on its way).
      if remote.deleted.value || !deletedLater {
        try adoptClocks(of: id, fields.filter(later), db)
        return false
      }
      try insertSyncUp(remote, db)
      try adoptClocks(of: id, fields, db)
      return true
    }
    if deletedLater, remote.deleted.value, try !recordedHereSinceLastPush(id, db) {
      applied.deletedAudio += try deleteSyncUp(id, db)
      try adoptClocks(of: id, fields.filter(later), db)
      return true
    }
    let changed = try updateSyncUp(id, from: remote, fields: fields.filter(later), db)
    // A deletion kept off (a meeting recorded here) keeps this laptop's clock.
    let adopted = fields.filter { later($0) && !($0.name == "deleted" && remote.deleted.value) }
    try adoptClocks(of: id, adopted, db)
    return changed
  }

  /// Writes the sync-up's `fields` (those whose clock is later than this laptop's) from the
  /// document; true when there was one.
  private static func updateSyncUp(
    _ id: String, from remote: SyncUpDocument, fields: [StampedField], _ db: Database
  ) throws -> Bool {
    let names = Set(fields.map(\.name))
    if names.contains("title") {
      try db.execute(
        sql: "UPDATE syncUp SET title = ? WHERE id = ?", arguments: [remote.title.value, id])
    }
    if names.contains("theme") {
      try db.execute(
        sql: "UPDATE syncUp SET theme = ? WHERE id = ?", arguments: [remote.theme.value, id])
    }
    if names.contains("duration") {
      try db.execute(
        sql: "UPDATE syncUp SET durationMilliseconds = ? WHERE id = ?",
        arguments: [milliseconds(remote.duration.value), id])
    }
    if names.contains("attendees") { try replaceAttendees(id, remote.attendees.value, db) }
    if names.contains("vocabulary") { try replaceVocabulary(id, remote.vocabulary.value, db) }
    if names.contains("wordsForgotten") {
      try db.execute(
        sql: "UPDATE syncUp SET wordsForgottenAt = ? WHERE id = ?",
        arguments: [remote.wordsForgotten?.value.timeIntervalSince1970, id])
    }
    return !names.subtracting(["deleted"]).isEmpty
  }

  private static func adoptClocks(of id: String, _ fields: [StampedField], _ db: Database) throws {
    for field in fields { try StoredDocuments.setClock(id, field.name, field.clock, db) }
  }

  static func syncUpExists(_ id: String, _ db: Database) throws -> Bool {
    try Bool.fetchOne(
      db, sql: "SELECT EXISTS (SELECT 1 FROM syncUp WHERE id = ?)", arguments: [id]) ?? false
  }

  /// A sync-up made elsewhere (or brought back here) as the document has it: after the others
  /// in the list, with its attendees and words, and no tombstone.
  static func insertSyncUp(_ document: SyncUpDocument, _ db: Database) throws {
    let id = document.id.lowercasedString
    let position =
      try Int.fetchOne(db, sql: "SELECT coalesce(max(position), -1) + 1 FROM syncUp") ?? 0
    try db.execute(
      sql: """
        INSERT INTO syncUp (id, position, title, durationMilliseconds, theme)
        VALUES (?, ?, ?, ?, ?)
        """,
      arguments: [
        id, position, document.title.value, milliseconds(document.duration.value),
        document.theme.value,
      ])
    try replaceAttendees(id, document.attendees.value, db)
    try replaceVocabulary(id, document.vocabulary.value, db)
    try db.execute(
      sql: "UPDATE syncUp SET wordsForgottenAt = ? WHERE id = ?",
      arguments: [document.wordsForgotten?.value.timeIntervalSince1970, id])
    try db.execute(sql: "DELETE FROM syncTombstone WHERE entityId = ?", arguments: [id])
  }

  /// Deletes a sync-up deleted elsewhere and returns its meetings' audio files.
  private static func deleteSyncUp(_ id: String, _ db: Database) throws -> [String] {
    let audio = try String.fetchAll(
      db, sql: "SELECT audioFile FROM meeting WHERE syncUpId = ? AND audioFile IS NOT NULL",
      arguments: [id])
    try db.execute(sql: "DELETE FROM syncUp WHERE id = ?", arguments: [id])
    return audio
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

  /// The list's order is the same on every laptop: by when each sync-up was made (the clock of
  /// its `deleted` field, set when it is made), then as it was here (sync-ups that were here
  /// before the sync keep their order).
  private static func orderSyncUpsAsEveryLaptopDoes(_ db: Database) throws {
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
        arguments: [attendee.id.lowercasedString, id, position, attendee.name])
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
}

extension SyncUpsDatabase {
  /// Applies a page of the server's changes in one transaction (`PulledChanges.apply`), with
  /// the audio downloaded for its meetings.
  public func applyPulledPage(_ page: ChangesPage, audioFiles: [UUID: String]) async throws
    -> PulledChanges.Applied
  {
    try await writer.write { [directory] db in
      try PulledChanges.apply(page, audioFiles: audioFiles, directory: directory?.url, db)
    }
  }

  /// The page's meetings whose clock is later than this laptop's, and that have audio: what to
  /// download before the page is applied.
  public func meetingsWithAudioToDownload(_ page: ChangesPage) async throws -> [MeetingDocument] {
    try await writer.read { db in
      try page.meetings.filter { document in
        guard !document.deleted, document.audio != nil else { return false }
        let local =
          try StoredDocuments.clocks(document.id.lowercasedString, db)["meeting"]
          ?? StoredDocuments.zero
        return document.clock > local
      }
    }
  }
}
