import Foundation
import NIOCore
import PostgresNIO
import SyncUpsWire

/// Pages of changes, for pulls.
extension TeamStore {
  /// What changed in `team` after `since`, oldest first: at most `limit` documents, and no more once the
  /// page holds `budget` bytes of JSON (always one, so that a pull moves on; `more` then). Each
  /// document is read and written as JSON before the next (a meeting segment by segment, see
  /// `meetingJSON`), so a page of a thousand long meetings is never in memory as documents, nor
  /// its JSON more than once.
  /// Versions are the server's, across teams: a page's `version` is its last change's.
  public func changes(
    since: Int64, team: Int64, limit: Int = 100, budget: Int = Limits().pageBytes
  ) async throws -> ChangesPageJSON {
    let rows = try await run(
      """
      WITH mine AS (SELECT id FROM sync_up WHERE team_id = \(team))
      SELECT kind, id, version, size, sync_up_id FROM (
        SELECT 's' AS kind, id, version, octet_length(document::text)::int8 AS size,
          id AS sync_up_id
        FROM sync_up WHERE version > \(since) AND id IN (SELECT id FROM mine)
        UNION ALL SELECT 'm', id, version, coalesce(octet_length(json), 0)::int8, sync_up_id
        FROM meeting WHERE version > \(since) AND sync_up_id IN (SELECT id FROM mine)
        UNION ALL SELECT 'p', attendee_id, version, octet_length(document)::int8, sync_up_id
        FROM learned_person
        WHERE version > \(since) AND sync_up_id IN (SELECT id FROM mine)
        UNION ALL SELECT 'b', c.meeting_id, c.version, 128::int8, m.sync_up_id
        FROM blocker_closed c JOIN meeting m ON m.id = c.meeting_id
        WHERE c.version > \(since) AND NOT m.deleted AND m.sync_up_id IN (SELECT id FROM mine)
      ) AS changed ORDER BY version LIMIT \(limit + 1)
      """, logger: logger)
    var changed: [(kind: String, id: UUID, version: Int64, size: Int64, syncUp: UUID)] = []
    for row in try rows.decode((String, UUID, Int64, Int64, UUID).self) { changed.append(row) }
    var page = ChangesPageJSON(version: since, more: changed.count > limit)
    // The documents that fit, by their stored sizes (always one, so that a pull moves on).
    var taken = 0
    var bytes: Int64 = 0
    for change in changed.prefix(limit) {
      if taken > 0 && bytes >= budget {
        page.more = true
        break
      }
      taken += 1
      bytes = bytes.addingReportingOverflow(change.size).partialValue
    }
    let chosen = changed.prefix(taken)
    let documents = try await changedDocuments(
      syncUps: chosen.filter { $0.kind == "s" }.map(\.id),
      meetings: chosen.filter { $0.kind == "m" }.map(\.id),
      people: chosen.filter { $0.kind == "p" }.map {
        ChangedPerson(attendee: $0.id, syncUp: $0.syncUp)
      })
    let blockers = try await blockerClosureJSON(
      versions: chosen.filter { $0.kind == "b" }.map(\.version))
    for change in chosen {
      page.version = change.version
      switch change.kind {
      case "s": if let json = documents.syncUps[change.id] { page.append(syncUp: json) }
      case "b": if let json = blockers[change.version] { page.append(blocker: json) }
      case "p":
        let person = ChangedPerson(attendee: change.id, syncUp: change.syncUp)
        if let json = documents.people[person] { page.append(person: json) }
      default:
        var json = documents.meetings[change.id]
        if json == nil { json = try await meetingJSONFromRows(change.id) }
        if let json { page.append(meeting: json) }
      }
    }
    return page
  }

  /// The JSON of a page's documents, each kind in one query (a meeting whose JSON was never
  /// stored is left out: `meetingJSONFromRows` makes it).
  private func changedDocuments(syncUps: [UUID], meetings: [UUID], people: [ChangedPerson])
    async throws
    -> (syncUps: [UUID: [UInt8]], meetings: [UUID: ByteBuffer], people: [ChangedPerson: ByteBuffer])
  {
    var found:
      (syncUps: [UUID: [UInt8]], meetings: [UUID: ByteBuffer], people: [ChangedPerson: ByteBuffer])
    found = ([:], [:], [:])
    if !syncUps.isEmpty {
      let decoder = WireJSON.decoder()
      for (id, text) in try await run(
        "SELECT id, document::text FROM sync_up WHERE id = ANY(\(syncUps))", logger: logger
      ).decode((UUID, String).self) {
        let document = try decoder.decode(SyncUpDocument.self, from: Data(text.utf8))
        found.syncUps[id] = try WireJSON.bytes(of: document)
      }
    }
    if !meetings.isEmpty {
      for (id, json) in try await run(
        "SELECT id, json FROM meeting WHERE id = ANY(\(meetings)) AND json IS NOT NULL",
        logger: logger
      ).decode((UUID, ByteBuffer).self) {
        found.meetings[id] = json
      }
    }
    if !people.isEmpty {
      for (attendee, syncUp, json) in try await run(
        """
        SELECT attendee_id, sync_up_id, document FROM learned_person
        WHERE attendee_id = ANY(\(people.map(\.attendee))) AND sync_up_id = ANY(\(people.map(\.syncUp)))
        """, logger: logger
      ).decode((UUID, UUID, ByteBuffer).self) {
        found.people[ChangedPerson(attendee: attendee, syncUp: syncUp)] = json
      }
    }
    return found
  }
}

/// A learned person's document is kept per attendee and sync-up.
private struct ChangedPerson: Hashable {
  var attendee: UUID
  var syncUp: UUID
}
