import Foundation
import Hummingbird
import NIOCore
import PostgresNIO
import SyncUpsWire

extension TeamStore {
  /// Saves a push once: a repeat of a (device, push id) gets the first receipt and changes
  /// nothing. Sync-ups merge field by field (last writer wins by clock); a meeting replaces the
  /// server's copy when its clock is later; a meeting pushed into a deleted sync-up brings the
  /// sync-up back. Pushes take turns (an advisory lock), so versions commit in order.
  public func save(_ push: Push, by person: Person) async throws -> PushReceipt {
    try check(push)
    let encoder = WireJSON.encoder()
    return try await client.inTransaction(logger: logger) { connection in
      try await connection.run("SELECT pg_advisory_xact_lock(\(Schema.pushLock))", logger: logger)
      let previous = try await connection.run(
        "SELECT receipt FROM push_receipt WHERE device = \(push.device) AND push_id = \(push.pushID)",
        logger: logger
      ).all(String.self)
      if let previous = previous.first {
        return try WireJSON.decoder().decode(PushReceipt.self, from: Data(previous.utf8))
      }
      var version: Int64 = 0
      var syncUps = 0
      var meetings = 0
      for document in push.syncUps {
        let existing = try await syncUpDocument(document.id, on: connection)
        let merged = existing.map { $0.merged(with: document) } ?? document
        guard merged != existing else { continue }
        version = try await write(merged, on: connection, encoder: encoder)
        syncUps += 1
      }
      for document in push.meetings {
        guard var syncUp = try await syncUpDocument(document.syncUpID, on: connection) else {
          throw APIError(
            .unprocessableContent,
            "meeting \(document.id) is in sync-up \(document.syncUpID), which this server does "
              + "not have; push the sync-up with its meeting")
        }
        let current = try await connection.run(
          "SELECT clock FROM meeting WHERE id = \(document.id) FOR UPDATE", logger: logger
        ).all(String.self)
        if let current = current.first, current >= document.clock.description { continue }
        if let audio = document.audio {
          let known = try await connection.run(
            "SELECT 1 FROM audio WHERE sha256 = \(audio.sha256)", logger: logger
          ).all(Int.self)
          guard !known.isEmpty else {
            throw APIError(
              .conflict,
              "the audio of meeting \(document.id) (\(audio.sha256)) is not on the server; "
                + "upload it first with PUT /api/v1/audio/\(audio.sha256)")
          }
        }
        if syncUp.deleted.value && !document.deleted {
          // Recorded into it offline: the sync-up comes back rather than the meeting being lost.
          let later = max(syncUp.deleted.clock, document.clock)
          syncUp.deleted = Stamped(
            false,
            at: HybridClock(
              milliseconds: later.milliseconds, counter: later.counter + 1, device: later.device))
          version = try await write(syncUp, on: connection, encoder: encoder)
          syncUps += 1
        }
        version = try await write(document, on: connection)
        meetings += 1
      }
      if version == 0 {
        for try await current in try await connection.run(
          """
          SELECT greatest((SELECT coalesce(max(version), 0) FROM sync_up),
            (SELECT coalesce(max(version), 0) FROM meeting))
          """, logger: logger
        ).decode(Int64.self) {
          version = current
        }
      } else {
        try await connection.run(
          "SELECT pg_notify(\(Schema.changesChannel), \(String(version)))", logger: logger)
      }
      let receipt = PushReceipt(
        pushID: push.pushID, version: version, syncUps: syncUps, meetings: meetings)
      let text = String(decoding: try encoder.encode(receipt), as: UTF8.self)
      try await connection.run(
        """
        INSERT INTO push_receipt (device, push_id, person_id, receipt)
        VALUES (\(push.device), \(push.pushID), \(person.id), \(text))
        """, logger: logger)
      return receipt
    }
  }

