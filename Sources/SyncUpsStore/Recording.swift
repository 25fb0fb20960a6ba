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
    try writable()
    try locks.acquire(meeting.id)
    do {
      try write { db in
        guard try SyncUpRecord.exists(db, id: syncUpID) else {
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
      guard let meeting = try MeetingRecord.fetchOne(db, id: meetingID) else {
        throw SyncUpsDatabaseError.noSuchMeeting(id: meetingID)
      }
      guard !meeting.isFinished else {
        throw SyncUpsDatabaseError.other(
          reason: "meeting \(meetingID.rawValue.lowercasedString) is finished already")
      }
      let last = try Int.fetchOne(
        db, SegmentRecord.of(meetingID).select(max(SegmentRecord.Columns.ordinal)))
      let ordinal = (last ?? -1) + 1
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

  /// How a recording ends: its lock goes, and a meeting its sync-up's save did not finish
  /// (`SyncUpsRequest`, through `finishRecording(_:_:)`: the normal way) is finished with
  /// exactly `audioFile` (nil: its audio was not kept) and what it committed. False when it
  /// was finished already: by that save, or by a recovery; or when it is gone, deleted with
  /// its sync-up once that save had finished it (a meeting being recorded cannot be deleted).
  @discardableResult
  public func finishRecording(_ meetingID: Meeting.ID, audioFile: String?) throws -> Bool {
    defer { locks.release(meetingID) }
    let finished = try read { db in
      try MeetingRecord.fetchOne(db, id: meetingID)?.isFinished
    }
    guard finished == false else { return false }
    return try write { db in
      if audioFile == nil {
        _ = try MeetingRecord.unfinished(meetingID)
          .updateAll(db, MeetingRecord.Columns.audioFile.set(to: nil))
      }
      return try Self.finish(meetingID, audioFile: audioFile, db)
    }
  }

  /// A recording whose meeting was saved (its sync-up's save finished its row, once) lets it
  /// go: its lock, so the meeting is not taken for one still being recorded.
  public func releaseRecording(_ meetingID: Meeting.ID) {
    locks.release(meetingID)
  }

  /// Finishes an unfinished meeting with the segments it committed: its length is their end.
  static func finish(_ meetingID: Meeting.ID, audioFile: String?, _ db: Database) throws -> Bool {
    guard var record = try MeetingRecord.fetchOne(db, id: meetingID) else {
      throw SyncUpsDatabaseError.noSuchMeeting(id: meetingID)
    }
    guard !record.isFinished else { return false }
    record.isFinished = true
    record.audioFile = (audioFile ?? record.audioFile).map { _ in
      DataDirectory.audioFile(of: meetingID)
    }
    record.length =
      try Double.fetchOne(
        db, SegmentRecord.of(meetingID).select(max(SegmentRecord.Columns.endTime))) ?? 0
    try record.update(db)
    return true
  }

  /// Deletes an unfinished meeting and its segments; returns its audio file (relative to the
  /// data directory), for the caller to delete.
  @discardableResult
  public func discard(_ meetingID: Meeting.ID) throws -> String? {
    defer { locks.release(meetingID) }
    return try write { db in
      guard let meeting = try MeetingRecord.fetchOne(db, id: meetingID), !meeting.isFinished
      else { return nil }
      try meeting.delete(db)
      return meeting.derivedAudioFile
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
      let id: Meeting.ID = row["id"]
      let audioFile: String? = row["audioFile"]
      return UnfinishedMeeting(
        syncUpID: row["syncUpId"],
        syncUpTitle: row["title"],
        meetingID: id,
        date: Date(timeIntervalSince1970: row["date"]),
        segmentCount: row["segmentCount"],
        // As stored: recovery adopts it by the derived rule (`adoptedAudio`), or drops it.
        audioFile: audioFile,
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
    locks.removeStale()
    for var meeting in try unfinished() where !meeting.isActive {
      // Its audio by the derived name (a recording by an older syncups is renamed to it).
      meeting.audioFile = directory?.adoptedAudio(
        of: meeting.meetingID, claimed: meeting.audioFile, moving: true)
      // Nothing heard and not a second of audio, as `RecordMeeting` drops a meeting ended so
      // soon: the file goes first (a crash then leaves a row whose audio is gone, which the
      // next recovery drops the same way).
      if meeting.segmentCount == 0, let audio = meeting.audioFile,
        let directory, directory.secondsOfAudio(audio, startedAt: meeting.date) < 1
      {
        try? FileManager.default.removeItem(at: directory.url.appendingPathComponent(audio))
        meeting.audioFile = nil
      }
      let finished = try write { db in
        let unfinished = MeetingRecord.unfinished(meeting.meetingID)
        if meeting.isEmpty { return try unfinished.deleteAll(db) == 1 }
        _ = try unfinished.updateAll(
          db, MeetingRecord.Columns.audioFile.set(to: meeting.audioFile))
        return try Self.finish(meeting.meetingID, audioFile: nil, db)
      }
      if finished { recovered.append(meeting) }
    }
    return recovered
  }
}

extension SyncUpsDatabase {
  /// True while a recording of the sync-up runs, in this process or another.
  public func isRecording(_ syncUpID: SyncUp.ID) throws -> Bool {
    try unfinished().contains { $0.syncUpID == syncUpID && $0.isActive }
  }
}
