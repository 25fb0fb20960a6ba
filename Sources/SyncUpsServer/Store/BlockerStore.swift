import Foundation
import PostgresNIO
import StandupDigest
import SyncUpsWire

/// A blocker as the pages name it: its meeting, the number of the segment it was said in, and
/// a hash of its phrase (16 hex digits), so a correction that changes the phrase makes it
/// another blocker.
struct BlockerKey: Hashable, Sendable {
  var meeting: UUID
  var segment: Int
  var key: String

  init(meeting: UUID, segment: Int, text: String) {
    self.meeting = meeting
    self.segment = segment
    key = BlockerClosure.key(of: text)
  }

  init(meeting: UUID, segment: Int, key: String) {
    self.meeting = meeting
    self.segment = segment
    self.key = key
  }

  /// Whether `text` is a key as `hash` writes it (the rule laptops' closings keep too).
  static func isKey(_ text: String) -> Bool { BlockerClosure.isKey(text) }
}

/// The blockers of a team's meetings: read from their digests (`BlockerLog`, as `syncups
/// blockers` reads them), closed by their owner's words or by hand (`blocker_closed`).
extension TeamStore {
  /// How many meetings the blockers page reads at most: the newest in its window.
  static let blockerMeetings = 200
  /// How many segments those meetings hold at most (the newest meeting always counts): a
  /// window of long meetings costs what a window of short ones does.
  static let blockerSegments = 10_000

  /// A meeting the blockers page reads, with its sync-up.
  struct BlockerMeeting: Sendable {
    var id: UUID
    var date: Date
    var syncUp: UUID
    var title: String
    var team: Int64
    var attendees: [String]
  }

  /// The meetings of `teams` since `since`, oldest first: the newest `limit` of them, fewer
  /// when they hold more than `segments` segments, and whether there were more.
  func blockerMeetings(
    in teams: [Int64], since: Date, limit: Int = blockerMeetings, segments: Int = blockerSegments
  ) async throws -> (meetings: [BlockerMeeting], more: Bool) {
    let rows = try await run(
      """
      SELECT w.id, w.date, s.id, s.title, s.team_id,
        coalesce((SELECT array_agg(a.name ORDER BY a.position) FROM attendee a
          WHERE a.sync_up_id = s.id), '{}'), w.before
      FROM (
        SELECT m.id, m.date, m.sync_up_id,
          sum(m.segment_count) OVER (ORDER BY m.date DESC, m.id DESC) - m.segment_count AS before
        FROM sync_up s JOIN meeting m ON m.sync_up_id = s.id
        WHERE NOT s.deleted AND s.team_id = ANY(\(teams)) AND NOT m.deleted
          AND m.date >= \(since)
        ORDER BY m.date DESC, m.id DESC LIMIT \(limit + 1)) w
      JOIN sync_up s ON s.id = w.sync_up_id
      ORDER BY w.date DESC, w.id DESC
      """, logger: logger)
    var meetings: [BlockerMeeting] = []
    var more = false
    for (id, date, syncUp, title, team, attendees, before) in try rows.decode(
      (UUID, Date, UUID, String, Int64, [String], Int64).self)
    {
      guard meetings.count < limit, meetings.isEmpty || before < Int64(segments) else {
        more = true
        break
      }
      meetings.append(
        BlockerMeeting(
          id: id, date: date, syncUp: syncUp, title: title, team: team, attendees: attendees))
    }
    return (meetings.reversed(), more)
  }

  /// Every blocker of `meetings`, newest raised first (`BlockerLog.entries`, each sync-up's
  /// apart).
  func blockers(of meetings: [BlockerMeeting]) async throws -> [BlockerLog.Entry] {
    let segments = try await digestSegments(of: meetings.map(\.id))
    return BlockerLog.entries(
      meetings.map { meeting in
        BlockerLog.Meeting(
          id: meeting.id.uuidString.lowercased(), syncUp: meeting.syncUp.uuidString.lowercased(),
          date: meeting.date, segments: segments[meeting.id] ?? [], attendees: meeting.attendees)
      })
  }

  /// Who closed by hand which blockers of `meetings`, and when.
  func closedBlockers(of meetings: [UUID]) async throws -> [BlockerKey: (by: String, at: Date)] {
    guard !meetings.isEmpty else { return [:] }
    let rows = try await run(
      """
      SELECT c.meeting_id, c.segment, c.key, coalesce(p.name, ''), c.closed_at
      FROM blocker_closed c LEFT JOIN person p ON p.id = c.closed_by
      WHERE c.meeting_id = ANY(\(meetings))
      """, logger: logger)
    var closed: [BlockerKey: (by: String, at: Date)] = [:]
    for (meeting, segment, key, name, date) in try rows.decode(
      (UUID, Int, String, String, Date).self)
    {
      closed[BlockerKey(meeting: meeting, segment: segment, key: key)] = (name, date)
    }
    return closed
  }

  /// Closes a blocker by hand (closing it again changes nothing). The closing gets a version,
  /// in its turn with pushes, and waiting pulls hear of it: laptops pull it.
  func closeBlocker(_ blocker: BlockerKey, by person: Person) async throws {
    try await client.inTransaction(logger: logger) { connection in
      try await waitForTurn(on: connection)
      if let version = try await insertClosed(blocker, by: person.id, on: connection) {
        try await connection.run(
          "SELECT pg_notify(\(Schema.changesChannel), \(String(version)))", logger: logger)
      }
    }
  }

  /// Keeps a closing with a new version; nil when the blocker was closed already.
  func insertClosed(_ blocker: BlockerKey, by person: Int64, on connection: PostgresConnection)
    async throws -> Int64?
  {
    try await connection.run(
      """
      INSERT INTO blocker_closed (meeting_id, segment, key, closed_by, version)
      VALUES (\(blocker.meeting), \(blocker.segment), \(blocker.key), \(person),
        nextval('change_version'))
      ON CONFLICT DO NOTHING RETURNING version
      """, logger: logger
    ).collect().all(Int64.self).first
  }
}
