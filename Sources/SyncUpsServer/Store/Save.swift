import Foundation
import Hummingbird
import NIOCore
import PostgresNIO
import SyncUpsWire

extension TeamStore {
  /// Saves a push once: a repeat of a (device, push id) gets the first receipt and changes
  /// nothing. Sync-ups merge field by field (last writer wins by clock); a meeting replaces the
  /// server's copy when its clock is later; a meeting pushed into a deleted sync-up brings the
  /// sync-up back. Pushes take turns (an advisory lock), so versions commit in order. Every
  /// document is in `team`: one of another team is refused (409), as an id belongs to one team.
  public func save(_ push: Push, by person: Person, in team: Int64) async throws -> PushReceipt {
    try check(push)
    return try await client.inTransaction(logger: logger) { connection in
      try await waitForTurn(on: connection)
      if let receipt = try await earlierReceipt(of: push, on: connection) { return receipt }
      var saved = Saved(team: team)
      try await look(at: push.meetings, into: &saved, on: connection)
      for document in push.syncUps {
        try await merge(document, into: &saved, on: connection)
      }
      for document in push.meetings {
        try await save(document, into: &saved, on: connection)
      }
      for document in push.people {
        try await save(document, into: &saved, on: connection)
      }
      try await save(push.blockers, by: person, into: &saved, on: connection)
      let version = try await announce(saved, on: connection)
      let receipt = PushReceipt(
        pushID: push.pushID, version: version, syncUps: saved.syncUps, meetings: saved.meetings)
      try await keep(receipt, of: push, by: person, on: connection)
      return receipt
    }
  }

  /// What a push has written so far: the newest version it gave, and how many documents.
  struct Saved {
    /// The team of the push.
    var team: Int64
    var version: Int64 = 0
    var syncUps = 0
    var meetings = 0
    var people = 0
    /// Blockers closed by hand that were not closed here before.
    var blockers = 0
    /// The sync-ups read or written so far, so a push of many meetings reads each one once.
    var known: [UUID: SyncUpDocument] = [:]
    /// Of the sync-ups the push's meetings are in, those that are another team's.
    var foreignSyncUps: Set<UUID> = []
    /// Of the push's meetings, those that are in another team's sync-up.
    var foreignMeetings: Set<UUID> = []
    /// The clock of the server's copy of each of the push's meetings it has (kept up to date
    /// as the push writes them).
    var clocks: [UUID: String] = [:]
  }

  /// What the server has of a push's meetings, read before any is saved by two statements, not
  /// a few for each meeting: the sync-ups they are in that are another team's, and each meeting
  /// here with its clock (its row locked until the transaction ends) and whether it is in
  /// another team's sync-up.
  private func look(
    at meetings: [MeetingDocument], into saved: inout Saved, on connection: PostgresConnection
  ) async throws {
    guard !meetings.isEmpty else { return }
    let syncUps = Array(Set(meetings.map(\.syncUpID)))
    saved.foreignSyncUps = Set(
      try await connection.run(
        "SELECT id FROM sync_up WHERE id = ANY(\(syncUps)) AND team_id <> \(saved.team)",
        logger: logger
      ).collect().all(UUID.self))
    let rows = try await connection.run(
      """
      SELECT m.id, m.clock, s.team_id <> \(saved.team)
      FROM meeting m JOIN sync_up s ON s.id = m.sync_up_id
      WHERE m.id = ANY(\(meetings.map(\.id))) FOR UPDATE OF m
      """, logger: logger
    ).collect()
    for (id, clock, foreign) in try rows.decode((UUID, String, Bool).self) {
      saved.clocks[id] = clock
      if foreign { saved.foreignMeetings.insert(id) }
    }
  }

  /// Holds the push lock until the transaction ends: one push is saved at a time.
  func waitForTurn(on connection: PostgresConnection) async throws {
    try await connection.run("SELECT pg_advisory_xact_lock(\(Schema.pushLock))", logger: logger)
  }

  /// The receipt of this push when it was saved before (a laptop that sends it again never
  /// heard the answer).
  private func earlierReceipt(of push: Push, on connection: PostgresConnection) async throws
    -> PushReceipt?
  {
    let previous = try await connection.run(
      "SELECT receipt FROM push_receipt WHERE device = \(push.device) AND push_id = \(push.pushID)",
      logger: logger
    ).all(String.self)
    guard let previous = previous.first else { return nil }
    return try WireJSON.decoder().decode(PushReceipt.self, from: Data(previous.utf8))
  }

  /// Merges a pushed sync-up into the server's copy, field by field, and writes it if that
  /// changed anything.
  private func merge(
    _ document: SyncUpDocument, into saved: inout Saved, on connection: PostgresConnection
  ) async throws {
    try await requireInTeam(syncUp: document.id, team: saved.team, on: connection)
    let existing = try await syncUpDocument(document.id, on: connection)
    let merged = existing.map { $0.merged(with: document) } ?? document
    saved.known[document.id] = merged
    guard merged != existing else { return }
    try await requireOwnAttendees(merged, existing: existing, team: saved.team, on: connection)
    saved.version = try await write(merged, team: saved.team, on: connection)
    saved.syncUps += 1
  }

