import AudioCore
import Foundation
import GRDB

/// The writes of meetings in a sync-up's history and of their segments, one per intent, each
/// inside the caller's transaction: what a local change and a change pulled from the team both
/// go through (`PulledChanges`), so the two can never write these rows two ways.
extension SyncUpsDatabase {
  /// A finished meeting as another laptop saved it: its row and its segments replace what was
  /// here (nothing, or an older version of it).
  static func saveSyncedMeeting(_ meeting: Meeting, syncUpID: SyncUp.ID, _ db: Database) throws {
    try MeetingRecord(meeting, syncUpID: syncUpID, isFinished: true).save(db)
    try replaceSegments(of: meeting.id, with: meeting.segments, db)
  }

  /// A meeting's segments become `segments`, numbered in order from 0.
  static func replaceSegments(
    of meetingID: Meeting.ID, with segments: [Meeting.Segment], _ db: Database
  ) throws {
    _ = try SegmentRecord.of(meetingID).deleteAll(db)
    try insertSegments(segments, of: meetingID, db)
  }

  /// The segments of a meeting that has none yet, numbered in order from 0.
  static func insertSegments(
    _ segments: [Meeting.Segment], of meetingID: Meeting.ID, _ db: Database
  ) throws {
    for (ordinal, segment) in segments.enumerated() {
      try SegmentRecord(segment, meetingID: meetingID, ordinal: ordinal).insert(db)
    }
  }

  /// Segment `ordinal` (0 = the first) of a meeting takes `segment`'s speaker, text and words,
  /// and what was recognised: a correction, made here or pulled. Only the columns that differ
  /// are written; false when there is no such segment.
  @discardableResult
  static func setSegment(
    _ segment: Meeting.Segment, ordinal: Int, of meetingID: Meeting.ID, _ db: Database
  ) throws -> Bool {
    guard
      var record = try SegmentRecord.of(meetingID)
        .filter(SegmentRecord.Columns.ordinal == ordinal).fetchOne(db)
    else { return false }
    let saved = try SegmentRecord(segment, meetingID: meetingID, ordinal: ordinal)
    try record.updateChanges(db) {
      $0.speaker = saved.speaker
      $0.text = saved.text
      $0.words = saved.words
      $0.originalSpeaker = saved.originalSpeaker
      $0.originalText = saved.originalText
      $0.originalWords = saved.originalWords
    }
    return true
  }

  /// Deletes meetings with their segments.
  static func deleteMeetings(_ ids: some Collection<Meeting.ID>, _ db: Database) throws {
    _ = try MeetingRecord.deleteAll(db, ids: ids)
  }
}
