import Foundation
import PostgresNIO
import SyncUpsWire

/// The few reads only the pages need, beside the API's.
extension TeamStore {
  /// One sync-up's title and theme (nil when there is none in `teams`, or it was deleted).
  func syncUpHeading(_ id: UUID, in teams: [Int64]) async throws -> (title: String, theme: String)?
  {
    let rows = try await run(
      "SELECT title, theme FROM sync_up WHERE id = \(id) AND NOT deleted AND team_id = ANY(\(teams))",
      logger: logger)
    for (title, theme) in try rows.decode((String, String).self) { return (title, theme) }
    return nil
  }

  /// Who spoke in each of these meetings, in the order they first spoke.
  func speakers(of meetings: [UUID]) async throws -> [UUID: [String]] {
    guard !meetings.isEmpty else { return [:] }
    let rows = try await run(
      """
      SELECT meeting_id, array_agg(speaker ORDER BY first) FROM (
        SELECT meeting_id, speaker, min(ordinal) AS first FROM segment
        WHERE meeting_id = ANY(\(meetings)) AND speaker <> '' GROUP BY meeting_id, speaker
      ) spoke GROUP BY meeting_id
      """, logger: logger)
    var speakers: [UUID: [String]] = [:]
    for (id, names) in try rows.decode((UUID, [String]).self) { speakers[id] = names }
    return speakers
  }

  /// Each text with what `query` matches in it between `\u{1}` and `\u{2}`: PostgreSQL's own
  /// `ts_headline`, so the words marked are the ones the search matched (stems, prefixes).
  func marked(_ texts: [String], query: SearchQuery) async throws -> [String] {
    guard let tsquery = query.tsquery, !texts.isEmpty else { return texts }
    let clean = texts.map { $0.filter { $0 != "\u{1}" && $0 != "\u{2}" } }
    let options = "HighlightAll=true, StartSel=\u{1}, StopSel=\u{2}"
    let rows = try await run(
      """
      SELECT ts_headline('syncups', t.text, to_tsquery('syncups', \(tsquery)), \(options))
      FROM unnest(\(clean)::text[]) WITH ORDINALITY AS t(text, n) ORDER BY t.n
      """, logger: logger)
    let marked = try rows.all(String.self)
    return marked.count == texts.count ? marked : clean
  }
}
