import Foundation
import GRDB
import SyncUpsWire

/// What is learned of attendees, pushed and pulled as one document each (`LearnedSchema`).
enum PeopleSync {
  /// An attendee's document as this laptop has it; nil when the attendee is not here. A voice
  /// or adaptation this laptop cannot read itself (learned by an older version) is left out, as
  /// if never learned, so it never holds up a push.
  static func document(_ attendeeID: String, _ db: Database) throws -> PersonDocument? {
    guard
      let syncUpID = try String.fetchOne(
        db, sql: "SELECT syncUpId FROM attendee WHERE id = ?", arguments: [attendeeID])
    else { return nil }
    let voice = try Row.fetchOne(
      db, sql: "SELECT meetings, seconds, model FROM voiceProfile WHERE attendeeId = ?",
      arguments: [attendeeID]
    ).map {
      PersonDocument.Voice(meetings: $0["meetings"], seconds: $0["seconds"], model: $0["model"])
    }.flatMap { $0.isReadable ? $0 : nil }
    let adaptation = try Row.fetchOne(
      db, sql: "SELECT seconds, transform FROM speakerAdaptation WHERE attendeeId = ?",
      arguments: [attendeeID]
    ).map { PersonDocument.Adaptation(seconds: $0["seconds"], transform: $0["transform"]) }
      .flatMap { $0.isReadable ? $0 : nil }
    let forgotten = try Double.fetchOne(
      db, sql: "SELECT forgottenAt FROM attendeeForgotten WHERE attendeeId = ?",
      arguments: [attendeeID])
    return PersonDocument(
      attendeeID: UUID(stored: attendeeID), syncUpID: UUID(stored: syncUpID), voice: voice,
      adaptation: adaptation, forgotten: forgotten.map(Date.init(timeIntervalSince1970:)),
      clock: try StoredDocuments.clocks(attendeeID, db)[.learned] ?? StoredDocuments.zero)
  }

  /// The queued documents not set aside (nor waiting with their sync-up set aside), as SQL rows
  /// of `attendeeId, generation, queued` (order by `queued`: the order they were queued).
  static let waiting = """
    (SELECT attendeeId, generation, syncPeopleOutbox.rowid AS queued FROM syncPeopleOutbox
      WHERE NOT \(SetAside.isSetAside(kind: "'person'", entity: "syncPeopleOutbox.attendeeId"))
        AND NOT \(SetAside.syncUpIsSetAside(
          "(SELECT syncUpId FROM attendee WHERE id = syncPeopleOutbox.attendeeId)")))
    """

  /// The queued documents, each with its sync-up (unless the push has it already), while the
  /// push stays under `byteLimit`; every entry taken leaves the outbox with the push.
  static func prepare(
    _ db: Database, people: inout [PersonDocument], syncUps: inout [SyncUpDocument],
    entries: inout [Outbox.Entry], size: inout Int, byteLimit: Int
  ) throws {
    let encoder = WireJSON.encoder()
    for row in try Row.fetchAll(
      db, sql: "SELECT attendeeId, generation FROM \(waiting) ORDER BY queued")
    {
      let entry = Outbox.Entry(
        kind: "person", entityId: row["attendeeId"], generation: row["generation"])
      if let document = try document(entry.entityId, db) {
        var bytes = try encoder.encode(document).count
        let parent =
          syncUps.contains { $0.id == document.syncUpID }
          ? nil : try StoredDocuments.syncUp(document.syncUpID.lowercasedString, db)
        if let parent { bytes += try encoder.encode(parent).count }
        if !entries.isEmpty, size + bytes > byteLimit { break }
        size += bytes
        if let parent { syncUps.append(parent) }
        people.append(document)
      }
      entries.append(entry)
    }
  }

  /// Empties an acknowledged entry, unless it changed while the push was in flight.
  static func acknowledge(_ entry: Outbox.Entry, _ db: Database) throws {
    try db.execute(
      sql: "DELETE FROM syncPeopleOutbox WHERE attendeeId = ? AND generation = ?",
      arguments: [entry.entityId, entry.generation])
  }
}

extension PulledChanges {
  /// A document whose clock is later than this laptop's replaces what is known of the
  /// attendee (a forgetting removes it); one whose attendee is not here yet waits.
  static func applyPulledPerson(_ remote: PersonDocument, _ db: Database) throws -> Bool {
    let id = remote.attendeeID.lowercasedString
    let local = try StoredDocuments.clocks(id, db)[.learned] ?? StoredDocuments.zero
    guard remote.clock > local else {
      try db.execute(sql: "DELETE FROM syncParkedPerson WHERE attendeeId = ?", arguments: [id])
      return false
    }
    let here =
      try Bool.fetchOne(
        db, sql: "SELECT EXISTS (SELECT 1 FROM attendee WHERE id = ? AND syncUpId = ?)",
        arguments: [id, remote.syncUpID.lowercasedString]) ?? false
    guard here else {
      try db.execute(
        sql: "INSERT OR REPLACE INTO syncParkedPerson (attendeeId, document) VALUES (?, ?)",
        arguments: [id, try WireJSON.encoder().encode(remote)])
      return false
    }
    try db.execute(sql: "DELETE FROM syncParkedPerson WHERE attendeeId = ?", arguments: [id])
    for table in ["voiceProfile", "speakerAdaptation", "attendeeForgotten"] {
      try db.execute(sql: "DELETE FROM \(table) WHERE attendeeId = ?", arguments: [id])
    }
    if let voice = remote.voice {
      try db.execute(
        sql: "INSERT INTO voiceProfile (attendeeId, meetings, seconds, model) VALUES (?, ?, ?, ?)",
        arguments: [id, voice.meetings, voice.seconds, voice.model])
    }
    if let adaptation = remote.adaptation {
      try db.execute(
        sql: "INSERT INTO speakerAdaptation (attendeeId, seconds, transform) VALUES (?, ?, ?)",
        arguments: [id, adaptation.seconds, adaptation.transform])
    }
    if let forgotten = remote.forgotten {
      try db.execute(
        sql: "INSERT INTO attendeeForgotten (attendeeId, forgottenAt) VALUES (?, ?)",
        arguments: [id, forgotten.timeIntervalSince1970])
    }
    try StoredDocuments.setClock(id, .learned, remote.clock, db)
    return true
  }

  /// Applies the parked documents whose attendee is here now; returns how many changed.
  static func applyParkedPeople(_ db: Database) throws -> Int {
    var changed = 0
    for data in try Data.fetchAll(
      db,
      sql: """
        SELECT document FROM syncParkedPerson WHERE attendeeId IN (SELECT id FROM attendee)
        """)
    {
      let document = try WireJSON.decoder().decode(PersonDocument.self, from: data)
      if try applyPulledPerson(document, db) { changed += 1 }
    }
    return changed
  }
}
