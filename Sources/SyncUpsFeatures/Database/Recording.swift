import Foundation
import GRDB

/// A meeting whose recording began and never finished.
public struct UnfinishedMeeting: Equatable, Sendable {
  public var syncUpID: SyncUp.ID
  public var syncUpTitle: String
  public var meetingID: Meeting.ID
  public var date: Date
  /// Segments committed so far.
  public var segmentCount: Int
  public var audioFile: String?
  /// A running recording (in this process or another) holds it.
  public var isActive: Bool
  /// Nothing was heard and no audio kept: recovery drops it rather than add an empty meeting.
  public var isEmpty: Bool { segmentCount == 0 && audioFile == nil }

  public init(
    syncUpID: SyncUp.ID, syncUpTitle: String, meetingID: Meeting.ID, date: Date,
    segmentCount: Int, audioFile: String?, isActive: Bool
  ) {
    self.syncUpID = syncUpID
    self.syncUpTitle = syncUpTitle
    self.meetingID = meetingID
    self.date = date
    self.segmentCount = segmentCount
    self.audioFile = audioFile
    self.isActive = isActive
  }
}

/// The recording path's writes (what `RecordingStore` does): each one a transaction on its
/// own, so a recording killed at any instant leaves exactly what was committed.
extension SyncUpsDatabase {
  /// Starts a meeting: an unfinished row (not shown in the list) that this process holds
  /// while it records. `meeting.audioFile` names the audio from the start.
  public func begin(_ meeting: Meeting, syncUpID: SyncUp.ID) throws {
    guard !isReadOnly else {
      throw SyncUpsDatabaseError.readOnly(
        url: directory?.databaseFile, reason: "it can only be read here")
    }
    try locks.acquire(meeting.id)
    do {
      try write { db in
        guard try SyncUpRecord.exists(db, key: syncUpID.rawValue.lowercasedString) else {
          throw SyncUpsDatabaseError.noSuchSyncUp(id: syncUpID)
        }
        var record = MeetingRecord(meeting, syncUpID: syncUpID, isFinished: false)
        record.transcript = nil
        try record.insert(db)
        for (ordinal, segment) in meeting.segments.enumerated() {
          try SegmentRecord(segment, meetingID: meeting.id, ordinal: ordinal).insert(db)
        }
      }
    } catch {
      locks.release(meeting.id)
      throw error
    }
  }

  /// Commits one final utterance of an unfinished meeting; returns its ordinal.
  @discardableResult
  public func append(_ segment: Meeting.Segment, meetingID: Meeting.ID) throws -> Int {
    try write { db in
      let id = meetingID.rawValue.lowercasedString
      guard
        let isFinished = try Bool.fetchOne(
          db, sql: "SELECT isFinished FROM meeting WHERE id = ?", arguments: [id])
      else { throw SyncUpsDatabaseError.noSuchMeeting(id: meetingID) }
      guard !isFinished else {
        throw SyncUpsDatabaseError.other(reason: "meeting \(id) is finished already")
      }
      let ordinal =
        try Int.fetchOne(
          db, sql: "SELECT coalesce(max(ordinal) + 1, 0) FROM segment WHERE meetingId = ?",
          arguments: [id]) ?? 0
      try SegmentRecord(segment, meetingID: meetingID, ordinal: ordinal).insert(db)
      return ordinal
    }
  }

  /// Marks the meeting finished (it joins its sync-up's history), with its length and audio
  /// file, in one transaction. Returns false when it was finished already (by a recovery).
  @discardableResult
  public func finish(_ meetingID: Meeting.ID, audioFile: String? = nil) throws -> Bool {
    defer { locks.release(meetingID) }
    return try write { db in try Self.finish(meetingID, audioFile: audioFile, db) }
  }

  /// How a recording ends normally: finished with exactly `audioFile` (nil: its audio was not
  /// kept), in one transaction; its lock goes. False when it was finished already (by the
  /// list's save, which names the audio the same way, or by a recovery).
  @discardableResult
  public func finishRecording(_ meetingID: Meeting.ID, audioFile: String?) throws -> Bool {
    defer { locks.release(meetingID) }
    return try write { db in
      if audioFile == nil {
        try db.execute(
          sql: "UPDATE meeting SET audioFile = NULL WHERE id = ? AND isFinished = 0",
          arguments: [meetingID.rawValue.lowercasedString])
      }
      return try Self.finish(meetingID, audioFile: audioFile, db)
    }
  }

