import Foundation
import NIOCore
import PostgresNIO
import SyncUpsWire

/// What laptops learned of attendees (`PersonDocument`): kept whole, the later clock winning,
/// served in the changes feed as it was pushed.
extension TeamStore {
  /// Writes a pushed document when it is later than the server's copy of what is learned of
  /// that attendee in that sync-up. Its sync-up must be in the push's team (409 otherwise: an
  /// id belongs to one team) and on the server (422); its attendee one of that sync-up's: an id
  /// that is another team's or another sync-up's attendee is 409 too. An attendee no longer anywhere (removed on
  /// another laptop meanwhile) is passed over: nothing of them is kept. What one sync-up's
  /// laptops learned never stands in the way of another's (a row each).
  func save(
    _ document: PersonDocument, into saved: inout Saved, on connection: PostgresConnection
  ) async throws {
    try await requireInTeam(syncUp: document.syncUpID, team: saved.team, on: connection)
    let syncUp = try await syncUp(of: document, known: &saved.known, on: connection)
    guard syncUp.attendees.value.contains(where: { $0.id == document.attendeeID }) else {
      try await refuseAttendeeElsewhere(document, team: saved.team, on: connection)
      return
    }
    let current = try await connection.run(
      """
      SELECT clock FROM learned_person
      WHERE attendee_id = \(document.attendeeID) AND sync_up_id = \(document.syncUpID)
      FOR UPDATE
      """, logger: logger
    ).all(String.self).first
    guard current.map({ $0 < document.clock.description }) ?? true else { return }
    let json = try WireJSON.bytes(of: document)
    for try await version in try await connection.run(
      """
      INSERT INTO learned_person (attendee_id, sync_up_id, clock, document, version)
      VALUES (\(document.attendeeID), \(document.syncUpID), \(document.clock.description),
        \(ByteBuffer(bytes: json)), nextval('change_version'))
      ON CONFLICT (attendee_id, sync_up_id) DO UPDATE SET clock = excluded.clock,
        document = excluded.document, version = excluded.version
      RETURNING version
      """, logger: logger
    ).decode(Int64.self) {
      saved.version = version
    }
    saved.people += 1
  }

  /// A document about an attendee its sync-up does not have: refused (409, in words) when the
  /// id is an attendee elsewhere (another team's, or another sync-up's), so it can never be
  /// saved; passed over when it is nowhere (removed on another laptop meanwhile).
  private func refuseAttendeeElsewhere(
    _ document: PersonDocument, team: Int64, on connection: PostgresConnection
  ) async throws {
    let teams = try await connection.run(
      """
      SELECT s.team_id FROM attendee a JOIN sync_up s ON s.id = a.sync_up_id
      WHERE a.id = \(document.attendeeID)
      UNION ALL SELECT s.team_id FROM learned_person l JOIN sync_up s ON s.id = l.sync_up_id
      WHERE l.attendee_id = \(document.attendeeID) AND s.team_id <> \(team)
      """, logger: logger
    ).all(Int64.self)
    guard !teams.isEmpty else { return }
    let attendee = document.attendeeID.uuidString.lowercased()
    let syncUp = document.syncUpID.uuidString.lowercased()
    if teams.contains(where: { $0 != team }) {
      throw APIError(
        .conflict,
        "attendee \(attendee) is another team's on this server, and an id belongs to one team: "
          + "what is learned of them cannot be kept in sync-up \(syncUp)")
    }
    throw APIError(
      .conflict,
      "attendee \(attendee) is not in sync-up \(syncUp) but in another one: what is learned of "
        + "an attendee is kept only with their own sync-up")
  }

  /// The sync-up a pushed document is about, or 422 when this server does not have it.
  private func syncUp(
    of person: PersonDocument, known: inout [UUID: SyncUpDocument],
    on connection: PostgresConnection
  ) async throws -> SyncUpDocument {
    if let syncUp = known[person.syncUpID] { return syncUp }
    guard let syncUp = try await syncUpDocument(person.syncUpID, on: connection) else {
      throw APIError(
        .unprocessableContent,
        "attendee \(person.attendeeID) is in sync-up \(person.syncUpID), which this server "
          + "does not have; push the sync-up first")
    }
    known[person.syncUpID] = syncUp
    return syncUp
  }

  /// A document's JSON as it was pushed.
  func personJSON(_ attendeeID: UUID, in syncUpID: UUID) async throws -> ByteBuffer? {
    let rows = try await run(
      """
      SELECT document FROM learned_person
      WHERE attendee_id = \(attendeeID) AND sync_up_id = \(syncUpID)
      """, logger: logger)
    return try rows.all(ByteBuffer.self).first
  }
}
