import AudioCore
import Dependencies
import Foundation
import GRDB
import Sharing
import SharingGRDB

/// Every sync-up with its attendees and its finished meetings, newest first, as summaries:
/// no transcript, no segments, so memory does not grow with history (read a transcript with
/// `.meetingTranscript(id)`).
///
/// Saving writes each change through the database's named writes (`Writes.swift`), in one
/// transaction: a sync-up added (`add`), removed (`deleteSyncUps`) or edited (`edit`: only the
/// fields that changed; a meeting added to it joins its history, a recording's meeting is
/// finished by `finishRecording`). A change made through `$syncUps[id: id]` (or a reference
/// derived from it, as the detail and the recording have) compares, writes and reads back that
/// sync-up alone.
public struct SyncUpsRequest: DatabaseValueRequest {
  public init() {}

  public func fetch(_ db: Database) throws -> IdentifiedArrayOf<SyncUp> {
    let syncUps = try SyncUpRecord.ordered.fetchAll(db)
    var attendees: [SyncUp.ID: IdentifiedArrayOf<Attendee>] = [:]
    let attendeeRecords = try AttendeeRecord.order(
      AttendeeRecord.Columns.syncUpId, AttendeeRecord.Columns.position
    ).fetchCursor(db)
    while let record = try attendeeRecords.next() {
      attendees[record.syncUpId, default: []].append(record.attendee)
    }
    let vocabularies = try VocabularyWordRecord.all(db)
    var meetings: [SyncUp.ID: IdentifiedArrayOf<Meeting>] = [:]
    let meetingRecords = try MeetingRecord.history.fetchCursor(db)
    while let record = try meetingRecords.next() {
      meetings[record.syncUpId, default: []].append(record.summary)
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
    IdentifiedArray(uniqueElements: value.map(Self.stored))
  }

  /// A sync-up as reading it back gives it: meetings as summaries, newest first.
  static func stored(_ syncUp: SyncUp) -> SyncUp {
    var syncUp = syncUp
    syncUp.duration = .milliseconds(syncUp.duration.wholeMilliseconds)
    syncUp.meetings = IdentifiedArray(
      uniqueElements: syncUp.meetings.map {
        Meeting(id: $0.id, date: $0.date, transcript: "", audioFile: $0.audioFile)
      }
      .sorted { $0.date > $1.date })
    return syncUp
  }

  public func save(
    from old: IdentifiedArrayOf<SyncUp>, to new: IdentifiedArrayOf<SyncUp>,
    changed: Set<AnyHashable>?, in db: Database
  ) throws {
    for id in Self.ids(changed, old, new) {
      switch (old[id: id], new[id: id]) {
      case (nil, let added?): try SyncUpsDatabase.add(added, db)
      case (_?, nil): try SyncUpsDatabase.deleteSyncUps([id], db)
      case (let before?, let after?) where before != after:
        try SyncUpsDatabase.edit(from: before, to: after, db)
      default: break
      }
    }
    try WordCounts.catchUp(db)
  }

  public func fetch(
    afterSaving saved: IdentifiedArrayOf<SyncUp>, changed: Set<AnyHashable>?, _ db: Database
  ) throws -> IdentifiedArrayOf<SyncUp> {
    guard changed != nil else { return try fetch(db) }
    var value = stored(saved)
    for id in Self.ids(changed, [], []) {
      value[id: id] = try SyncUpRequest(syncUpID: id).fetch(db)
    }
    return value
  }

  /// The sync-ups a save looks at: those changed, else every one (the old order, then what
  /// was added).
  private static func ids(
    _ changed: Set<AnyHashable>?, _ old: IdentifiedArrayOf<SyncUp>, _ new: IdentifiedArrayOf<SyncUp>
  ) -> [SyncUp.ID] {
    guard let changed else { return Array(old.ids.union(new.ids)) }
    return changed.compactMap { $0.base as? SyncUp.ID }
  }
}

/// Every sync-up with its title, duration and theme only (no attendees, no meetings), in the
/// list's order: what resolving a sync-up's name reads.
public struct SyncUpTitlesRequest: FetchKeyRequest {
  public init() {}

  public func fetch(_ db: Database) throws -> [SyncUp] {
    try SyncUpRecord.ordered.fetchAll(db).map { $0.syncUp() }
  }
}

/// One sync-up with its attendees and meeting summaries (what `show` prints); nil when absent.
public struct SyncUpRequest: FetchKeyRequest {
  public var syncUpID: SyncUp.ID
  public init(syncUpID: SyncUp.ID) { self.syncUpID = syncUpID }

  public func fetch(_ db: Database) throws -> SyncUp? {
    guard let record = try SyncUpRecord.fetchOne(db, id: syncUpID) else { return nil }
    var syncUp = record.syncUp()
    syncUp.attendees = IdentifiedArray(
      uniqueElements: try AttendeeRecord.filter(AttendeeRecord.Columns.syncUpId == syncUpID)
        .order(AttendeeRecord.Columns.position).fetchAll(db).map(\.attendee))
    syncUp.vocabulary = try VocabularyWordRecord.words(of: syncUpID, db)
    syncUp.meetings = IdentifiedArray(
      uniqueElements: try MeetingRecord.history.filter(MeetingRecord.Columns.syncUpId == syncUpID)
        .fetchAll(db).map(\.summary))
    return syncUp
  }
}

/// One meeting with its whole transcript (segments with word times), read when it is shown;
/// nil when there is no such meeting.
public struct MeetingTranscriptRequest: FetchKeyRequest {
  public var meetingID: Meeting.ID
  public init(meetingID: Meeting.ID) { self.meetingID = meetingID }

  public func fetch(_ db: Database) throws -> Meeting? {
    guard let record = try MeetingRecord.fetchOne(db, id: meetingID) else { return nil }
    let segments = try SegmentRecord.of(meetingID).fetchAll(db)
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
      arguments: [syncUpID, limit ?? -1]
    ).map { row in
      let id: Meeting.ID = row["id"]
      let audioFile: String? = row["audioFile"]
      return MeetingSummary(
        id: id,
        date: Date(timeIntervalSince1970: row["date"]),
        length: row["length"],
        segmentCount: row["segmentCount"],
        opening: row["opening"] ?? "",
        audioFile: audioFile.map { _ in DataDirectory.audioFile(of: id) }
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