  /// Writes a pushed meeting merged with the server's copy (`MeetingDocument.merged`) when
  /// that changes it: its sync-up must be here, and its audio uploaded. A deleted sync-up it was recorded into comes back.
  private func save(
    _ document: MeetingDocument, into saved: inout Saved, on connection: PostgresConnection
  ) async throws {
    // An id belongs to one team (see `requireInTeam`); what the server has, read by `look`.
    if saved.foreignSyncUps.contains(document.syncUpID) {
      throw Self.anotherTeams(syncUp: document.syncUpID)
    }
    if saved.foreignMeetings.contains(document.id) { throw Self.anotherTeams(meeting: document.id) }
    let syncUp = try await syncUp(of: document, known: &saved.known, on: connection)
    let current = saved.clocks[document.id]
    var document = document
    if current != nil, let stored = try await storedDocument(document.id, on: connection) {
      // Segments merge one by one: a correction of another segment made meanwhile stays.
      let merged = stored.merged(with: document)
      if merged == stored { return }
      document = merged
    } else if let current, current >= document.clock.description {
      return
    }
    // Its size as uploaded, as the API gives it.
    let size = try await requireAudio(of: document, on: connection)
    document.audio?.size = size
    if syncUp.deleted.value && !document.deleted {
      try await bringBack(syncUp, for: document, into: &saved, on: connection)
    }
    saved.version = try await write(document, replacing: current != nil, on: connection)
    if current != nil && !document.deleted,
      let version = try await reversionClosings(of: document.id, on: connection)
    {
      saved.version = version
    }
    saved.clocks[document.id] = document.clock.description
    saved.meetings += 1
    if current == nil && !document.deleted {
      // New to this server: its digest goes to the team's chat once this push commits.
      try await schedulePost(of: document.id, team: saved.team, on: connection)
    }
  }

  /// Undeletes the sync-up a meeting was recorded into offline, rather than lose the meeting:
  /// its deletion is overruled by a clock later than both.
  private func bringBack(
    _ syncUp: SyncUpDocument, for meeting: MeetingDocument, into saved: inout Saved,
    on connection: PostgresConnection
  ) async throws {
    var syncUp = syncUp
    let later = max(syncUp.deleted.clock, meeting.clock)
    syncUp.deleted = Stamped(false, at: later.successor)
    saved.version = try await write(syncUp, team: saved.team, on: connection)
    saved.known[syncUp.id] = syncUp
    saved.syncUps += 1
  }

  /// The sync-up a pushed meeting is in, or 422 when this server does not have it.
  private func syncUp(
    of meeting: MeetingDocument, known: inout [UUID: SyncUpDocument],
    on connection: PostgresConnection
  ) async throws -> SyncUpDocument {
    if let syncUp = known[meeting.syncUpID] { return syncUp }
    guard let syncUp = try await syncUpDocument(meeting.syncUpID, on: connection) else {
      throw APIError(
        .unprocessableContent,
        "meeting \(meeting.id) is in sync-up \(meeting.syncUpID), which this server does "
          + "not have; push the sync-up with its meeting")
    }
    known[meeting.syncUpID] = syncUp
    return syncUp
  }

  /// The server's copy of a meeting, read on the push's connection (nil when it has none).
  func storedDocument(_ id: UUID, on connection: PostgresConnection) async throws
    -> MeetingDocument?
  {
    let rows = try await connection.run(
      "SELECT json FROM meeting WHERE id = \(id)", logger: logger
    ).all(ByteBuffer?.self)
    guard let row = rows.first else { return nil }
    var json = row
    if json == nil { json = try await meetingJSONFromRows(id) }
    guard let json else { return nil }
    return try PushJSON.meeting(Data(buffer: json), with: WireJSON.decoder())
  }

  /// The uploaded size of a pushed meeting's audio (0 when it has none); 409 when it names
  /// audio that was not uploaded first.
  private func requireAudio(of meeting: MeetingDocument, on connection: PostgresConnection)
    async throws -> Int64
  {
    guard let audio = meeting.audio else { return 0 }
    let known = try await connection.run(
      "SELECT size FROM audio WHERE sha256 = \(audio.sha256)", logger: logger
    ).all(Int64.self)
    if let size = known.first { return size }
    throw APIError(
      .conflict,
      "the audio of meeting \(meeting.id) (\(audio.sha256)) is not on the server; "
        + "upload it first with PUT /api/v1/audio/\(audio.sha256)")
  }

  /// The version the receipt names: tells waiting pulls of it when the push wrote anything,
  /// else it is the newest version there is.
  private func announce(_ saved: Saved, on connection: PostgresConnection) async throws -> Int64 {
    guard saved.version != 0 else { return try await currentVersion(on: connection) }
    try await connection.run(
      "SELECT pg_notify(\(Schema.changesChannel), \(String(saved.version)))", logger: logger)
    return saved.version
  }

  /// Keeps the receipt, so that the same push sent again gets it back.
  private func keep(
    _ receipt: PushReceipt, of push: Push, by person: Person, on connection: PostgresConnection
  ) async throws {
    let text = String(decoding: try WireJSON.encoder().encode(receipt), as: UTF8.self)
    try await connection.run(
      """
      INSERT INTO push_receipt (device, push_id, person_id, receipt)
      VALUES (\(push.device), \(push.pushID), \(person.id), \(text))
      """, logger: logger)
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
