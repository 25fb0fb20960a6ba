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
  /// the meeting may be there already (else there are no segments of it to delete).
  func write(
    _ document: MeetingDocument, replacing: Bool = true, on connection: PostgresConnection
  ) async throws -> Int64 {
    var stored = document
    if stored.deleted { stored.segments = [] }
    let segments = stored.segments
    let json = try MeetingJSON(stored)
    var version: Int64 = 0
    for try await value in try await connection.run(
      """
      INSERT INTO meeting (id, sync_up_id, date, length, audio_sha256, audio_type, deleted, clock,
        version, segment_count, first_text, json)
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
      """, logger: logger
    ).decode(Int64.self) {
      version = value
    }
    if replacing {
      try await connection.run(
        "DELETE FROM segment WHERE meeting_id = \(document.id)", logger: logger)
    }
    let encoder = WireJSON.encoder()
    // A thousand segments a statement at most: a statement's parameters are all in memory at once, as
    // strings and again as PostgreSQL's wire format, and a meeting can be tens of megabytes.
    for start in stride(from: 0, to: segments.count, by: 1000) {
      let batch = segments[start..<min(start + 1000, segments.count)]
      let words = batch.indices.map { json.words(of: $0) }
      // What was recognised, for corrected segments ('null': never corrected).
      let originals = try batch.map {
        $0.original == nil
          ? "null" : String(decoding: try encoder.encode($0.original), as: UTF8.self)
      }
      try await connection.run(
        """
        INSERT INTO segment (meeting_id, ordinal, speaker, start_time, end_time, text, words,
          original)
        SELECT \(document.id), row.ordinal, row.speaker, row.start_time, row.end_time, row.text,
          row.words::json, nullif(row.original::jsonb, 'null'::jsonb)
        FROM unnest(\(Array(batch.indices)), \(batch.map(\.speaker)),
          \(batch.map(\.start)), \(batch.map(\.end)), \(batch.map(\.text)), \(words),
          \(originals))
          AS row(ordinal, speaker, start_time, end_time, text, words, original)
        """, logger: logger)
    }
    return version
  }
}
