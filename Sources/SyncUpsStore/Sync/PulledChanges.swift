import AudioCore
import Foundation
import GRDB
import SyncUpsWire

/// The pull side: one page of the server's changes applied in one transaction, with
/// `syncApplying` set so the triggers leave the outbox alone; last writer wins per field. What
/// breaks the rules every front end saves by was left out first (`KeptPage`).
public enum PulledChanges {
  /// What applying a page changed here.
  public struct Applied: Equatable, Sendable {
    public var syncUps = 0
    public var meetings = 0
    /// Attendees whose learned voice or adaptation changed (or was forgotten) here.
    public var people = 0
    /// Blockers closed by hand elsewhere, new here.
    public var blockers = 0
    /// Audio files (relative to the data directory) of meetings deleted here: to delete once
    /// the transaction has committed.
    public var deletedAudio: [String] = []
    /// Documents left out here because they cannot be kept (why, one line each).
    public var skipped: [String] = []
    /// The segments (0 = a meeting's first) whose speaker, text or words the page changed, in
    /// meetings that were here before: what was learned from them is to learn again.
    public var changedSegments: [UUID: [Int]] = [:]
  }

  /// A page of the server's changes with what breaks the rules every front end saves by left
  /// out, and why each document was (one line each): what `apply` takes, so each pulled
  /// document is checked once, before anything of it is downloaded or applied. What is left
  /// out is passed over (the cursor moves on), and its clocks are never adopted.
  public struct KeptPage: Sendable {
    public let page: ChangesPage
    public let skipped: [String]

    /// Checks each document of `received` by the rules.
    public init(_ received: ChangesPage, now: Date) {
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
      var kept = received
      kept.syncUps = received.syncUps.filter { document in
        passes { () throws(DocumentProblem) in try document.check(now: now) }
      }
      kept.meetings = received.meetings.filter { document in
        passes { () throws(DocumentProblem) in try document.check(now: now) }
      }
      kept.people = received.people.filter { document in
        passes { () throws(DocumentProblem) in try document.check(now: now) }
      }
      kept.blockers = received.blockers.filter { closure in
        passes { () throws(DocumentProblem) in try closure.check() }
      }
      (page, self.skipped) = (kept, skipped)
    }
  }

  /// Applies a checked page and records its version as the sync cursor; `audioFiles` maps a
  /// meeting id to the audio file downloaded for it.
  public static func apply(
    _ checked: KeptPage, audioFiles: [UUID: String], directory: URL?, _ db: Database
  ) throws -> Applied {
    try db.execute(sql: "INSERT INTO syncApplying (active) VALUES (1)")
    var applied = Applied()
    let kept = checked.page
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
    applied.blockers += try applyPulledBlockers(kept, db)
    if applied.syncUps > 0 { try orderSyncUpsAsEveryLaptopDoes(db) }
    try receiveClocks(of: kept, db)
    try SyncState.recordCursor(kept.version, db)
    try WordCounts.catchUp(db)
    try db.execute(sql: "DELETE FROM syncApplying")
    return applied
  }

  /// A field of a sync-up document and its clock.
  typealias StampedField = (field: ClockedField.SyncUpField, clock: HybridClock)

  /// A sync-up, field by field: each field whose clock is later than this one's, written by the
  /// same named writes as a local change (`SyncUpsDatabase.add`, `edit`, `deleteSyncUps`), so
  /// an attendee kept by the edit keeps its row and what was learned of it. A deletion deletes
  /// it here too, unless a meeting recorded here has not reached the server yet (or a
  /// recording runs): then it stays, and that meeting's push brings it back on the server.
  static func applyPulledSyncUp(_ remote: SyncUpDocument, _ applied: inout Applied, _ db: Database)
    throws -> Bool
  {
    let id = remote.id.lowercasedString
    let clocks = try StoredDocuments.clocks(id, db)
    let later = { (stamped: StampedField) in
      stamped.clock > (clocks[.syncUp(stamped.field)] ?? StoredDocuments.zero)
    }
    let fields: [StampedField] =
      [
        (.title, remote.title.clock), (.theme, remote.theme.clock),
        (.duration, remote.duration.clock), (.attendees, remote.attendees.clock),
        (.vocabulary, remote.vocabulary.clock), (.deleted, remote.deleted.clock),
      ] + (remote.wordsForgotten.map { [(.wordsForgotten, $0.clock)] } ?? [])
    let deletedLater = later((.deleted, remote.deleted.clock))
    if let problem = try attendeesElsewhere(remote, db) {
      applied.skipped.append(problem)
      return false
    }
    guard let here = try SyncUpsDatabase.syncUpWithoutMeetings(remote.syncUpID, db) else {
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
      applied.deletedAudio += try SyncUpsDatabase.audioFiles(of: [remote.syncUpID], db)
      try SyncUpsDatabase.deleteSyncUps([remote.syncUpID], db)
      try adoptClocks(of: id, fields.filter(later), db)
      return true
    }
    let newer = Set(fields.filter(later).map(\.field))
    var after = here
    let there = remote.syncUp
    if newer.contains(.title) { after.title = there.title }
    if newer.contains(.theme) { after.theme = there.theme }
    if newer.contains(.duration) { after.duration = there.duration }
    if newer.contains(.attendees) { after.attendees = there.attendees }
    if newer.contains(.vocabulary) { after.vocabulary = there.vocabulary }
    try SyncUpsDatabase.edit(from: here, to: after, db)
    if newer.contains(.wordsForgotten), let forgotten = remote.wordsForgotten {
      try SyncUpsDatabase.setWordsForgotten(remote.syncUpID, at: forgotten.value, db)
    }
    // A deletion kept off (a meeting recorded here) keeps this laptop's clock.
    let adopted = fields.filter { later($0) && !($0.field == .deleted && remote.deleted.value) }
    try adoptClocks(of: id, adopted, db)
    return !newer.subtracting([.deleted]).isEmpty
  }

