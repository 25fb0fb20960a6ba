import Foundation
import NIOCore
import PostgresNIO
import SyncUpsWire

/// Blockers closed by hand, synced with laptops: a push's closings are kept like the blockers
/// page's (`closeBlocker`), each with a version, and the changes feed serves every closing of
/// the team's meetings that are not deleted.
extension TeamStore {
  /// Keeps a push's closings, by the person who pushed them, in two statements however many
  /// there are. One of a meeting this server does not have, has deleted, or keeps in another
  /// team's sync-up is passed over: a meeting's deletion wins, as on the blockers page, and a
  /// laptop is never stuck on it. Closed already: nothing changes.
  func save(
    _ closures: [BlockerClosure], by person: Person, into saved: inout Saved,
    on connection: PostgresConnection
  ) async throws {
    guard !closures.isEmpty else { return }
    let meetings = Array(Set(closures.map(\.meetingID)))
    let open = Set(
      try await connection.run(
        """
        SELECT m.id FROM meeting m JOIN sync_up s ON s.id = m.sync_up_id
        WHERE m.id = ANY(\(meetings)) AND s.team_id = \(saved.team) AND NOT m.deleted
          AND NOT s.deleted
        """, logger: logger
      ).collect().all(UUID.self))
    let kept = closures.filter { open.contains($0.meetingID) }
    guard !kept.isEmpty else { return }
    let versions = try await connection.run(
      """
      INSERT INTO blocker_closed (meeting_id, segment, key, closed_by, version)
      SELECT c.meeting_id, c.segment, c.key, \(person.id), nextval('change_version')
      FROM unnest(\(kept.map(\.meetingID)), \(kept.map(\.segment)), \(kept.map(\.key)))
        AS c(meeting_id, segment, key)
      ON CONFLICT DO NOTHING RETURNING version
      """, logger: logger
    ).collect().all(Int64.self)
    guard let newest = versions.max() else { return }
    saved.version = newest
    saved.blockers += versions.count
  }

  /// A meeting written again (a deleted one brought back by a later write, too): its closings
  /// get versions after it, so a laptop that pulls it again (or for the first time) pulls them
  /// after it. The newest version given, or nil when it has none.
  func reversionClosings(of meeting: UUID, on connection: PostgresConnection) async throws
    -> Int64?
  {
    try await connection.run(
      """
      UPDATE blocker_closed SET version = nextval('change_version') WHERE meeting_id = \(meeting)
      RETURNING version
      """, logger: logger
    ).collect().all(Int64.self).max()
  }

  /// The closings with these versions, as JSON by version. Who closed it is named only when
  /// the name keeps the attendees' rules, as every laptop checks them.
  func blockerClosureJSON(versions: [Int64]) async throws -> [Int64: [UInt8]] {
    guard !versions.isEmpty else { return [:] }
    let rows = try await run(
      """
      SELECT c.version, c.meeting_id, c.segment, c.key, p.name, c.closed_at
      FROM blocker_closed c LEFT JOIN person p ON p.id = c.closed_by
      WHERE c.version = ANY(\(versions))
      """, logger: logger)
    var found: [Int64: [UInt8]] = [:]
    for (version, meeting, segment, key, name, date) in try rows.decode(
      (Int64, UUID, Int, String, String?, Date).self)
    {
      let named = name.flatMap { (try? Rules.name($0)) ?? nil }
      let closure = BlockerClosure(
        meetingID: meeting, segment: segment, key: key, closedBy: named, closedAt: date)
      found[version] = try WireJSON.bytes(of: closure)
    }
    return found
  }
}
