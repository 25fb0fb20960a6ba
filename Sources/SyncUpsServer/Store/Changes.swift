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
      SELECT kind, id, version, sync_up_id FROM (
        SELECT 's' AS kind, id, version, id AS sync_up_id FROM sync_up
        WHERE version > \(since) AND id IN (SELECT id FROM mine)
        UNION ALL SELECT 'm', id, version, sync_up_id FROM meeting
        WHERE version > \(since) AND sync_up_id IN (SELECT id FROM mine)
        UNION ALL SELECT 'p', attendee_id, version, sync_up_id FROM learned_person
        WHERE version > \(since) AND sync_up_id IN (SELECT id FROM mine)
      ) AS changed ORDER BY version LIMIT \(limit + 1)
      """, logger: logger)
    var changed: [(String, UUID, Int64, UUID)] = []
    for row in try rows.decode((String, UUID, Int64, UUID).self) { changed.append(row) }
    var page = ChangesPageJSON(version: since, more: changed.count > limit)
    for (kind, id, version, syncUpID) in changed.prefix(limit) {
      if page.bytes >= budget {
        page.more = true
        break
      }
      page.version = version
      if kind == "s" {
        if let document = try await client.withOpenConnection({
          try await syncUpDocument(id, on: $0)
        }) {
          page.append(syncUp: try WireJSON.bytes(of: document))
        }
      } else if kind == "p" {
        if let json = try await personJSON(id, in: syncUpID) { page.append(person: json) }
      } else if let json = try await meetingJSON(id) {
        page.append(meeting: json)
      }
    }
    return page
  }
}