  /// What changed after `since`, oldest first: at most `limit` documents, and no more once the
  /// page holds `budget` bytes of JSON (always one, so that a pull moves on; `more` then). Each
  /// document is read and written as JSON before the next (a meeting segment by segment, see
  /// `meetingJSON`), so a page of a thousand long meetings is never in memory as documents, nor
  /// its JSON more than once.
  public func changes(since: Int64, limit: Int = 100, budget: Int = Limits().pageBytes)
    async throws -> ChangesPageJSON
  {
    let rows = try await run(
      """
      SELECT kind, id, version FROM (
        SELECT 's' AS kind, id, version FROM sync_up WHERE version > \(since)
        UNION ALL SELECT 'm', id, version FROM meeting WHERE version > \(since)
      ) AS changed ORDER BY version LIMIT \(limit + 1)
      """, logger: logger)
    var changed: [(String, UUID, Int64)] = []
    for row in try rows.decode((String, UUID, Int64).self) { changed.append(row) }
    var page = ChangesPageJSON(version: since, more: changed.count > limit)
    for (kind, id, version) in changed.prefix(limit) {
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
      } else if let json = try await meetingJSON(id) {
        page.append(meeting: json)
      }
    }
    return page
  }

  func syncUpDocument(_ id: UUID, on connection: PostgresConnection) async throws
    -> SyncUpDocument?
  {
    let rows = try await connection.run(
      "SELECT document::text FROM sync_up WHERE id = \(id)", logger: logger
    ).all(String.self)
    guard let text = rows.first else { return nil }
    return try WireJSON.decoder().decode(SyncUpDocument.self, from: Data(text.utf8))
  }

  /// Writes a sync-up's merged document and the rows queries read; returns its new version.
  private func write(
    _ document: SyncUpDocument, on connection: PostgresConnection, encoder: JSONEncoder
  ) async throws -> Int64 {
    let text = String(decoding: try encoder.encode(document), as: UTF8.self)
    var version: Int64 = 0
    for try await value in try await connection.run(
      """
      INSERT INTO sync_up (id, title, theme, duration, deleted, document, version)
      VALUES (\(document.id), \(document.title.value), \(document.theme.value),
        \(document.duration.value), \(document.deleted.value), \(text)::jsonb,
        nextval('change_version'))
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

  /// Writes a meeting and its segments (none when it is deleted); returns its new version.
  private func write(_ document: MeetingDocument, on connection: PostgresConnection) async throws
    -> Int64
  {
    let segments = document.deleted ? [] : document.segments
    var version: Int64 = 0
    for try await value in try await connection.run(
      """
      INSERT INTO meeting (id, sync_up_id, date, length, audio_sha256, audio_type, deleted, clock,
        version, segment_count, first_text)
      VALUES (\(document.id), \(document.syncUpID), \(document.date), \(document.length),
        \(document.audio?.sha256), \(document.audio?.type), \(document.deleted),
        \(document.clock.description), nextval('change_version'), \(segments.count),
        \(segments.first?.text ?? ""))
      ON CONFLICT (id) DO UPDATE SET sync_up_id = excluded.sync_up_id, date = excluded.date,
        length = excluded.length, audio_sha256 = excluded.audio_sha256,
        audio_type = excluded.audio_type, deleted = excluded.deleted, clock = excluded.clock,
        version = excluded.version, segment_count = excluded.segment_count,
        first_text = excluded.first_text
      RETURNING version
      """, logger: logger
    ).decode(Int64.self) {
      version = value
    }
    try await connection.run(
      "DELETE FROM segment WHERE meeting_id = \(document.id)", logger: logger)
    let encoder = WireJSON.encoder()
    // A thousand segments a statement at most: a statement's parameters are all in memory at once, as
    // strings and again as PostgreSQL's wire format, and a meeting can be tens of megabytes.
    for start in stride(from: 0, to: segments.count, by: 1000) {
      let batch = segments[start..<min(start + 1000, segments.count)]
      let words = try batch.map { String(decoding: try encoder.encode($0.words), as: UTF8.self) }
      // What was recognised, for corrected segments ('null': never corrected).
      let originals = try batch.map {
        String(decoding: try encoder.encode($0.original), as: UTF8.self)
      }
      try await connection.run(
        """
        INSERT INTO segment (meeting_id, ordinal, speaker, start_time, end_time, text, words,
          original)
        SELECT \(document.id), row.ordinal, row.speaker, row.start_time, row.end_time, row.text,
          row.words::jsonb, nullif(row.original::jsonb, 'null'::jsonb)
        FROM unnest(\(Array(batch.indices)), \(batch.map(\.speaker)),
          \(batch.map(\.start)), \(batch.map(\.end)), \(batch.map(\.text)), \(words),
          \(originals))
          AS row(ordinal, speaker, start_time, end_time, text, words, original)
        """, logger: logger)
    }
    return version
  }

  /// Refuses what no laptop would send, before anything is written: every document by the
  /// rules `syncups add` and `import` use, each clock no further ahead of this server's time
  /// than the drift allows.
  private func check(_ push: Push) throws {
    do {
      try push.check(now: now())
    } catch {
      throw APIError(.unprocessableContent, error.description)
    }
  }
}
