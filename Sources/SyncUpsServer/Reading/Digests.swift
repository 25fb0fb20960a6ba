import Foundation
import PostgresNIO
import StandupDigest
import SyncUpsWire

/// The one place the server makes a meeting's digest (the API's `GET /api/v1/meetings/ID/digest`,
/// the meeting's page, the blockers page): from the meeting's segments as stored now, so a
/// correction shows at once, and its sync-up's attendees.
extension StandupDigest.Digest {
  /// The digest of `segments` (in order; numbered from 1, as `syncups transcript --numbers`
  /// prints them).
  init(_ segments: [MeetingDocument.Segment], attendees: [String]) {
    self.init(segments: DigestSegment.numbered(segments), attendees: attendees)
  }
}

extension DigestSegment {
  /// `segments` as the digest reads them: numbered from 1 in their order.
  static func numbered(_ segments: [MeetingDocument.Segment]) -> [DigestSegment] {
    segments.enumerated().map { index, segment in
      DigestSegment(
        number: index + 1, speaker: segment.speaker, start: segment.start, text: segment.text)
    }
  }
}

extension TeamStore {
  /// A meeting's digest as stored now: its segments' speakers, times and text only (not their
  /// words), its sync-up's attendees.
  func digest(of meeting: UUID, syncUp: UUID) async throws -> StandupDigest.Digest {
    try await meetingDigest(meeting, syncUp: syncUp).digest
  }

  /// The digest of meeting `id` with what a chat post says beside it; nil when there is no
  /// such meeting, or it is deleted.
  func meetingDigest(_ id: UUID) async throws -> MeetingDigest? {
    guard let (meeting, _) = try await meetingRow(id), !meeting.deleted else { return nil }
    return try await meetingDigest(id, syncUp: meeting.syncUpID, date: meeting.date)
  }

  private func meetingDigest(_ id: UUID, syncUp: UUID, date: Date = .distantPast) async throws
    -> MeetingDigest
  {
    let segments = try await digestSegments(of: [id])[id] ?? []
    let attendees = try await attendeeNames(of: syncUp)
    return MeetingDigest(
      syncUpID: syncUp, date: date, speakers: segments.map(\.speaker), attendees: attendees,
      digest: StandupDigest.Digest(segments: segments, attendees: attendees))
  }

  /// The segments of `meetings` as the digest reads them (speaker, start, text), numbered from
  /// 1 in each meeting's order; at most `Digest.maximumSegments` of each.
  func digestSegments(of meetings: [UUID]) async throws -> [UUID: [DigestSegment]] {
    guard !meetings.isEmpty else { return [:] }
    let rows = try await run(
      """
      SELECT meeting_id, speaker, start_time, text FROM (
        SELECT meeting_id, speaker, start_time, text,
          row_number() OVER (PARTITION BY meeting_id ORDER BY ordinal) AS n
        FROM segment WHERE meeting_id = ANY(\(meetings))) s
      WHERE n <= \(StandupDigest.Digest.maximumSegments)
      ORDER BY meeting_id, n
      """, logger: logger)
    var segments: [UUID: [DigestSegment]] = [:]
    for (id, speaker, start, text) in try rows.decode((UUID, String, Double, String).self) {
      let number = (segments[id]?.count ?? 0) + 1
      segments[id, default: []].append(
        DigestSegment(number: number, speaker: speaker, start: start, text: text))
    }
    return segments
  }

  /// A sync-up's attendees' names, in its order.
  func attendeeNames(of syncUpID: UUID) async throws -> [String] {
    let rows = try await run(
      "SELECT name FROM attendee WHERE sync_up_id = \(syncUpID) ORDER BY position",
      logger: logger)
    return try rows.all(String.self)
  }
}

/// A meeting's digest, with its sync-up, its date, who spoke (in order) and the sync-up's
/// attendees: what the team's chat post shows.
struct MeetingDigest: Sendable {
  var syncUpID: UUID
  var date: Date
  var speakers: [String]
  var attendees: [String]
  var digest: StandupDigest.Digest
}
