import Foundation
import GRDB
import SyncUpsWire

/// A blocker closed by hand (`syncups blockers close`, or on the team server's blockers
/// page): its meeting, the number of the segment it was said in (1 = the first) and a hash of
/// its phrase (`BlockerClosure.key`), who closed it when the server named them, and when.
public struct ClosedBlocker: Equatable, Hashable, Sendable {
  public var meetingID: Meeting.ID
  public var segment: Int
  public var key: String
  /// Who closed it, as the team server names them; nil when closed on this laptop.
  public var closedBy: String?
  public var closedAt: Date

  public init(
    meetingID: Meeting.ID, segment: Int, key: String, closedBy: String? = nil, closedAt: Date
  ) {
    self.meetingID = meetingID
    self.segment = segment
    self.key = key
    self.closedBy = closedBy
    self.closedAt = closedAt
  }
}

/// What closing a blocker did.
public enum BlockerClosing: Equatable, Sendable {
  case closed
  /// It was closed before (here or on the team server): nothing changed.
  case alreadyClosed
  /// The meeting was deleted meanwhile, or is still being recorded.
  case noSuchMeeting
}

/// The blockers closed by hand of some meetings (all of them: nil).
public struct ClosedBlockersRequest: FetchKeyRequest {
  public var meetingIDs: Set<Meeting.ID>?
  public init(meetingIDs: Set<Meeting.ID>? = nil) { self.meetingIDs = meetingIDs }

  public func fetch(_ db: Database) throws -> [ClosedBlocker] {
    let select = "SELECT meetingId, segment, key, closedBy, closedAt FROM blockerClosed"
    guard let meetingIDs else { return try Row.fetchAll(db, sql: select).map(Self.closed) }
    // In slices, under SQLite's limit of bound values.
    let ids = meetingIDs.map(\.rawValue.lowercasedString).sorted()
    var closed: [ClosedBlocker] = []
    for start in stride(from: 0, to: ids.count, by: 500) {
      let slice = Array(ids[start..<min(start + 500, ids.count)])
      let marks = slice.map { _ in "?" }.joined(separator: ",")
      closed += try Row.fetchAll(
        db, sql: select + " WHERE meetingId IN (\(marks))", arguments: StatementArguments(slice)
      ).map(Self.closed)
    }
    return closed
  }

  static func closed(_ row: Row) -> ClosedBlocker {
    ClosedBlocker(
      meetingID: Meeting.ID(UUID(stored: row["meetingId"])), segment: row["segment"],
      key: row["key"], closedBy: row["closedBy"],
      closedAt: Date(timeIntervalSince1970: row["closedAt"]))
  }
}

extension SyncUpsDatabase {
  /// Closes a blocker of a finished meeting by hand, to be pushed to the team server; closing
  /// it again changes nothing. The caller names a blocker the meeting's digest has.
  public func closeBlocker(
    _ meetingID: Meeting.ID, segment: Int, key: String, at date: Date
  ) throws -> BlockerClosing {
    try writable()
    let closure = BlockerClosure(
      meetingID: meetingID.rawValue, segment: segment, key: key, closedAt: date)
    try closure.check()
    return try write { db in
      let id = meetingID.rawValue.lowercasedString
      guard
        try Bool.fetchOne(
          db, sql: "SELECT isFinished FROM meeting WHERE id = ?", arguments: [id]) == true
      else { return .noSuchMeeting }
      try db.execute(
        sql: """
          INSERT INTO blockerClosed (meetingId, segment, key, closedAt, pushed)
          VALUES (?, ?, ?, ?, 0) ON CONFLICT DO NOTHING
          """, arguments: [id, segment, key, date.timeIntervalSince1970])
      return db.changesCount > 0 ? .closed : .alreadyClosed
    }
  }
}

/// The laptop's table of blockers closed by hand (v16). `pushed` is false until the team
/// server has the closing (pulled ones have it). A closing is gone with its meeting (the
/// trigger), whether the meeting is deleted here or by a pull; one pulled before its meeting
/// waits for it, and one of a meeting deleted by a pull is dropped with the pull.
enum ClosedBlockersSchema {
  static func migrate(_ db: Database) throws {
    try db.execute(
      sql: """
        CREATE TABLE blockerClosed (
          meetingId TEXT NOT NULL,
          segment INTEGER NOT NULL,
          key TEXT NOT NULL,
          closedBy TEXT,
          closedAt DOUBLE NOT NULL,
          pushed BOOLEAN NOT NULL DEFAULT 0,
          PRIMARY KEY (meetingId, segment, key)
        );
        CREATE INDEX blockerClosed_unpushed ON blockerClosed(pushed) WHERE NOT pushed;
        CREATE TRIGGER blockerClosed_meeting_delete AFTER DELETE ON meeting BEGIN
          DELETE FROM blockerClosed WHERE meetingId = old.id;
        END;
        """)
  }
}

/// What the team's blockers are read from, in one read: the finished meetings since a day (of
/// every sync-up, oldest first, each with its sync-up) and the blockers closed by hand of them.
public struct BlockerSources: Equatable, Sendable {
  public struct Source: Equatable, Sendable {
    public var syncUp: SyncUp
    public var meeting: Meeting
  }

  public var meetings: [Source]
  public var closings: [ClosedBlocker]
}

/// The finished meetings from `since` on (only those whose id begins with `meetingPrefix`,
/// lowercase hex, when it is given), with their transcripts, and their closings.
public struct BlockerSourcesRequest: FetchKeyRequest {
  public var since: Date
  public var meetingPrefix: String?

  public init(since: Date, meetingPrefix: String? = nil) {
    self.since = since
    self.meetingPrefix = meetingPrefix
  }

  public func fetch(_ db: Database) throws -> BlockerSources {
    var sources: [BlockerSources.Source] = []
    for syncUp in try SyncUpsRequest().fetch(db) {
      for summary in syncUp.meetings where summary.date >= since {
        if let meetingPrefix,
          !summary.id.rawValue.lowercasedString.hasPrefix(meetingPrefix)
        {
          continue
        }
        guard let meeting = try MeetingTranscriptRequest(meetingID: summary.id).fetch(db) else {
          continue
        }
        sources.append(BlockerSources.Source(syncUp: syncUp, meeting: meeting))
      }
    }
    sources.sort { $0.meeting.date < $1.meeting.date }
    let closings = try ClosedBlockersRequest(meetingIDs: Set(sources.map(\.meeting.id))).fetch(db)
    return BlockerSources(meetings: sources, closings: closings)
  }
}

extension SyncUpsDatabase {
  /// `BlockerSourcesRequest`'s result, read now.
  public func blockerSources(since: Date, meetingPrefix: String? = nil) throws -> BlockerSources {
    try read { db in try BlockerSourcesRequest(since: since, meetingPrefix: meetingPrefix).fetch(db)
    }
  }
}
