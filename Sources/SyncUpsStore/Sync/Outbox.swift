import Foundation
import GRDB
import SyncUpsWire

/// The push side: the outbox's rows become documents under a push id, stored before they are
/// sent (`syncPendingPush`) and resent byte for byte until the server acknowledges them; the
/// acknowledgement empties only the rows that did not change meanwhile.
public enum Outbox {
  /// One outbox row as a push took it.
  public struct Entry: Codable, Equatable, Sendable {
    public var kind: String
    public var entityId: String
    public var generation: Int64

    public init(kind: String, entityId: String, generation: Int64) {
      self.kind = kind
      self.entityId = entityId
      self.generation = generation
    }
  }

  /// A push stored before it is sent.
  public struct Pending: Sendable, Equatable {
    public var pushID: UUID
    public var body: Data
    public var entries: [Entry]
    public var audio: [AudioHash]
    public var syncUps: Int
    public var meetings: Int
    /// Attendees whose learned voice or adaptation (or its forgetting) it carries.
    public var people = 0
    /// Blockers closed by hand that it carries.
    public var blockers = 0
  }

  /// How many changes wait to be pushed (those set aside do not wait: see `SetAside`).
  static func count(_ db: Database) throws -> Int {
    let all =
      try Int.fetchOne(
        db,
        sql: "SELECT (SELECT count(*) FROM syncOutbox) + (SELECT count(*) FROM syncPeopleOutbox)"
      ) ?? 0
    return all - (try SetAside.count(db)) + (try BlockerSync.waiting(db))
  }

  /// This database's device id (`syncDevice`).
  static func device(_ db: Database) throws -> UUID {
    UUID(stored: try String.fetchOne(db, sql: "SELECT id FROM syncDevice") ?? "")
  }

  public static func pending(_ db: Database) throws -> Pending? {
    guard
      let row = try Row.fetchOne(
        db, sql: "SELECT pushId, body, entries, audio FROM syncPendingPush LIMIT 1")
    else { return nil }
    let body: Data = row["body"]
    let push = try WireJSON.decoder().decode(Push.self, from: body)
    let entries = try JSONDecoder().decode(
      [Entry].self, from: Data((row["entries"] as String).utf8))
    return Pending(
      pushID: UUID(stored: row["pushId"]), body: body, entries: entries,
      audio: try JSONDecoder().decode([AudioHash].self, from: Data((row["audio"] as String).utf8)),
      syncUps: push.syncUps.count { syncUp in
        entries.contains { $0.kind == "syncUp" && $0.entityId == syncUp.id.lowercasedString }
      }, meetings: push.meetings.count, people: push.people.count,
      blockers: push.blockers.count)
  }

  /// The audio files of meetings waiting in the outbox (not set aside): what to hash before
  /// `prepare`.
  static func audioFiles(_ db: Database) throws -> [String: String] {
    var files: [String: String] = [:]
    for row in try Row.fetchAll(
      db,
      sql: """
        SELECT meeting.id, meeting.audioFile FROM syncOutbox
        JOIN meeting ON meeting.id = syncOutbox.entityId AND syncOutbox.kind = 'meeting'
        WHERE meeting.isFinished AND meeting.audioFile IS NOT NULL
          AND NOT \(SetAside.isSetAside(kind: "'meeting'", entity: "meeting.id"))
          AND NOT \(SetAside.syncUpIsSetAside("meeting.syncUpId"))
        """)
    {
      files[row["id"]] = row["audioFile"]
    }
    return files
  }

