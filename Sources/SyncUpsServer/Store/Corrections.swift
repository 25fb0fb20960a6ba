import Foundation
import PostgresNIO
import SyncUpsWire

/// What a writer asks of one segment on the meeting page (or the API).
public enum SegmentEdit: Sendable, Equatable {
  /// Who said it and what was said, as written (checked by `SegmentCorrection.checked`).
  case correct(speaker: String, text: String)
  /// Back to what was recognised.
  case undo
}

/// A segment as a correction left it, with its number (1 = the first) and the meeting's clock.
public struct CorrectedSegment: Codable, Sendable, Equatable {
  public var number: Int
  public var segment: MeetingDocument.Segment
  public var meetingClock: HybridClock
}

extension TeamStore {
  /// Corrects segment `number` (1 = the first) of a meeting in one of `teams`, by the same
  /// rules as `syncups correct`, as a change of that segment alone: its own clock, later than
  /// the meeting's, so a laptop's correction of another segment made meanwhile is kept when it
  /// is pushed, and every laptop gets this one at its next pull. Nothing is written when it
  /// changes nothing. 404 for a meeting not here (or deleted, or another team's), 403 for a
  /// reader of its team, 422 for a correction the rules refuse.
  public func correct(
    meeting id: UUID, number: Int, _ edit: SegmentEdit, by person: Person
  ) async throws -> CorrectedSegment {
    let notHere = APIError(.notFound, "there is no meeting \(id) here")
    guard let team = try await team(ofMeeting: id),
      let membership = person.memberships.first(where: { $0.teamID == team })
    else { throw notHere }
    guard membership.role == .writer else {
      throw APIError(
        .forbidden,
        "\(person.name) may read but not correct in team \(membership.team); ask for the "
          + "writer role")
    }
    return try await client.inTransaction(logger: logger) { connection in
      try await waitForTurn(on: connection)
      try await connection.run(
        "SELECT 1 FROM meeting WHERE id = \(id) FOR UPDATE", logger: logger)
      guard let stored = try await storedDocument(id, on: connection), !stored.deleted,
        let syncUp = try await syncUpDocument(stored.syncUpID, on: connection)
      else { throw notHere }
      guard stored.segments.indices.contains(number - 1) else {
        throw APIError(
          .notFound,
          stored.segments.isEmpty
            ? "the meeting has no segments to correct"
            : "there is no segment \(number): the meeting's segments are numbered 1 to "
              + "\(stored.segments.count)")
      }
      let before = stored.segments[number - 1]
      var after = try Self.apply(edit, to: before, number: number, in: syncUp)
      after.clock = before.clock
      guard after != before else {
        return CorrectedSegment(
          number: number, segment: stored.withSegmentClocks.segments[number - 1],
          meetingClock: stored.clock)
      }
      let latest = ([stored.clock] + stored.segments.compactMap(\.clock)).max()!
      let clock = latest.tick(now: now(), device: try await device(on: connection))
      var corrected = stored.withSegmentClocks
      after.clock = clock
      corrected.segments[number - 1] = after
      corrected.clock = clock
      let version = try await write(corrected, on: connection)
      try await connection.run(
        "SELECT pg_notify(\(Schema.changesChannel), \(String(version)))", logger: logger)
      return CorrectedSegment(number: number, segment: after, meetingClock: clock)
    }
  }

  /// The segment with `edit` applied by the rules (422 when they refuse it).
  static func apply(
    _ edit: SegmentEdit, to segment: MeetingDocument.Segment, number: Int,
    in syncUp: SyncUpDocument
  ) throws -> MeetingDocument.Segment {
    switch edit {
    case .undo:
      return segment.recognised
    case .correct(let speaker, let text):
      do {
        let change = try SegmentCorrection.checked(
          speaker: speaker, text: text, current: (segment.speaker, segment.text),
          attendees: syncUp.attendees.value.map(\.name), syncUpTitle: syncUp.title.value)
        let corrected = segment.corrected(change)
        // The whole segment by the rules a push is kept by: what every laptop will pull.
        try corrected.check(number: number)
        return corrected
      } catch let error as CorrectionRefused {
        throw APIError(.unprocessableContent, error.description)
      } catch {
        throw APIError(.unprocessableContent, "\(error)")
      }
    }
  }

  /// The team of a meeting's sync-up (nil: no such meeting).
  func team(ofMeeting id: UUID) async throws -> Int64? {
    try await run(
      """
      SELECT s.team_id FROM meeting m JOIN sync_up s ON s.id = m.sync_up_id
      WHERE m.id = \(id) AND NOT m.deleted
      """, logger: logger
    ).all(Int64.self).first
  }

  /// The attendees of a meeting's sync-up when `person` may correct it (a writer of its
  /// team), in their order; nil when they may not.
  func speakersToCorrect(_ meeting: MeetingDocument, by person: Person) async throws -> [String]? {
    guard let team = try await team(ofMeeting: meeting.id),
      person.memberships.contains(where: { $0.teamID == team && $0.role == .writer })
    else { return nil }
    return try await run(
      """
      SELECT name FROM attendee WHERE sync_up_id = \(meeting.syncUpID) ORDER BY position
      """, logger: logger
    ).all(String.self)
  }

  /// This server's device id in the clocks of the changes it makes itself (`server_device`).
  private func device(on connection: PostgresConnection) async throws -> String {
    try await connection.run("SELECT id FROM server_device", logger: logger).all(String.self)
      .first ?? "team-server"
  }
}
