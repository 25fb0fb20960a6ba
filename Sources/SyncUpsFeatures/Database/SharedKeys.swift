import Dependencies
import Foundation
import GRDB
import SharingGRDB

/// Every sync-up with its attendees and its finished meetings, newest first, as summaries:
/// no transcript, no segments, so memory does not grow with history (read a transcript with
/// `.meetingTranscript(id)`).
///
/// Saving writes only what differs from the value last loaded or saved, in one transaction:
/// sync-ups added, removed or edited (attendees and vocabulary are rewritten for an edited
/// sync-up only when they changed);
/// meetings added (with their segments), removed, or edited. A meeting's segments are written
/// when it is added, or replaced when a save brings a non-empty, different list; a summary's
/// empty segments never delete anything.
public struct SyncUpsRequest: DatabaseValueRequest {
  public init() {}

  public func fetch(_ db: Database) throws -> IdentifiedArrayOf<SyncUp> {
    let syncUps = try SyncUpRecord.fetchAll(
      db, sql: "SELECT * FROM syncUp ORDER BY position, rowid")
    var attendees: [String: IdentifiedArrayOf<Attendee>] = [:]
    for record in try AttendeeRecord.fetchAll(
      db, sql: "SELECT * FROM attendee ORDER BY syncUpId, position")
    {
      attendees[record.syncUpId, default: []].append(record.attendee)
    }
    let vocabularies = try VocabularyWordRecord.all(db)
    var meetings: [String: IdentifiedArrayOf<Meeting>] = [:]
    let meetingRows = try Row.fetchCursor(
      db,
      sql: """
        SELECT id, syncUpId, date, audioFile FROM meeting WHERE isFinished = 1
        ORDER BY syncUpId, date DESC, rowid DESC
        """)
    while let row = try meetingRows.next() {
      let meeting = Meeting(
        id: Meeting.ID(UUID(databaseString: row["id"])),
        date: Date(timeIntervalSince1970: row["date"]),
        transcript: "",
        audioFile: row["audioFile"]
      )
      meetings[row["syncUpId"], default: []].append(meeting)
    }
    return IdentifiedArray(
      uniqueElements: syncUps.map { record in
        var syncUp = record.syncUp()
        syncUp.attendees = attendees[record.id] ?? []
        syncUp.vocabulary = vocabularies[record.id] ?? []
        syncUp.meetings = meetings[record.id] ?? []
        return syncUp
      })
  }

  public func stored(_ value: IdentifiedArrayOf<SyncUp>) -> IdentifiedArrayOf<SyncUp> {
    IdentifiedArray(
      uniqueElements: value.map { syncUp in
        var syncUp = syncUp
        syncUp.duration = .milliseconds(Int64((syncUp.duration.seconds * 1000).rounded()))
        syncUp.meetings = IdentifiedArray(
          uniqueElements: syncUp.meetings.map {
            Meeting(id: $0.id, date: $0.date, transcript: "", audioFile: $0.audioFile)
          }
          .sorted { $0.date > $1.date })
        return syncUp
      })
  }

  public func save(
    from old: IdentifiedArrayOf<SyncUp>, to new: IdentifiedArrayOf<SyncUp>, in db: Database
  ) throws {
    for removed in old.ids.subtracting(new.ids) {
      _ = try SyncUpRecord.deleteOne(db, key: removed.rawValue.lowercasedString)
    }
    let reordered = old.ids.filter(new.ids.contains) != new.ids.filter(old.ids.contains)
    var nextPosition =
      try Int.fetchOne(db, sql: "SELECT coalesce(max(position) + 1, 0) FROM syncUp") ?? 0
    for (index, syncUp) in new.enumerated() {
      let before = old[id: syncUp.id]
      guard before != syncUp || reordered else { continue }
      // A reorder renumbers everyone; an addition goes after what is stored; an edit keeps
      // its place.
      var position: Int?
      if reordered {
        position = index
      } else if before == nil {
        position = nextPosition
        nextPosition += 1
      }
      try Self.saveSyncUp(syncUp, before: before, position: position, db)
    }
  }

