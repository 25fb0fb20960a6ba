import AudioCore
import Foundation
import Hummingbird
import PostgresNIO
import SyncUpsWire

extension TeamStore {
  /// Every sync-up of `teams` that is not deleted, by title, as `syncups list --json` shows
  /// them, each with its team's name.
  public func syncUps(in teams: [Int64]) async throws -> [SyncUpSummary] {
    let rows = try await run(
      """
      SELECT s.id, s.title, s.theme, s.duration,
        coalesce((SELECT array_agg(a.name ORDER BY a.position) FROM attendee a
          WHERE a.sync_up_id = s.id), '{}'),
        coalesce((SELECT c.live FROM sync_up_meetings c WHERE c.sync_up_id = s.id), 0),
        (SELECT t.name FROM team t WHERE t.id = s.team_id)
      FROM sync_up s WHERE NOT s.deleted AND s.team_id = ANY(\(teams))
      ORDER BY lower(s.title), s.id
      """, logger: logger)
    var summaries: [SyncUpSummary] = []
    for (id, title, theme, duration, attendees, meetings, team) in try rows.decode(
      (UUID, String, String, Double, [String], Int, String).self)
    {
      summaries.append(
        SyncUpSummary(
          id: id, title: title, theme: theme, duration: duration, attendees: attendees,
          meetings: meetings, team: team))
    }
    return summaries
  }

  /// Whether a sync-up of `teams` is here and not deleted.
  public func syncUpExists(_ id: UUID, in teams: [Int64]) async throws -> Bool {
    try await !run(
      "SELECT 1 FROM sync_up WHERE id = \(id) AND NOT deleted AND team_id = ANY(\(teams))",
      logger: logger
    ).isEmpty
  }

  /// A sync-up's meetings, newest first, `limit` at a time; `before` is the previous page's
  /// `next` (a position in the list, so a page costs the same however long the history is).
  public func meetings(of syncUpID: UUID, limit: Int, before: MeetingCursor?) async throws
    -> MeetingsPage
  {
    let cursorDate = before?.date ?? Date.distantFuture
    let cursorID = before?.id ?? UUID(uuidString: "FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF")!
    let rows = try await run(
      """
      SELECT m.id, m.date, m.length, m.segment_count, m.first_text
      FROM meeting m
      WHERE m.sync_up_id = \(syncUpID) AND NOT m.deleted AND (m.date, m.id) < (\(cursorDate), \(cursorID))
      ORDER BY m.date DESC, m.id DESC LIMIT \(limit + 1)
      """, logger: logger)
    var meetings: [MeetingSummary] = []
    for (id, date, length, segments, first) in try rows.decode(
      (UUID, Date, Double, Int, String).self)
    {
      let words = first.split(separator: " ", maxSplits: 8).prefix(8).joined(separator: " ")
      meetings.append(
        MeetingSummary(id: id, date: date, length: length, segments: segments, firstWords: words))
    }
    let more = meetings.count > limit
    meetings = Array(meetings.prefix(limit))
    let next =
      more ? meetings.last.map { MeetingCursor(date: $0.date, id: $0.id).description } : nil
    return MeetingsPage(meetings: meetings, next: next)
  }

  /// A meeting with its segments and word times (nil when there is none; deleted ones too,
  /// so a pull learns of the deletion).
  public func meetingDocument(_ id: UUID) async throws -> MeetingDocument? {
    guard var meeting = try await meetingWithoutSegments(id) else { return nil }
    meeting.segments = try await segments(of: id)
    return meeting
  }

  /// A meeting's row alone, its `segments` empty.
  func meetingWithoutSegments(_ id: UUID) async throws -> MeetingDocument? {
    try await meetingRow(id)?.meeting
  }

  /// A meeting's row alone, its `segments` empty, with the version of its last write (which
  /// changes whenever any of its segments does, even when its clock does not).
  func meetingRow(_ id: UUID) async throws -> (meeting: MeetingDocument, version: Int64)? {
    let rows = try await run(
      """
      SELECT m.sync_up_id, m.date, m.length, m.audio_sha256, m.audio_type,
        (SELECT size FROM audio WHERE sha256 = m.audio_sha256), m.deleted, m.clock, m.version
      FROM meeting m WHERE m.id = \(id)
      """, logger: logger)
    for (syncUp, date, length, sha, type, size, deleted, clock, version) in try rows.decode(
      (UUID, Date, Double, String?, String?, Int64?, Bool, String, Int64).self)
    {
      let audio = sha.map {
        MeetingDocument.Audio(sha256: $0, size: size ?? 0, type: type ?? "application/octet-stream")
      }
      let meeting = MeetingDocument(
        id: id, syncUpID: syncUp, date: date, length: length, segments: [], audio: audio,
        deleted: deleted,
        clock: HybridClock(clock) ?? HybridClock(milliseconds: 0, device: "server"))
      return (meeting, version)
    }
    return nil
  }

