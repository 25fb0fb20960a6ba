import Foundation
import GRDB
import SharingGRDB

/// What is known of one attendee (`show`).
public struct PersonLearned: Equatable, Sendable {
  public var voice: VoiceSummary?
  /// Seconds of speech their acoustic adaptation was estimated from.
  public var adaptationSeconds: Double?
  /// Whether that adaptation is used: false when it made their held-out sentences no better
  /// (`SpeakerAdaptation.isUsed`).
  public var adaptationUsed = false
  /// When what was learned of them was last forgotten.
  public var forgotten: Date?

  public init(
    voice: VoiceSummary? = nil, adaptationSeconds: Double? = nil, adaptationUsed: Bool = false,
    forgotten: Date? = nil
  ) {
    self.voice = voice
    self.adaptationSeconds = adaptationSeconds
    self.adaptationUsed = adaptationUsed
    self.forgotten = forgotten
  }
}

/// What a sync-up's language model can learn from: the words of its meetings since its words
/// were last forgotten, those of corrected segments apart.
public struct WordsLearned: Equatable, Sendable {
  public var corrected = 0
  public var uncorrected = 0
  /// Distinct words among them (in any case).
  public var vocabulary = 0
  public var forgotten: Date?

  public init(corrected: Int = 0, uncorrected: Int = 0, vocabulary: Int = 0, forgotten: Date? = nil)
  {
    self.corrected = corrected
    self.uncorrected = uncorrected
    self.vocabulary = vocabulary
    self.forgotten = forgotten
  }
}

/// What is known of a sync-up's people and words (`show`).
public struct Learned: Equatable, Sendable {
  public var people: [Attendee.ID: PersonLearned]
  public var words: WordsLearned
  /// The team's acoustic adaptation, used or not; nil when none was tried.
  public var team: SpeakerAdaptation?
}

/// Forgetting what was learned (`syncups forget`), synced: the voice profile and adaptation go,
/// and the instant stays, so every laptop forgets too and no older push brings them back. The
/// instant is kept in whole seconds, as the documents carry it, so every laptop has the same.
extension SyncUpsDatabase {
  /// Forgets what was learned of one attendee.
  public func forgetLearned(attendee: Attendee.ID, at date: Date = Date()) throws {
    let date = Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down))
    try writable()
    try write { db in try Self.forget(attendee: attendee.rawValue.lowercasedString, at: date, db) }
  }

  /// Forgets what was learned of every attendee of a sync-up, and its words: its language model
  /// learns only from meetings after `date`.
  public func forgetLearned(syncUp: SyncUp.ID, at date: Date = Date()) throws {
    let date = Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down))
    try writable()
    try write { db in
      for attendee in try String.fetchAll(
        db, sql: "SELECT id FROM attendee WHERE syncUpId = ?", arguments: [syncUp])
      {
        try Self.forget(attendee: attendee, at: date, db)
      }
      try Self.setWordsForgotten(syncUp, at: date, db)
    }
  }

  /// The sync-up's language model learns only from meetings after `date` (a forgetting, here
  /// or pulled).
  static func setWordsForgotten(_ syncUpID: SyncUp.ID, at date: Date, _ db: Database) throws {
    _ = try SyncUpRecord.filter(id: syncUpID)
      .updateAll(db, Column("wordsForgottenAt").set(to: date.timeIntervalSince1970))
  }

  private static func forget(attendee: String, at date: Date, _ db: Database) throws {
    try db.execute(sql: "DELETE FROM voiceProfile WHERE attendeeId = ?", arguments: [attendee])
    try db.execute(
      sql: "DELETE FROM speakerAdaptation WHERE attendeeId = ?", arguments: [attendee])
    try db.execute(
      sql: """
        INSERT INTO attendeeForgotten (attendeeId, forgottenAt) VALUES (?, ?)
        ON CONFLICT (attendeeId) DO UPDATE SET forgottenAt = excluded.forgottenAt
        """, arguments: [attendee, date.timeIntervalSince1970])
  }

  /// True while a meeting of the sync-up is being recorded (here or by another process): what it
  /// hears would teach the voices again, so `forget` waits for it to end.
  public func isBeingRecorded(_ syncUpID: SyncUp.ID) throws -> Bool {
    try read { db in
      try MeetingRecord.filter(MeetingRecord.Columns.isFinished == false)
        .filter(MeetingRecord.Columns.syncUpId == syncUpID).fetchAll(db)
        .contains { locks.isActive($0.id) }
    }
  }

  /// The instant after which a sync-up's words may be learned (meetings that began before it
  /// are not); nil when they were never forgotten.
  public func wordsLearnedSince(_ syncUpID: SyncUp.ID) throws -> Date? {
    try read { db in try Self.wordsForgotten(syncUpID, db) }
  }

  static func wordsForgotten(_ syncUpID: SyncUp.ID, _ db: Database) throws -> Date? {
    try Double.fetchOne(
      db, sql: "SELECT wordsForgottenAt FROM syncUp WHERE id = ?", arguments: [syncUpID]
    ).map(Date.init(timeIntervalSince1970:))
  }

  /// What is known of a sync-up's people and words.
  public func learned(_ syncUpID: SyncUp.ID) throws -> Learned {
    try read { db in try Self.learned(syncUpID, db) }
  }

  static func learned(_ syncUpID: SyncUp.ID, _ db: Database) throws -> Learned {
    var people: [Attendee.ID: PersonLearned] = [:]
    for (id, voice) in try voiceSummaries(syncUpID, db) {
      people[id, default: .init()].voice = voice
    }
    for row in try Row.fetchAll(
      db,
      sql: """
        SELECT attendee.id, speakerAdaptation.seconds, attendeeForgotten.forgottenAt,
          length(speakerAdaptation.transform) > 0 AS used
        FROM attendee
        LEFT JOIN speakerAdaptation ON speakerAdaptation.attendeeId = attendee.id
        LEFT JOIN attendeeForgotten ON attendeeForgotten.attendeeId = attendee.id
        WHERE attendee.syncUpId = ?
          AND (speakerAdaptation.seconds IS NOT NULL OR attendeeForgotten.forgottenAt IS NOT NULL)
        """, arguments: [syncUpID])
    {
      let id: Attendee.ID = row["id"]
      people[id, default: .init()].adaptationSeconds = row["seconds"]
      people[id, default: .init()].adaptationUsed = row["used"] ?? false
      people[id, default: .init()].forgotten =
        (row["forgottenAt"] as Double?).map(Date.init(timeIntervalSince1970:))
    }
    let words = try WordCounts.learned(syncUpID, db)
    return Learned(people: people, words: words, team: try teamAdaptation(syncUpID, db))
  }
}

/// What is known of a sync-up's people and words (`show`).
public struct LearnedRequest: FetchKeyRequest {
  public var syncUpID: SyncUp.ID
  public init(syncUpID: SyncUp.ID) { self.syncUpID = syncUpID }

  public func fetch(_ db: Database) throws -> Learned {
    try SyncUpsDatabase.learned(syncUpID, db)
  }
}