  static func finish(_ meetingID: Meeting.ID, audioFile: String?, _ db: Database) throws -> Bool {
    let id = meetingID.rawValue.lowercasedString
    guard try MeetingRecord.exists(db, key: id) else {
      throw SyncUpsDatabaseError.noSuchMeeting(id: meetingID)
    }
    try db.execute(
      sql: """
        UPDATE meeting SET isFinished = 1, audioFile = coalesce(?, audioFile),
          length = (SELECT coalesce(max(endTime), 0) FROM segment WHERE meetingId = meeting.id)
        WHERE id = ? AND isFinished = 0
        """,
      arguments: [audioFile, id])
    return db.changesCount == 1
  }

  /// Deletes an unfinished meeting and its segments; returns its audio file (relative to the
  /// data directory), for the caller to delete.
  @discardableResult
  public func discard(_ meetingID: Meeting.ID) throws -> String? {
    defer { locks.release(meetingID) }
    return try write { db in
      let id = meetingID.rawValue.lowercasedString
      let audio = try String.fetchOne(
        db, sql: "SELECT audioFile FROM meeting WHERE id = ? AND isFinished = 0", arguments: [id])
      try db.execute(sql: "DELETE FROM meeting WHERE id = ? AND isFinished = 0", arguments: [id])
      return audio
    }
  }

  /// Every unfinished meeting, oldest first, each telling whether a recording still runs.
  public func unfinished() throws -> [UnfinishedMeeting] {
    let rows = try read { db in
      try Row.fetchAll(
        db,
        sql: """
          SELECT meeting.id, meeting.syncUpId, meeting.date, meeting.audioFile, syncUp.title,
            meeting.segmentCount
          FROM meeting JOIN syncUp ON syncUp.id = meeting.syncUpId
          WHERE meeting.isFinished = 0 ORDER BY meeting.date
          """)
    }
    return rows.map { row in
      let id = Meeting.ID(UUID(databaseString: row["id"]))
      return UnfinishedMeeting(
        syncUpID: SyncUp.ID(UUID(databaseString: row["syncUpId"])),
        syncUpTitle: row["title"],
        meetingID: id,
        date: Date(timeIntervalSince1970: row["date"]),
        segmentCount: row["segmentCount"],
        audioFile: row["audioFile"],
        isActive: locks.isActive(id)
      )
    }
  }

  /// Finishes what killed recordings left, each with what it committed, and returns them.
  /// Meetings still being recorded are left alone; a meeting is finished once only, even by
  /// two processes recovering at the same time. An audio file that does not exist is dropped;
  /// a recording that left neither an utterance nor audio is deleted (returned `isEmpty`).
  public func recoverUnfinished() throws -> [UnfinishedMeeting] {
    var recovered: [UnfinishedMeeting] = []
    for var meeting in try unfinished() where !meeting.isActive {
      if let audio = meeting.audioFile, let directory,
        !FileManager.default.fileExists(atPath: directory.url.appendingPathComponent(audio).path)
      {
        meeting.audioFile = nil
      }
      let finished = try write { db in
        if meeting.isEmpty {
          try db.execute(
            sql: "DELETE FROM meeting WHERE id = ? AND isFinished = 0",
            arguments: [meeting.meetingID.rawValue.lowercasedString])
          return db.changesCount == 1
        }
        if meeting.audioFile == nil {
          try db.execute(
            sql: "UPDATE meeting SET audioFile = NULL WHERE id = ? AND isFinished = 0",
            arguments: [meeting.meetingID.rawValue.lowercasedString])
        }
        return try Self.finish(meeting.meetingID, audioFile: nil, db)
      }
      if finished { recovered.append(meeting) }
    }
    return recovered
  }
}

extension SyncUpsDatabase {
  /// `finish` that runs `beforeCommit` inside its transaction: the tests' probe kills itself
  /// there to show that a half-finished meeting is never seen.
  package func finishForTesting(_ meetingID: Meeting.ID, beforeCommit: () -> Void) throws {
    defer { locks.release(meetingID) }
    try write { db in
      _ = try Self.finish(meetingID, audioFile: nil, db)
      beforeCommit()
    }
  }
}

extension SyncUpsDatabase {
  /// The audio files (relative to the data directory) of a sync-up's meetings, finished or
  /// not: what to delete with it.
  public func audioFiles(of syncUpID: SyncUp.ID) throws -> [String] {
    try read { db in
      try String.fetchAll(
        db, sql: "SELECT audioFile FROM meeting WHERE syncUpId = ? AND audioFile IS NOT NULL",
        arguments: [syncUpID.rawValue.lowercasedString])
    }
  }

  /// True while a recording of the sync-up runs, in this process or another.
  public func isRecording(_ syncUpID: SyncUp.ID) throws -> Bool {
    try unfinished().contains { $0.syncUpID == syncUpID && $0.isActive }
  }
}
