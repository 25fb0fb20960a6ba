import AudioCore
import Foundation
import GRDB
import SyncUpsWire

// Meetings pulled from the server: each merges with the one here (segment by segment), waits
// for its sync-up, or brings back a sync-up this laptop deleted.
extension PulledChanges {
  /// A pulled meeting merged with the one here (`MeetingDocument.merged`): the meeting from
  /// the later clock, its segments one by one by their own clocks, so a correction made here
  /// and not yet pushed stays. A deletion later than this one's clock deletes it. One into a
  /// sync-up this laptop deleted and has not yet pushed brings the sync-up back; one whose
  /// sync-up has not arrived yet waits in `syncParked`.
  static func applyPulledMeeting(
    _ remote: MeetingDocument, audioFile: String?, _ applied: inout Applied, _ db: Database
  ) throws -> Bool {
    let id = remote.id.lowercasedString
    let syncUpID = remote.syncUpID.lowercasedString
    let local = try StoredDocuments.clocks(id, db)[.meeting] ?? StoredDocuments.zero
    let row = try Row.fetchOne(
      db, sql: "SELECT isFinished, audioFile FROM meeting WHERE id = ?", arguments: [id])
    try db.execute(sql: "DELETE FROM syncParked WHERE meetingId = ?", arguments: [id])
    // Never a recording in progress.
    if let row, !(row["isFinished"] as Bool) { return false }
    if row != nil, !remote.deleted, remote.clock <= local {
      return try mergeSegments(of: remote, into: id, &applied, db)
    }
    guard remote.clock > local else { return false }
    if remote.deleted {
      try StoredDocuments.setClock(id, .meeting, remote.clock, db)
      guard let row else { return false }
      if row["audioFile"] as String? != nil {
        applied.deletedAudio.append(DataDirectory.audioFile(of: remote.meetingID))
      }
      try SyncUpsDatabase.deleteMeetings([remote.meetingID], db)
      return true
    }
    if try !syncUpExists(syncUpID, db) {
      guard try restoreDeletedSyncUp(syncUpID, db) else {
        try parkMeeting(remote, db)
        return false
      }
      applied.syncUps += 1
    }
    var merged = remote.withSegmentClocks
    if row != nil, let here = try StoredDocuments.meeting(id, audio: nil, db) {
      merged = here.merged(with: remote)
      applied.changedSegments[remote.id, default: []] += merged.changedSegments(from: here)
    }
    try replaceMeeting(with: merged, audioFile: audioFile, db)
    try setClocks(of: merged, db)
    return true
  }

  /// A pulled meeting no later than the one here: only its segments whose own clocks are
  /// later are taken (a correction made elsewhere of a segment this laptop left alone).
  private static func mergeSegments(
    of remote: MeetingDocument, into id: String, _ applied: inout Applied, _ db: Database
  ) throws -> Bool {
    guard let here = try StoredDocuments.meeting(id, audio: nil, db) else { return false }
    let merged = here.merged(with: remote)
    let changed = merged.changedSegments(from: here)
    guard !changed.isEmpty else { return false }
    for index in changed {
      try SyncUpsDatabase.setSegment(
        Meeting.Segment(merged.segments[index]), ordinal: index, of: remote.meetingID, db)
    }
    try setClocks(of: merged, db)
    applied.changedSegments[remote.id, default: []] += changed
    return true
  }

  /// The meeting's clock and each segment's, as a merge left them (the recognition's clock
  /// is not written: it is what a segment without one has).
  private static func setClocks(of meeting: MeetingDocument, _ db: Database) throws {
    let id = meeting.id.lowercasedString
    try StoredDocuments.setClock(id, .meeting, meeting.clock, db)
    for index in meeting.segments.indices {
      let clock = meeting.clock(ofSegment: index)
      guard clock != MeetingDocument.recognitionClock else { continue }
      try StoredDocuments.setClock(id, .segment(ordinal: index), clock, db)
    }
  }