  /// A meeting's segments in order.
  func segments(of meeting: UUID) async throws -> [MeetingDocument.Segment] {
    var segments: [MeetingDocument.Segment] = []
    try await eachSegment(of: meeting) { segments.append($0) }
    return segments
  }

  /// A meeting's segments in order, each given to `body` as its row arrives (a meeting of many
  /// hours is never all in memory as rows). Their words come as columns of arrays (PostgreSQL's
  /// binary form), not as JSON text: decoding an hour's 9,000 words from JSON took most of the
  /// meeting page's time (`make bench-pages`). A word's unknown confidence is -1 there.
  func eachSegment(
    of meeting: UUID, _ body: (MeetingDocument.Segment) throws -> Void
  ) async throws {
    let query: PostgresQuery = """
      SELECT s.speaker, s.start_time, s.end_time, s.text, coalesce(w.texts, '{}'),
        coalesce(w.starts, '{}'), coalesce(w.ends, '{}'), coalesce(w.confidences, '{}'),
        s.original::text
      FROM segment s LEFT JOIN LATERAL (
        SELECT array_agg(e->>'text' ORDER BY i) AS texts,
          array_agg((e->>'start')::float8 ORDER BY i) AS starts,
          array_agg((e->>'end')::float8 ORDER BY i) AS ends,
          array_agg(coalesce((e->>'confidence')::float8, -1) ORDER BY i) AS confidences
        FROM json_array_elements(s.words) WITH ORDINALITY AS word(e, i)) w ON true
      WHERE s.meeting_id = \(meeting)
      ORDER BY s.ordinal
      """
    let decoder = WireJSON.decoder()
    try await client.withOpenConnection { connection in
      for try await row in try await connection.run(query, logger: logger) {
        let (speaker, start, end, text, texts, starts, ends, confidences, original) =
          try row.decode(
            (String, Double, Double, String, [String], [Double], [Double], [Double], String?).self)
        let words = texts.indices.map { index in
          MeetingDocument.Word(
            text: texts[index], start: starts[index], end: ends[index],
            confidence: confidences[index] < 0 ? nil : confidences[index])
        }
        try body(
          MeetingDocument.Segment(
            speaker: speaker, start: start, end: end, text: text, words: words,
            original: try original.map {
              try decoder.decode(MeetingDocument.Original.self, from: Data($0.utf8))
            }))
      }
    }
  }

  /// How many of the newest meetings search ranks first at most (see `search`).
  static let searchWindow = 50
  /// How many segments at most those meetings hold (the newest meeting always counts): a
  /// window of long meetings costs what a window of short ones does.
  static let searchWindowSegments = 2000

  /// Searches every meeting's segments with PostgreSQL full text (the `syncups` configuration
  /// keeps stop words, as FTS5 does), best first; among equally good ones the newest first.
  ///
  /// So that a year of meetings answers as fast as a week's, it ranks the matches of the newest
  /// `searchWindow` meetings (of the sync-up, since the date, when asked), fewer when they hold
  /// more than `searchWindowSegments` segments, and looks further back only when those hold
  /// fewer matches than the page takes: then it ranks every match.
  /// Only the meetings of `teams` are searched.
  public func search(_ search: TeamSearchQuery, in teams: [Int64]) async throws -> [SearchHit] {
    guard let tsquery = search.query.tsquery else { return [] }
    let recent = try await hits(search, in: teams, tsquery: tsquery, window: Self.searchWindow)
    if recent.count >= search.limit { return recent }
    return try await hits(search, in: teams, tsquery: tsquery, window: nil)
  }