  /// Writes one sync-up that differs from `before`; `position` nil keeps its stored place.
  static func saveSyncUp(_ syncUp: SyncUp, before: SyncUp?, position: Int?, _ db: Database) throws {
    let id = syncUp.id.rawValue.lowercasedString
    let stored = try SyncUpRecord.fetchOne(db, key: id)
    // Deleted by another process since we read it: the deletion stands (reading the value
    // back removes it here too). `delete` refuses while the sync-up is being recorded.
    if stored == nil, before != nil { return }
    let record = SyncUpRecord(syncUp, position: position ?? stored?.position ?? 0)
    if let stored, let before {
      // Only the columns this change touched: another process may have changed the others.
      let old = SyncUpRecord(before, position: stored.position)
      var columns: [String: (any DatabaseValueConvertible)?] = [:]
      if old.title != record.title { columns["title"] = record.title }
      if old.durationMilliseconds != record.durationMilliseconds {
        columns["durationMilliseconds"] = record.durationMilliseconds
      }
      if old.theme != record.theme { columns["theme"] = record.theme }
      if stored.position != record.position { columns["position"] = record.position }
      try update("syncUp", id: id, columns, db)
    } else {
      try record.upsert(db)
    }
    if before?.attendees != syncUp.attendees {
      if stored != nil {
        try db.execute(sql: "DELETE FROM attendee WHERE syncUpId = ?", arguments: [id])
      }
      for (position, attendee) in syncUp.attendees.enumerated() {
        try AttendeeRecord(attendee, syncUpID: syncUp.id, position: position).insert(db)
      }
    }
    if (before?.vocabulary ?? []) != syncUp.vocabulary {
      try VocabularyWordRecord.replace(syncUp.vocabulary, of: syncUp.id, db)
    }
    let oldMeetings = before?.meetings ?? []
    for removed in oldMeetings.ids.subtracting(syncUp.meetings.ids) {
      _ = try MeetingRecord.deleteOne(db, key: removed.rawValue.lowercasedString)
    }
    for meeting in syncUp.meetings where oldMeetings[id: meeting.id] != meeting {
      try saveMeeting(meeting, before: oldMeetings[id: meeting.id], syncUpID: syncUp.id, db)
    }
  }

  static func saveMeeting(
    _ meeting: Meeting, before: Meeting?, syncUpID: SyncUp.ID, _ db: Database
  ) throws {
    let id = meeting.id.rawValue.lowercasedString
    let writesSegments =
      before == nil || (!meeting.segments.isEmpty && before?.segments != meeting.segments)
    let record = MeetingRecord(meeting, syncUpID: syncUpID, isFinished: true)
    let stored = try MeetingRecord.fetchOne(db, key: id)
    if stored != nil {
      // Only what changed; what a summary does not carry (segments, transcript) is kept.
      var columns: [String: (any DatabaseValueConvertible)?] = [:]
      // A recording's row names its audio from the start; the meeting saved says what was kept.
      if before?.audioFile != meeting.audioFile || stored?.isFinished == false {
        columns.updateValue(meeting.audioFile, forKey: "audioFile")  // nil too: NULL
      }
      if writesSegments {
        columns["length"] = record.length
        columns["transcript"] = record.transcript
      } else if !meeting.transcript.isEmpty, before?.transcript != meeting.transcript {
        columns["transcript"] = meeting.transcript
      }
      // A recording's meeting (committed segment by segment) saved through the list: the list
      // holds finished meetings only, so saving it there finishes it.
      if stored?.isFinished == false { columns["isFinished"] = true }
      try update("meeting", id: id, columns, db)
    } else {
      try record.insert(db)
    }
    guard writesSegments else { return }
    if stored != nil {
      let existing = try SegmentRecord.fetchAll(
        db, sql: "SELECT * FROM segment WHERE meetingId = ? ORDER BY ordinal", arguments: [id])
      if try existing.map({ try $0.segment() }) == meeting.segments { return }
      try db.execute(sql: "DELETE FROM segment WHERE meetingId = ?", arguments: [id])
    }
    for (ordinal, segment) in meeting.segments.enumerated() {
      try SegmentRecord(segment, meetingID: meeting.id, ordinal: ordinal).insert(db)
    }
  }
}

/// `UPDATE table SET column = value, ... WHERE id = ?` for the given columns, if any.
private func update(
  _ table: String, id: String, _ columns: [String: (any DatabaseValueConvertible)?], _ db: Database
) throws {
  guard !columns.isEmpty else { return }
  let names = columns.keys.sorted()
  let assignments = names.map { "\($0) = ?" }.joined(separator: ", ")
  var arguments = StatementArguments(names.map { columns[$0]! })
  arguments += [id]
  try db.execute(sql: "UPDATE \(table) SET \(assignments) WHERE id = ?", arguments: arguments)
}

/// One sync-up with its attendees and meeting summaries (what `show` prints); nil when absent.
public struct SyncUpRequest: FetchKeyRequest {
  public var syncUpID: SyncUp.ID
  public init(syncUpID: SyncUp.ID) { self.syncUpID = syncUpID }