  private static func adoptClocks(of id: String, _ fields: [StampedField], _ db: Database) throws {
    for stamped in fields {
      try StoredDocuments.setClock(id, .syncUp(stamped.field), stamped.clock, db)
    }
  }

  static func syncUpExists(_ id: String, _ db: Database) throws -> Bool {
    try SyncUpRecord.exists(db, key: id)
  }

  /// Why a sync-up cannot be kept here when one of its attendees is another sync-up's here
  /// (ids are the team's: a document that borrows one would take that attendee, and what
  /// was learned of it, from its sync-up); nil when none is.
  private static func attendeesElsewhere(_ remote: SyncUpDocument, _ db: Database) throws
    -> String?
  {
    let ids = remote.attendees.value.map(\.id.lowercasedString)
    guard !ids.isEmpty else { return nil }
    let taken = try String.fetchOne(
      db,
      sql: """
        SELECT id FROM attendee WHERE syncUpId != ? AND id IN (\(ids.map { _ in "?" }.joined(separator: ", ")))
        """, arguments: StatementArguments([remote.id.lowercasedString] + ids))
    return taken.map {
      "sync-up \(remote.id.lowercasedString) was left out: its attendee \($0) belongs to "
        + "another sync-up here"
    }
  }

  /// A sync-up made elsewhere (or brought back here) as the document has it: after the others
  /// in the list, with its attendees and words, and no tombstone.
  static func insertSyncUp(_ document: SyncUpDocument, _ db: Database) throws {
    try SyncUpsDatabase.add(document.syncUp, db)
    if let forgotten = document.wordsForgotten {
      try SyncUpsDatabase.setWordsForgotten(document.syncUpID, at: forgotten.value, db)
    }
    try db.execute(
      sql: "DELETE FROM syncTombstone WHERE entityId = ?", arguments: [document.id.lowercasedString]
    )
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
    let ordered = try String.fetchAll(
      db,
      sql: """
        SELECT syncUp.id FROM syncUp LEFT JOIN syncClock
          ON syncClock.entityId = syncUp.id AND syncClock.field = \(ClockedField.syncUp(.deleted).sql)
        ORDER BY coalesce(syncClock.clock, ''), syncUp.position, syncUp.rowid
        """)
    try SyncUpsDatabase.moveSyncUps(ordered.map { SyncUp.ID(UUID(stored: $0)) }, db)
  }
}

extension SyncUpDocument {
  var syncUpID: SyncUp.ID { SyncUp.ID(id) }

  /// The sync-up as the document has it (no meetings).
  var syncUp: SyncUp {
    SyncUp(
      id: syncUpID,
      attendees: IdentifiedArray(
        attendees.value.map {
          SyncUpsStore.Attendee(id: SyncUpsStore.Attendee.ID($0.id), name: $0.name)
        },
        uniquingIDsWith: { first, _ in first }),
      duration: .milliseconds(Int64(saturating: (duration.value * 1000).rounded())),
      theme: Theme(rawValue: theme.value) ?? .bubblegum,
      title: title.value,
      vocabulary: vocabulary.value)
  }
}

extension SyncUpsDatabase {
  /// Applies a checked page of the server's changes in one transaction (`PulledChanges.apply`),
  /// with the audio downloaded for its meetings.
  public func applyPulledPage(_ page: PulledChanges.KeptPage, audioFiles: [UUID: String])
    async throws -> PulledChanges.Applied
  {
    try await writer.write { [directory] db in
      try PulledChanges.apply(page, audioFiles: audioFiles, directory: directory?.url, db)
    }
  }

  /// The page's meetings whose clock is later than this laptop's, and that have audio: what to
  /// download before the page is applied.
  public func meetingsWithAudioToDownload(_ page: PulledChanges.KeptPage) async throws
    -> [MeetingDocument]
  {
    try await writer.read { db in
      try page.page.meetings.filter { document in
        guard !document.deleted, document.audio != nil else { return false }
        let local =
          try StoredDocuments.clocks(document.id.lowercasedString, db)[.meeting]
          ?? StoredDocuments.zero
        return document.clock > local
      }
    }
  }
}
