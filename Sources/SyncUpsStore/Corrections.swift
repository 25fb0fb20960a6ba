import Foundation
import GRDB

/// Why a segment cannot be corrected, in words.
public enum CorrectionProblem: Error, Equatable, CustomStringConvertible {
  case noSuchMeeting
  /// The meeting is still being recorded.
  case beingRecorded
  /// Its whole sentences are still to replace the live transcript (`SentencePass`).
  case sentencesPending
  /// `number` is not one of its segments (1...count; count 0: it has none).
  case noSuchSegment(number: Int, count: Int)

  public var description: String {
    switch self {
    case .noSuchMeeting:
      "the meeting was deleted meanwhile; nothing was changed"
    case .beingRecorded:
      "the meeting is still being recorded; correct it once it is saved"
    case .sentencesPending:
      "the meeting's transcript is still being finished (whole sentences from its audio); "
        + "try again in a minute"
    case .noSuchSegment(let number, let count):
      count == 0
        ? "the meeting has no segments to correct"
        : "there is no segment \(number): the meeting's segments are numbered 1 to \(count) "
          + "('syncups transcript --numbers' shows them)"
    }
  }
}

/// Corrections of a finished meeting's segments: the segment's own columns take the correction
/// (so the search index, the exports and the team sync follow it), what the recogniser gave is
/// kept beside it, once, until the correction is undone.
extension SyncUpsDatabase {
  /// Corrects segment `number` (1 = the first) of a finished meeting, in one transaction, and
  /// returns it as saved. Nothing is written when the correction changes nothing.
  @discardableResult
  public func correctSegment(
    _ meetingID: Meeting.ID, number: Int, _ change: SegmentChange
  ) throws -> Meeting.Segment {
    try writable()
    return try write { db in
      try Self.changeSegment(meetingID, number: number, db, checked: true) { $0.corrected(change) }
    }
  }

  /// Puts back what the recogniser gave for segment `number`, dropping its correction.
  @discardableResult
  public func restoreRecognition(_ meetingID: Meeting.ID, number: Int) throws -> Meeting.Segment {
    try writable()
    return try write { db in
      try Self.changeSegment(meetingID, number: number, db) { $0.recognised }
    }
  }

  /// `checked`: the changed segment must keep the push rules (`MeetingDocument.Segment.check`),
  /// whichever front end made the change, so no correction is one every push then refuses.
  private static func changeSegment(
    _ meetingID: Meeting.ID, number: Int, _ db: Database, checked: Bool = false,
    _ change: (Meeting.Segment) -> Meeting.Segment
  ) throws -> Meeting.Segment {
    guard let meeting = try MeetingRecord.fetchOne(db, id: meetingID) else {
      throw CorrectionProblem.noSuchMeeting
    }
    guard meeting.isFinished else { throw CorrectionProblem.beingRecorded }
    guard try !SentencePassRecord.exists(db, key: meetingID) else {
      throw CorrectionProblem.sentencesPending
    }
    guard
      let record = try SegmentRecord.of(meetingID)
        .filter(SegmentRecord.Columns.ordinal == number - 1).fetchOne(db)
    else {
      let count = try SegmentRecord.of(meetingID).fetchCount(db)
      throw CorrectionProblem.noSuchSegment(number: number, count: count)
    }
    let before = try record.segment()
    let after = change(before)
    guard after != before else { return before }
    if checked { try after.document.check(number: number) }
    try setSegment(after, ordinal: record.ordinal, of: meetingID, db)
    return after
  }
}
