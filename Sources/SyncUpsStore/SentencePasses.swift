import Foundation
import GRDB

/// A meeting whose second pass (whole sentences) had not caught up when the meeting ended: it
/// was saved with its live transcript and waits for the pass to run again from its audio.
struct SentencePassRecord: Codable, Equatable, FetchableRecord, PersistableRecord, Sendable {
  static let databaseTableName = "sentencePass"
  var meetingId: Meeting.ID
  /// What the pass may use of what the sync-up learned (bits: 1 its words, 2 its voices).
  var learning = 3
}

/// The second passes still to run: noted when a recording ends without them, claimed by one
/// process at a time, done in one transaction that replaces the live transcript.
extension SyncUpsDatabase {
  /// Notes that the meeting's sentences are still to come (once, however often it is said).
  /// `learning` is what it may use of what the sync-up learned (bits: 1 words, 2 voices).
  public func deferSentencePass(_ meetingID: Meeting.ID, learning: Int = 3) throws {
    try writable()
    try write { db in
      try SentencePassRecord(meetingId: meetingID, learning: learning).insert(
        db, onConflict: .ignore)
    }
  }

  /// What the meeting's pass still to run may use of what its sync-up learned (bits: 1 words,
  /// 2 voices); everything when there is none.
  public func sentencePassLearning(_ meetingID: Meeting.ID) throws -> Int {
    try read { db in try SentencePassRecord.fetchOne(db, key: meetingID)?.learning ?? 3 }
  }

  /// The finished meetings with kept audio whose sentences are still to come, oldest first
  /// (a process may be working on one: `claimSentencePass`).
  public func pendingSentencePasses() throws -> [Meeting.ID] {
    try read { db in
      try Meeting.ID.fetchAll(
        db,
        sql: """
          SELECT meeting.id FROM sentencePass JOIN meeting ON meeting.id = sentencePass.meetingId
          WHERE meeting.isFinished AND meeting.audioFile IS NOT NULL ORDER BY meeting.date
          """)
    }
  }

  /// Takes the meeting's pass for this process; false when another process has it.
  public func claimSentencePass(_ meetingID: Meeting.ID) -> Bool {
    (try? locks.acquire(meetingID)) != nil
  }

  /// Lets a claimed pass go (done or not).
  public func releaseSentencePass(_ meetingID: Meeting.ID) {
    locks.release(meetingID)
  }

  /// The pass is done: the meeting's segments become `sentences` and its transcript theirs, in
  /// one transaction, once. False when there was nothing to do (done already, or the meeting
  /// was deleted meanwhile).
  @discardableResult
  public func finishSentencePass(
    _ meetingID: Meeting.ID, sentences: [Meeting.Segment]
  ) throws -> Bool {
    try write { db in
      guard try SentencePassRecord.deleteOne(db, key: meetingID),
        var record = try MeetingRecord.fetchOne(db, id: meetingID), record.isFinished
      else { return false }
      guard !sentences.isEmpty else { return true }
      try Self.replaceSegments(of: meetingID, with: sentences, db)
      record.transcript = nil
      try record.update(db)
      return true
    }
  }

  /// The pass cannot be done (its audio is gone or unreadable): the live transcript stays.
  public func dropSentencePass(_ meetingID: Meeting.ID) throws {
    try write { db in _ = try SentencePassRecord.deleteOne(db, key: meetingID) }
  }
}

extension SyncUpsDatabase {
  /// A meeting with its segments, and its sync-up (attendees, the words its decoder expects):
  /// what a sentence pass reads; nil when either is gone.
  public func meetingAndItsSyncUp(_ meetingID: Meeting.ID) throws -> (Meeting, SyncUp)? {
    try read { db in
      guard let meeting = try MeetingTranscriptRequest(meetingID: meetingID).fetch(db),
        let syncUpID = try MeetingRecord.fetchOne(db, id: meetingID)?.syncUpId,
        let syncUp = try SyncUpRequest(syncUpID: syncUpID).fetch(db)
      else { return nil }
      return (meeting, syncUp)
    }
  }
}
