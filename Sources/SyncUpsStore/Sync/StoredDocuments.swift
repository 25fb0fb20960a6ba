import AudioCore
import Foundation
import GRDB
import SyncUpsWire

/// Reading a sync-up or a meeting out of the laptop's database as the documents the server
/// takes, with the clocks the triggers stamped (`SyncSchema`), and writing the clocks back.
public enum StoredDocuments {
  public static let zero = HybridClock(milliseconds: 0, device: "0")

  /// Each field's clock (`syncClock`). One that cannot be read is an error, never the zero
  /// clock: a change stamped zero would lose to every other write, silently.
  public static func clocks(_ id: String, _ db: Database) throws -> [ClockedField: HybridClock] {
    var clocks: [ClockedField: HybridClock] = [:]
    for row in try Row.fetchAll(
      db, sql: "SELECT field, clock FROM syncClock WHERE entityId = ?", arguments: [id])
    {
      let text: String = row["clock"]
      guard let clock = HybridClock(text) else {
        throw UnreadableClock(
          reason: "the clock '\(text.prefix(40))' of \(id)'s \(row["field"] as String) in this "
            + "database cannot be read; nothing was pushed or pulled")
      }
      // A field no version of syncups names is no clock of a document here.
      guard let field = ClockedField(stored: row["field"]) else { continue }
      clocks[field] = clock
    }
    return clocks
  }

  static func setClock(_ id: String, _ field: ClockedField, _ clock: HybridClock, _ db: Database)
    throws
  {
    try db.execute(
      sql: """
        INSERT INTO syncClock (entityId, field, clock) VALUES (?, ?, ?)
        ON CONFLICT (entityId, field) DO UPDATE SET clock = excluded.clock
        """, arguments: [id, field.description, clock.description])
  }

  /// The sync-up as it is, or as it was when it was deleted here (`deleted` true); nil when
  /// this database knows neither.
  public static func syncUp(_ id: String, _ db: Database) throws -> SyncUpDocument? {
    let clocks = try clocks(id, db)
    func clock(_ field: ClockedField.SyncUpField) -> HybridClock { clocks[.syncUp(field)] ?? zero }
    let title: String
    let theme: String
    let milliseconds: Int64
    let attendees: [SyncUpDocument.Attendee]
    let vocabulary: [String]
    let deleted: Bool
    var wordsForgotten: Double?
    if let row = try Row.fetchOne(
      db,
      sql: "SELECT title, theme, durationMilliseconds, wordsForgottenAt FROM syncUp WHERE id = ?",
      arguments: [id])
    {
      (title, theme, milliseconds) = (row["title"], row["theme"], row["durationMilliseconds"])
      wordsForgotten = row["wordsForgottenAt"]
      attendees = try Row.fetchAll(
        db, sql: "SELECT id, name FROM attendee WHERE syncUpId = ? ORDER BY position, rowid",
        arguments: [id]
      ).map { SyncUpDocument.Attendee(id: UUID(stored: $0["id"]), name: $0["name"]) }
      vocabulary = try String.fetchAll(
        db, sql: "SELECT word FROM vocabularyWord WHERE syncUpId = ? ORDER BY rowid",
        arguments: [id])
      deleted = false
    } else if let stone = try tombstone(id, db) {
      let was = try JSONDecoder().decode(DeletedSyncUp.self, from: stone)
      (title, theme, milliseconds) = (was.title, was.theme, was.durationMilliseconds)
      attendees = was.attendees.map { .init(id: UUID(stored: $0.id), name: $0.name) }
      vocabulary = was.vocabulary
      deleted = true
    } else {
      return nil
    }
    return SyncUpDocument(
      id: UUID(stored: id),
      title: Stamped(title, at: clock(.title)),
      theme: Stamped(theme, at: clock(.theme)),
      duration: Stamped(Double(milliseconds) / 1000, at: clock(.duration)),
      attendees: Stamped(attendees, at: clock(.attendees)),
      vocabulary: Stamped(vocabulary, at: clock(.vocabulary)),
      deleted: Stamped(deleted, at: clock(.deleted)),
      wordsForgotten: wordsForgotten.map {
        Stamped(Date(timeIntervalSince1970: $0), at: clock(.wordsForgotten))
      })
  }