  private func hits(
    _ search: TeamSearchQuery, in teams: [Int64], tsquery: String, window: Int?
  ) async throws -> [SearchHit] {
    let since = search.since
    let speaker = search.speaker
    let syncUp = search.syncUpID
    // The window's meetings lead the plan (an index in date order, their segments counted as
    // they come, so it reads no further than the window), then each one's segments
    // (OFFSET 0 keeps PostgreSQL from reading the whole full-text index once per meeting
    // instead); without a window, the matches lead (the full-text index; MATERIALIZED, so the
    // team's filter never makes the planner walk every meeting's segments instead).
    let sql: PostgresQuery =
      window == nil
      ? """
      WITH matches AS MATERIALIZED (
        SELECT meeting_id, ordinal, speaker, start_time, end_time, text,
          ts_rank(search, to_tsquery('syncups', \(tsquery))) AS rank
        FROM segment WHERE search @@ to_tsquery('syncups', \(tsquery))
          AND (\(speaker)::text IS NULL OR lower(speaker) = lower(\(speaker))))
      SELECT u.title, m.id, m.date, s.speaker, s.start_time, s.end_time, s.text
      FROM matches s JOIN meeting m ON m.id = s.meeting_id JOIN sync_up u ON u.id = m.sync_up_id
      WHERE NOT m.deleted AND NOT u.deleted AND u.team_id = ANY(\(teams))
        AND (\(syncUp)::uuid IS NULL OR m.sync_up_id = \(syncUp))
        AND (\(since)::timestamptz IS NULL OR m.date >= \(since))
      ORDER BY s.rank DESC, m.date DESC, s.ordinal
      LIMIT \(search.limit)
      """
      : """
      WITH recent AS (
        SELECT m.id, m.date, u.title,
          sum(m.segment_count) OVER (ORDER BY m.date DESC, m.id DESC) - m.segment_count AS before
        FROM meeting m JOIN sync_up u ON u.id = m.sync_up_id
        WHERE NOT m.deleted AND NOT u.deleted AND u.team_id = ANY(\(teams))
          AND (\(syncUp)::uuid IS NULL OR m.sync_up_id = \(syncUp))
          AND (\(since)::timestamptz IS NULL OR m.date >= \(since))
        ORDER BY m.date DESC, m.id DESC
        LIMIT \(window))
      SELECT r.title, r.id, r.date, s.speaker, s.start_time, s.end_time, s.text
      FROM recent r CROSS JOIN LATERAL (
        SELECT * FROM segment WHERE meeting_id = r.id OFFSET 0) s
      WHERE r.before < \(Self.searchWindowSegments) AND s.search @@ to_tsquery('syncups', \(tsquery))
        AND (\(speaker)::text IS NULL OR lower(s.speaker) = lower(\(speaker)))
      ORDER BY ts_rank(s.search, to_tsquery('syncups', \(tsquery))) DESC, r.date DESC,
        s.ordinal
      LIMIT \(search.limit)
      """
    var hits: [SearchHit] = []
    for (title, meeting, date, speaker, start, end, text) in try await run(
      sql, logger: logger
    ).decode((String, UUID, Date, String, Double, Double, String).self) {
      hits.append(
        SearchHit(
          syncUp: title, meeting: meeting.uuidString.lowercased(), date: date, speaker: speaker,
          start: start, end: end, text: text))
    }
    return hits
  }
}

/// Where a page of meetings ends: the last meeting's date and id, as `MICROSECONDS.UUID`.
public struct MeetingCursor: Equatable, Sendable, CustomStringConvertible {
  public var date: Date
  public var id: UUID

  public init(date: Date, id: UUID) {
    self.date = date
    self.id = id
  }

  /// The cursor a `next` names, or nil when the text is not one: its date must be one of
  /// `Rules.representableDates` (a date far beyond overflows PostgreSQL's microseconds).
  public init?(_ text: String) {
    let parts = text.split(separator: ".", maxSplits: 1)
    guard parts.count == 2, parts[0].utf8.count <= 20, let micros = Int64(parts[0]),
      let id = UUID(uuidString: String(parts[1]))
    else { return nil }
    let date = Date(timeIntervalSince1970: Double(micros) / 1_000_000)
    guard Rules.representableDates.contains(date) else { return nil }
    self.init(date: date, id: id)
  }

  public var description: String {
    "\(Int64(saturating: (date.timeIntervalSince1970 * 1_000_000).rounded()))."
      + id.uuidString.lowercased()
  }
}
