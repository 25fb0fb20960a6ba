import Foundation
import NIOCore
import PostgresNIO
import SyncUpsWire

/// Reading and writing the documents of sync-ups and meetings, with the rows queries read.
extension TeamStore {
  func syncUpDocument(_ id: UUID, on connection: PostgresConnection) async throws
    -> SyncUpDocument?
  {
    let rows = try await connection.run(
      "SELECT document::text FROM sync_up WHERE id = \(id)", logger: logger
    ).all(String.self)
    guard let text = rows.first else { return nil }
    return try WireJSON.decoder().decode(SyncUpDocument.self, from: Data(text.utf8))
  }

  /// Writes a sync-up's merged document and the rows queries read; returns its new version. A
  /// new sync-up goes into `team`; one that is here stays in its own.
  func write(_ document: SyncUpDocument, team: Int64, on connection: PostgresConnection)
    async throws -> Int64
  {
    let text = String(decoding: try WireJSON.encoder().encode(document), as: UTF8.self)
    var version: Int64 = 0
    for try await value in try await connection.run(
      """
      INSERT INTO sync_up (id, title, theme, duration, deleted, document, version, team_id)
      VALUES (\(document.id), \(document.title.value), \(document.theme.value),
        \(document.duration.value), \(document.deleted.value), \(text)::jsonb,
        nextval('change_version'), \(team))
      ON CONFLICT (id) DO UPDATE SET title = excluded.title, theme = excluded.theme,
        duration = excluded.duration, deleted = excluded.deleted, document = excluded.document,
        version = excluded.version
      RETURNING version
      """, logger: logger
    ).decode(Int64.self) {
      version = value
    }
    try await connection.run(
      "DELETE FROM attendee WHERE sync_up_id = \(document.id)", logger: logger)
    try await connection.run(
      "DELETE FROM vocabulary_word WHERE sync_up_id = \(document.id)", logger: logger)
    let attendees = document.attendees.value
    if !attendees.isEmpty {
      try await connection.run(
        """
        INSERT INTO attendee (sync_up_id, position, id, name)
        SELECT \(document.id), row.position, row.id, row.name
        FROM unnest(\(Array(attendees.indices)), \(attendees.map(\.id)), \(attendees.map(\.name)))
          AS row(position, id, name)
        """, logger: logger)
    }
    let words = document.vocabulary.value
    if !words.isEmpty {
      try await connection.run(
        """
        INSERT INTO vocabulary_word (sync_up_id, position, word)
        SELECT \(document.id), row.position, row.word
        FROM unnest(\(Array(words.indices)), \(words)) AS row(position, word)
        """, logger: logger)
    }
    return version
  }

  /// Writes a meeting, its segments (none when it is deleted) and its JSON as the API gives it
  /// (`MeetingJSON`); returns its new version. Each segment is written as JSON once: into the
  /// meeting's JSON, and its `words` from there into the segment's row. `replacing`: whether
  /// the meeting may be there already (else there are no segments of it to delete). The
  /// meeting's row and its first thousand segments are one statement (one round trip to
  /// PostgreSQL, not two, for most meetings).
  func write(
    _ document: MeetingDocument, replacing: Bool = true, on connection: PostgresConnection
  ) async throws -> Int64 {
    var stored = document
    if stored.deleted { stored.segments = [] }
    let segments = stored.segments
    let json = try MeetingJSON(stored)
    if replacing {
      try await connection.run(
        "DELETE FROM segment WHERE meeting_id = \(document.id)", logger: logger)
    }
    // A thousand segments a statement at most: a statement's parameters are all in memory at
    // once, as strings and again as PostgreSQL's wire format, and a meeting can be tens of
    // megabytes.
    let batches = try stride(from: 0, to: segments.count, by: 1000).map {
      try SegmentRows(segments, $0..<min($0 + 1000, segments.count), json: json)
    }
    let first = try batches.first ?? SegmentRows(segments, 0..<0, json: json)
    var version: Int64 = 0
    for try await value in try await connection.run(
      """
      WITH written AS (
        INSERT INTO meeting (id, sync_up_id, date, length, audio_sha256, audio_type, deleted,
          clock, version, segment_count, first_text, json)
        VALUES (\(document.id), \(document.syncUpID), \(document.date), \(document.length),
          \(document.audio?.sha256), \(document.audio?.type), \(document.deleted),
          \(document.clock.description), nextval('change_version'), \(segments.count),
          \(segments.first?.text ?? ""), \(json.bytes))
        ON CONFLICT (id) DO UPDATE SET sync_up_id = excluded.sync_up_id, date = excluded.date,
          length = excluded.length, audio_sha256 = excluded.audio_sha256,
          audio_type = excluded.audio_type, deleted = excluded.deleted, clock = excluded.clock,
          version = excluded.version, segment_count = excluded.segment_count,
          first_text = excluded.first_text, json = excluded.json
        RETURNING version
      ), segments AS (
        INSERT INTO segment (meeting_id, ordinal, speaker, start_time, end_time, text, words,
          original)
        SELECT \(document.id), row.ordinal, row.speaker, row.start_time, row.end_time, row.text,
          row.words::json, nullif(row.original::jsonb, 'null'::jsonb)
        FROM unnest(\(first.ordinals), \(first.speakers), \(first.starts), \(first.ends),
          \(first.texts), \(first.words), \(first.originals))
          AS row(ordinal, speaker, start_time, end_time, text, words, original)
      )
      SELECT version FROM written
      """, logger: logger
    ).decode(Int64.self) {
      version = value
    }
    for rows in batches.dropFirst() {
      try await connection.run(
        """
        INSERT INTO segment (meeting_id, ordinal, speaker, start_time, end_time, text, words,
          original)
        SELECT \(document.id), row.ordinal, row.speaker, row.start_time, row.end_time, row.text,
          row.words::json, nullif(row.original::jsonb, 'null'::jsonb)
        FROM unnest(\(rows.ordinals), \(rows.speakers), \(rows.starts), \(rows.ends),
          \(rows.texts), \(rows.words), \(rows.originals))
          AS row(ordinal, speaker, start_time, end_time, text, words, original)
        """, logger: logger)
    }
    return version
  }
}

/// The columns of a batch of a meeting's segment rows, each an array (a parameter of
/// `unnest`).
struct SegmentRows {
  var ordinals: [Int]
  var speakers: [String]
  var starts: [Double]
  var ends: [Double]
  var texts: [String]
  var words: [String]
  /// What was recognised, for corrected segments ('null': never corrected).
  var originals: [String]

  init(_ segments: [MeetingDocument.Segment], _ range: Range<Int>, json: MeetingJSON) throws {
    let batch = segments[range]
    let encoder = WireJSON.encoder()
    ordinals = Array(range)
    speakers = batch.map(\.speaker)
    starts = batch.map(\.start)
    ends = batch.map(\.end)
    texts = batch.map(\.text)
    words = range.map { json.words(of: $0) }
    originals = try batch.map {
      $0.original == nil
        ? "null" : String(decoding: try encoder.encode($0.original), as: UTF8.self)
    }
  }
}