  /// A finished meeting with its segments, or one deleted here (`deleted` true); nil for a
  /// recording or a meeting this database does not know. `audio` is its file's hash and size.
  public static func meeting(_ id: String, audio: AudioHash?, _ db: Database) throws
    -> MeetingDocument?
  {
    let clocks = try clocks(id, db)
    let clock = clocks[.meeting] ?? zero
    if let row = try Row.fetchOne(
      db, sql: "SELECT syncUpId, date, length, audioFile, isFinished FROM meeting WHERE id = ?",
      arguments: [id])
    {
      guard row["isFinished"] as Bool else { return nil }
      var segments: [MeetingDocument.Segment] = []
      for segment in try Row.fetchAll(
        db,
        sql: """
          SELECT ordinal, speaker, startTime, endTime, text, words, originalSpeaker,
            originalText, originalWords
          FROM segment WHERE meetingId = ? ORDER BY ordinal
          """, arguments: [id])
      {
        func wire(_ data: Data) throws -> [MeetingDocument.Word] {
          try JSONDecoder().decode([Transcription.Word].self, from: data).map {
            .init(text: $0.word, start: $0.start, end: $0.end, confidence: $0.confidence)
          }
        }
        var original: MeetingDocument.Original?
        if let speaker = segment["originalSpeaker"] as String?,
          let text = segment["originalText"] as String?
        {
          let words = try (segment["originalWords"] as Data?).map(wire) ?? []
          original = MeetingDocument.Original(speaker: speaker, text: text, words: words)
        }
        segments.append(
          MeetingDocument.Segment(
            speaker: segment["speaker"], start: segment["startTime"], end: segment["endTime"],
            text: segment["text"], words: try wire(segment["words"]), original: original,
            // Never corrected: the recognition's clock, below every correction.
            clock: clocks[.segment(ordinal: segment["ordinal"])]
              ?? MeetingDocument.recognitionClock))
      }
      return MeetingDocument(
        id: UUID(stored: id), syncUpID: UUID(stored: row["syncUpId"]),
        date: Date(timeIntervalSince1970: row["date"]), length: row["length"],
        segments: segments,
        audio: audio.map { .init(sha256: $0.sha256, size: $0.size, type: $0.type) },
        clock: clock)
    }
    guard let stone = try tombstone(id, db) else { return nil }
    let was = try JSONDecoder().decode(DeletedMeeting.self, from: stone)
    return MeetingDocument(
      id: UUID(stored: id), syncUpID: UUID(stored: was.syncUpId),
      date: Date(timeIntervalSince1970: was.date), length: was.length, segments: [], audio: nil,
      deleted: true, clock: clock)
  }

  static func tombstone(_ id: String, _ db: Database) throws -> Data? {
    try String.fetchOne(
      db, sql: "SELECT document FROM syncTombstone WHERE entityId = ?", arguments: [id]
    ).map { Data($0.utf8) }
  }

  struct DeletedSyncUp: Decodable {
    struct Attendee: Decodable {
      var id: String
      var name: String
    }
    var title: String
    var theme: String
    var durationMilliseconds: Int64
    var attendees: [Attendee]
    var vocabulary: [String]
  }

  struct DeletedMeeting: Decodable {
    var syncUpId: String
    var date: Double
    var length: Double
  }
}

/// A clock stored in this database that cannot be read: an error, never the zero clock.
public struct UnreadableClock: Error, CustomStringConvertible {
  public var reason: String
  public var description: String { reason }
}

extension UUID {
  /// An id as the database stores it (lower case with dashes).
  init(stored text: String) {
    self = UUID(uuidString: text) ?? UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
  }
}