  public func fetch(_ db: Database) throws -> SyncUp? {
    let id = syncUpID.rawValue.lowercasedString
    guard let record = try SyncUpRecord.fetchOne(db, key: id) else { return nil }
    var syncUp = record.syncUp()
    syncUp.attendees = IdentifiedArray(
      uniqueElements: try AttendeeRecord.fetchAll(
        db, sql: "SELECT * FROM attendee WHERE syncUpId = ? ORDER BY position", arguments: [id]
      ).map(\.attendee))
    syncUp.vocabulary = try VocabularyWordRecord.words(of: id, db)
    syncUp.meetings = IdentifiedArray(
      uniqueElements: try MeetingRecord.fetchAll(
        db,
        sql:
          """
          SELECT * FROM meeting WHERE syncUpId = ? AND isFinished = 1
          ORDER BY date DESC, rowid DESC
          """,
        arguments: [id]
      ).map(\.summary))
    return syncUp
  }
}

/// One meeting with its whole transcript (segments with word times), read when it is shown;
/// nil when there is no such meeting.
public struct MeetingTranscriptRequest: FetchKeyRequest {
  public var meetingID: Meeting.ID
  public init(meetingID: Meeting.ID) { self.meetingID = meetingID }

  public func fetch(_ db: Database) throws -> Meeting? {
    let id = meetingID.rawValue.lowercasedString
    guard let record = try MeetingRecord.fetchOne(db, key: id) else { return nil }
    let segments = try SegmentRecord.fetchAll(
      db, sql: "SELECT * FROM segment WHERE meetingId = ? ORDER BY ordinal", arguments: [id])
    return record.meeting(segments: try segments.map { try $0.segment() })
  }
}

/// What the list of a sync-up's meetings shows, without loading transcripts.
public struct MeetingSummary: Equatable, Sendable, Identifiable {
  public var id: Meeting.ID
  public var date: Date
  /// Seconds from the start to the end of the last segment.
  public var length: Double
  public var segmentCount: Int
  /// The start of the transcript, for showing its first words: the first nine segments (each
  /// has a word at least, so nine words), or an imported transcript's first thousand characters.
  public var opening: String
  static let openingSegments = 9
  public var audioFile: String?
}

/// A sync-up's finished meetings, newest first, as summaries.
public struct MeetingSummariesRequest: FetchKeyRequest {
  public var syncUpID: SyncUp.ID
  /// The newest this many only; nil: all.
  public var limit: Int?
  public init(syncUpID: SyncUp.ID, limit: Int? = nil) {
    self.syncUpID = syncUpID
    self.limit = limit
  }

  public func fetch(_ db: Database) throws -> [MeetingSummary] {
    try Row.fetchAll(
      db,
      sql: """
        SELECT id, date, length, audioFile, segmentCount,
          coalesce(substr(transcript, 1, 1000),
            (SELECT group_concat(text, ' ') FROM (
              SELECT text FROM segment WHERE meetingId = meeting.id ORDER BY ordinal
              LIMIT \(MeetingSummary.openingSegments))))
            AS opening
        FROM meeting WHERE syncUpId = ? AND isFinished = 1 ORDER BY date DESC, rowid DESC
        LIMIT ?
        """,
      arguments: [syncUpID.rawValue.lowercasedString, limit ?? -1]
    ).map { row in
      MeetingSummary(
        id: Meeting.ID(UUID(databaseString: row["id"])),
        date: Date(timeIntervalSince1970: row["date"]),
        length: row["length"],
        segmentCount: row["segmentCount"],
        opening: row["opening"] ?? "",
        audioFile: row["audioFile"]
      )
    }
  }
}

extension SharedReaderKey where Self == DatabaseKey<SyncUpsRequest>.Default {
  /// All sync-ups in the `syncUpsDatabase` dependency's database, with meeting summaries.
  public static var syncUps: Self {
    @Dependency(\.syncUpsDatabase) var database
    return Self[.database(SyncUpsRequest(), database: database.writer), default: []]
  }
}

extension SharedReaderKey where Self == FetchKey<MeetingTranscriptRequest>.Default {
  /// One meeting with its transcript, nil when there is no such meeting.
  public static func meetingTranscript(_ id: Meeting.ID) -> Self {
    @Dependency(\.syncUpsDatabase) var database
    return Self[
      .fetch(MeetingTranscriptRequest(meetingID: id), database: database.writer), default: nil]
  }
}

extension SharedReaderKey where Self == FetchKey<MeetingSummariesRequest>.Default {
  /// A sync-up's meetings, newest first, with segment counts and first words.
  public static func meetingSummaries(_ id: SyncUp.ID) -> Self {
    @Dependency(\.syncUpsDatabase) var database
    return Self[
      .fetch(MeetingSummariesRequest(syncUpID: id), database: database.writer), default: []]
  }
}