  /// Keeps a meeting that came before its sync-up until the sync-up arrives.
  private static func parkMeeting(_ remote: MeetingDocument, _ db: Database) throws {
    try db.execute(
      sql: "INSERT OR REPLACE INTO syncParked (meetingId, syncUpId, document) VALUES (?, ?, ?)",
      arguments: [
        remote.id.lowercasedString, remote.syncUpID.lowercasedString,
        try WireJSON.encoder().encode(remote),
      ])
  }

  /// Applies the parked meetings whose sync-up is here now.
  static func applyParkedMeetings(
    directory: URL?, _ applied: inout Applied, _ db: Database
  ) throws {
    for row in try Row.fetchAll(
      db,
      sql: """
        SELECT document FROM syncParked WHERE syncUpId IN (SELECT id FROM syncUp)
        """)
    {
      let document = try WireJSON.decoder().decode(MeetingDocument.self, from: row["document"])
      let file = audioFile(for: document, in: directory)
      if try applyPulledMeeting(document, audioFile: file, &applied, db) { applied.meetings += 1 }
    }
  }

  /// The audio already downloaded for a parked meeting, if it is there.
  private static func audioFile(for document: MeetingDocument, in directory: URL?) -> String? {
    guard document.audio != nil, let directory else { return nil }
    let file = DataDirectory.audioFile(of: document.meetingID)
    return FileManager.default.fileExists(atPath: directory.appendingPathComponent(file).path)
      ? file : nil
  }

  /// The meeting's row and segments as the document has them (a finished meeting), by the
  /// same write as every synced meeting; its segments' clocks start over from the document's.
  private static func replaceMeeting(
    with remote: MeetingDocument, audioFile: String?, _ db: Database
  ) throws {
    var meeting = Meeting(
      id: remote.meetingID, date: remote.date, transcript: "",
      segments: remote.segments.map(Meeting.Segment.init),
      audioFile: remote.audio == nil ? nil : audioFile, length: remote.length)
    meeting.transcript = meeting.joinedSegmentTexts
    try SyncUpsDatabase.saveSyncedMeeting(meeting, syncUpID: SyncUp.ID(remote.syncUpID), db)
    try db.execute(
      sql: "DELETE FROM syncClock WHERE entityId = ? AND field LIKE ?",
      arguments: [remote.id.lowercasedString, ClockedField.segmentPrefix + "%"])
  }

  /// Brings back a sync-up this laptop deleted (its deletion not yet pushed), because a meeting
  /// recorded elsewhere arrived for it: its deletion is undone by a later write of its own.
  static func restoreDeletedSyncUp(_ syncUpID: String, _ db: Database) throws -> Bool {
    guard let was = try StoredDocuments.syncUp(syncUpID, db), was.deleted.value,
      try Bool.fetchOne(
        db, sql: "SELECT EXISTS (SELECT 1 FROM syncOutbox WHERE kind = 'syncUp' AND entityId = ?)",
        arguments: [syncUpID]) ?? false
    else { return false }
    try insertSyncUp(was, db)
    // Its deletion is undone by a change of its own, later than it: stamped and queued.
    try db.execute(
      sql: SyncSchema.stamp("syncUp", ":id", [.syncUp(.deleted)]), arguments: ["id": syncUpID])
    return true
  }

  /// The hybrid clock's receive rule: this laptop's next change is later than anything seen.
  static func receiveClocks(of page: ChangesPage, _ db: Database) throws {
    var latest =
      (page.meetings.map(\.clock) + page.people.map(\.clock)).max() ?? StoredDocuments.zero
    for document in page.syncUps { latest = max(latest, document.clock) }
    try db.execute(
      sql: """
        UPDATE syncDevice SET milliseconds = ?, counter = ?
        WHERE milliseconds < ? OR (milliseconds = ? AND counter < ?)
        """,
      arguments: [
        latest.milliseconds, latest.counter, latest.milliseconds, latest.milliseconds,
        latest.counter,
      ])
  }
}

extension MeetingDocument {
  var meetingID: Meeting.ID { Meeting.ID(id) }
}