  /// The next push from the outbox (sync-ups first, then meetings, in the order they first
  /// changed), at most about `byteLimit` of JSON, stored as pending; nil when nothing waits.
  /// A meeting's sync-up goes with it, so every push stands on its own. What is set aside
  /// (`SetAside`) stays out, and so do the meetings of a sync-up set aside.
  public static func prepare(
    _ db: Database, audio hashes: [String: AudioHash], byteLimit: Int = 8 << 20
  ) throws -> Pending? {
    let rows = try Row.fetchAll(
      db,
      sql: """
        SELECT kind, entityId, generation FROM syncOutbox
        WHERE NOT \(SetAside.isSetAside(kind: "syncOutbox.kind", entity: "syncOutbox.entityId"))
          AND NOT (kind = 'meeting'
            AND \(SetAside.syncUpIsSetAside(SetAside.syncUpOfMeeting("syncOutbox.entityId"))))
        ORDER BY kind = 'meeting', rowid
        """)
    let people = try Int.fetchOne(db, sql: "SELECT count(*) FROM \(PeopleSync.waiting)") ?? 0
    let closings = try BlockerSync.waiting(db)
    guard !rows.isEmpty || people > 0 || closings > 0 else { return nil }
    let encoder = WireJSON.encoder()
    var entries: [Entry] = []
    var syncUps: [SyncUpDocument] = []
    var meetings: [MeetingDocument] = []
    var audio: [AudioHash] = []
    var size = 0
    // Sync-ups this push changes (not those sent along with their meetings).
    var changedSyncUps = 0
    for row in rows {
      let entry = Entry(kind: row["kind"], entityId: row["entityId"], generation: row["generation"])
      if entry.kind == "syncUp" {
        if let document = try StoredDocuments.syncUp(entry.entityId, db) {
          size += try encoder.encode(document).count
          syncUps.append(document)
          changedSyncUps += 1
        }
      } else {
        let hash = hashes[entry.entityId]
        if let document = try StoredDocuments.meeting(entry.entityId, audio: hash, db) {
          let bytes = try encoder.encode(document).count
          if !meetings.isEmpty, size + bytes > byteLimit { break }
          size += bytes
          meetings.append(document)
          if document.audio != nil, let hash { audio.append(hash) }
          let parent = document.syncUpID.lowercasedString
          if !syncUps.contains(where: { $0.id == document.syncUpID }),
            let syncUp = try StoredDocuments.syncUp(parent, db)
          {
            syncUps.append(syncUp)
          }
        }
      }
      // Rows without a document (a meeting deleted by a pull) leave the outbox with this push.
      entries.append(entry)
    }
    var learned: [PersonDocument] = []
    if entries.count == rows.count {
      try PeopleSync.prepare(
        db, people: &learned, syncUps: &syncUps, entries: &entries, size: &size,
        byteLimit: byteLimit)
    }
    var blockers: [BlockerClosure] = []
    if entries.count == rows.count + people {
      // After the meetings they are in, so the server has them.
      try BlockerSync.prepare(
        db, blockers: &blockers, entries: &entries, size: &size, byteLimit: byteLimit)
    }
    guard !entries.isEmpty else { return nil }
    let pushID = UUID()
    let push = Push(
      device: try device(db), pushID: pushID, syncUps: syncUps, meetings: meetings,
      people: learned, blockers: blockers)
    let body = try encoder.encode(push)
    let pending = Pending(
      pushID: pushID, body: body, entries: entries, audio: audio, syncUps: changedSyncUps,
      meetings: meetings.count, people: learned.count, blockers: blockers.count)
    try db.execute(
      sql: "INSERT INTO syncPendingPush (pushId, body, entries, audio) VALUES (?, ?, ?, ?)",
      arguments: [
        pushID.lowercasedString, body,
        String(decoding: try JSONEncoder().encode(entries), as: UTF8.self),
        String(decoding: try JSONEncoder().encode(audio), as: UTF8.self),
      ])
    return pending
  }

  /// The server has the push: its outbox rows go, unless they changed while it was in flight,
  /// and so do the tombstones of what it deleted.
  public static func acknowledge(_ pending: Pending, _ db: Database) throws {
    for entry in pending.entries {
      try SetAside.forget(kind: entry.kind, entityID: entry.entityId, db)
      if entry.kind == "person" {
        try PeopleSync.acknowledge(entry, db)
        continue
      }
      if entry.kind == "blocker" {
        try BlockerSync.acknowledge(entry, db)
        continue
      }
      try db.execute(
        sql: "DELETE FROM syncOutbox WHERE kind = ? AND entityId = ? AND generation = ?",
        arguments: [entry.kind, entry.entityId, entry.generation])
      guard db.changesCount > 0 else { continue }
      try db.execute(
        sql: """
          DELETE FROM syncTombstone WHERE entityId = ?
            AND NOT EXISTS (SELECT 1 FROM syncOutbox WHERE entityId = ?)
          """, arguments: [entry.entityId, entry.entityId])
    }
    try db.execute(
      sql: "DELETE FROM syncPendingPush WHERE pushId = ?",
      arguments: [pending.pushID.lowercasedString])
  }
}

/// A meeting's audio file, hashed.
public struct AudioHash: Codable, Sendable, Equatable {
  public var sha256: String
  public var size: Int64
  /// Relative to the data directory.
  public var file: String

  public init(sha256: String, size: Int64, file: String) {
    self.sha256 = sha256
    self.size = size
    self.file = file
  }

  public var type: String {
    switch (file as NSString).pathExtension.lowercased() {
    case "wav": "audio/wav"
    case "ogg": "audio/ogg"
    default: "audio/flac"
    }
  }
}

/// The push side as the team sync calls it, each one read or one transaction.
extension SyncUpsDatabase {
  /// The push stored before it was sent and not yet acknowledged, if there is one.
  public func pendingPush() async throws -> Outbox.Pending? {
    try await writer.read { try Outbox.pending($0) }
  }

  /// The audio files of finished meetings waiting to be pushed, by meeting id.
  public func audioFilesWaitingToBePushed() async throws -> [String: String] {
    try await writer.read { try Outbox.audioFiles($0) }
  }

  /// Stores the next push from the outbox (see `Outbox.prepare`); nil when nothing waits.
  public func preparePush(audio hashes: [String: AudioHash]) async throws -> Outbox.Pending? {
    try await writer.write { try Outbox.prepare($0, audio: hashes) }
  }

  /// The server has the push: what it carried leaves the outbox (see `Outbox.acknowledge`).
  public func acknowledgePush(_ pending: Outbox.Pending) async throws {
    try await writer.write { try Outbox.acknowledge(pending, $0) }
  }
}
