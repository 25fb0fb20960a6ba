import Foundation
import GRDB

/// Every change to sync-ups, one function per thing a user does, each one transaction. The
/// list's `@Shared(.syncUps)` writes through them (`SyncUpsRequest.save`), and so does the
/// command line: the same rules whichever way a change comes in.
extension SyncUpsDatabase {
  /// Adds a sync-up (with its attendees, vocabulary and any meetings) after the others.
  public func add(_ syncUp: SyncUp) throws {
    try writable()
    try write { db in try Self.add(syncUp, db) }
  }

  /// Changes what `after` changes in `before` and nothing else, over the rows as they are now,
  /// so edits made meanwhile by other processes are kept: an attendee added is one row
  /// inserted, one removed is that row deleted (words likewise), a title, duration or theme is
  /// that column. A sync-up deleted meanwhile stays deleted.
  ///
  /// Returns the sync-up as it is once edited (with what others changed meanwhile), nil when
  /// it was deleted meanwhile.
  @discardableResult
  public func edit(from before: SyncUp, to after: SyncUp) throws -> SyncUp? {
    try writable()
    return try write { db in
      try Self.edit(from: before, to: after, db)
      return try SyncUpRequest(syncUpID: after.id).fetch(db)
    }
  }

  /// Deletes sync-ups with their attendees, meetings and segments, in one transaction, and
  /// returns their meetings' audio files (relative to the data directory) for the caller to
  /// delete. Refuses, deleting nothing, while a meeting of one of them is being recorded.
  public func deleteSyncUps(_ ids: [SyncUp.ID]) throws -> [String] {
    try writable()
    return try write { db in
      try refuseWhileRecording(ids, db)
      let audioFiles = try Self.audioFiles(of: ids, db)
      try Self.deleteSyncUps(ids, db)
      return audioFiles
    }
  }

  /// The audio files of the sync-ups' meetings (finished or not), or `SyncUpBeingRecorded`
  /// when one of them is being recorded: what deleting them would remove.
  public func deletionAudioFiles(_ ids: [SyncUp.ID]) throws -> [String] {
    try read { db in
      try refuseWhileRecording(ids, db)
      return try Self.audioFiles(of: ids, db)
    }
  }

  func writable() throws {
    guard !isReadOnly else {
      throw SyncUpsDatabaseError.readOnly(
        url: directory?.databaseFile, reason: "it can only be read here")
    }
  }

  private func refuseWhileRecording(_ ids: [SyncUp.ID], _ db: Database) throws {
    let recordings = try MeetingRecord.filter(MeetingRecord.Columns.isFinished == false)
      .filter(ids.contains(MeetingRecord.Columns.syncUpId)).fetchAll(db)
    guard let active = recordings.first(where: { locks.isActive($0.id) }) else { return }
    let title = try SyncUpRecord.fetchOne(db, id: active.syncUpId)?.title ?? ""
    throw SyncUpBeingRecorded(title: title)
  }

  // MARK: The writes, inside a transaction

  static func add(_ syncUp: SyncUp, _ db: Database) throws {
    let last = try Int.fetchOne(db, SyncUpRecord.select(max(SyncUpRecord.Columns.position)))
    try SyncUpRecord(syncUp, position: (last ?? -1) + 1).insert(db)
    for (position, attendee) in syncUp.attendees.enumerated() {
      try AttendeeRecord(attendee, syncUpID: syncUp.id, position: position).insert(db)
    }
    // A file edited by hand may repeat a word: the first one stays.
    for word in syncUp.vocabulary {
      try VocabularyWordRecord(syncUpId: syncUp.id, word: word).insert(db, onConflict: .ignore)
    }
    for meeting in syncUp.meetings { try addMeeting(meeting, to: syncUp.id, db) }
  }

  static func edit(from before: SyncUp, to after: SyncUp, _ db: Database) throws {
    guard var stored = try SyncUpRecord.fetchOne(db, id: after.id) else { return }
    let old = SyncUpRecord(before, position: stored.position)
    let new = SyncUpRecord(after, position: stored.position)
    try stored.updateChanges(db) { row in
      if old.title != new.title { row.title = new.title }
      if old.durationMilliseconds != new.durationMilliseconds {
        row.durationMilliseconds = new.durationMilliseconds
      }
      if old.theme != new.theme { row.theme = new.theme }
    }
    try editAttendees(from: before.attendees, to: after.attendees, of: after.id, db)
    // Words are kept in the order they were added (rowid): a reorder, or a word added before
    // the end, writes them again.
    let reordered = changesOrder(from: before.vocabulary, to: after.vocabulary)
    let words = VocabularyWordRecord.filter(VocabularyWordRecord.Columns.syncUpId == after.id)
    for word in before.vocabulary where reordered || !after.vocabulary.contains(word) {
      _ = try words.filter(VocabularyWordRecord.Columns.word == word).deleteAll(db)
    }
    for word in after.vocabulary where reordered || !before.vocabulary.contains(word) {
      try VocabularyWordRecord(syncUpId: after.id, word: word).insert(db, onConflict: .ignore)
    }
    try deleteMeetings(before.meetings.ids.subtracting(after.meetings.ids), db)
    for meeting in after.meetings where before.meetings[id: meeting.id] == nil {
      try addMeeting(meeting, to: after.id, db)
    }
  }

  /// The attendees `after` has over those `before` had: a removed one's row goes (with what was
  /// learned of it), a kept one's row stays (renamed or moved in place, what was learned kept),
  /// a new one is inserted. Positions are written only when the edit changes the order (kept
  /// ones reordered, or one added before the end); otherwise new ones go after the others.
  private static func editAttendees(
    from before: IdentifiedArrayOf<Attendee>, to after: IdentifiedArrayOf<Attendee>,
    of syncUpID: SyncUp.ID, _ db: Database
  ) throws {
    for attendee in before where after[id: attendee.id] == nil {
      _ = try AttendeeRecord.deleteOne(db, id: attendee.id)
    }
    let reordered = changesOrder(from: Array(before.ids), to: Array(after.ids))
    var next: Int?
    for (index, attendee) in after.enumerated() {
      if let previous = before[id: attendee.id] {
        var changes: [ColumnAssignment] = []
        if previous.name != attendee.name {
          changes.append(AttendeeRecord.Columns.name.set(to: attendee.name))
        }
        if reordered { changes.append(AttendeeRecord.Columns.position.set(to: index)) }
        guard !changes.isEmpty else { continue }
        try AttendeeRecord.filter(id: attendee.id).updateAll(db, changes)
      } else {
        let position =
          try reordered
          ? index
          : next
            ?? Int.fetchOne(
              db,
              AttendeeRecord.filter(AttendeeRecord.Columns.syncUpId == syncUpID)
                .select(max(AttendeeRecord.Columns.position))
            ).map { $0 + 1 } ?? 0
        try AttendeeRecord(attendee, syncUpID: syncUpID, position: position).insert(db)
        next = position + 1
      }
    }
  }

  /// The sync-up with its attendees and words as they are now, without its meetings: what an
  /// edit of its own fields starts from. Nil when it is not here.
  static func syncUpWithoutMeetings(_ id: SyncUp.ID, _ db: Database) throws -> SyncUp? {
    guard let record = try SyncUpRecord.fetchOne(db, id: id) else { return nil }
    var syncUp = record.syncUp()
    syncUp.attendees = IdentifiedArray(
      uniqueElements: try AttendeeRecord.filter(AttendeeRecord.Columns.syncUpId == id)
        .order(AttendeeRecord.Columns.position, Column.rowID).fetchAll(db).map(\.attendee))
    syncUp.vocabulary = try VocabularyWordRecord.words(of: id, db)
    return syncUp
  }

  /// The list takes the order of `ids` (those not named keep their place after them).
  static func moveSyncUps(_ ids: [SyncUp.ID], _ db: Database) throws {
    for (position, id) in ids.enumerated() {
      try SyncUpRecord.filter(id: id).filter(SyncUpRecord.Columns.position != position)
        .updateAll(db, SyncUpRecord.Columns.position.set(to: position))
    }
  }

  /// True when `after` orders what it has otherwise than appending what is new to what was
  /// kept: kept elements reordered, or a new one before the end.
  private static func changesOrder<T: Equatable>(from before: [T], to after: [T]) -> Bool {
    let added = after.filter { !before.contains($0) }
    return keptInDifferentOrder(before, after) || Array(after.suffix(added.count)) != added
  }

  /// True when the elements in both lists are not in the same order in each.
  private static func keptInDifferentOrder<T: Equatable>(_ before: [T], _ after: [T]) -> Bool {
    before.filter(after.contains) != after.filter(before.contains)
  }

  static func deleteSyncUps(_ ids: [SyncUp.ID], _ db: Database) throws {
    // Attendees, meetings, segments and words go with them (foreign keys, ON DELETE CASCADE).
    _ = try SyncUpRecord.deleteAll(db, ids: ids)
  }

  /// Their meetings' audio, by the names the meetings' ids give (never a stored path).
  static func audioFiles(of ids: [SyncUp.ID], _ db: Database) throws -> [String] {
    try Meeting.ID.fetchAll(
      db,
      MeetingRecord.filter(ids.contains(MeetingRecord.Columns.syncUpId))
        .filter(MeetingRecord.Columns.audioFile != nil).select(MeetingRecord.Columns.id)
    ).map(DataDirectory.audioFile(of:))
  }

  /// A meeting that joins a sync-up's history: the recording's own row is finished with what
  /// the meeting holds (`finishRecording`); a meeting from elsewhere (a file) is inserted with
  /// its segments; one already in the history stays as it is.
  static func addMeeting(_ meeting: Meeting, to syncUpID: SyncUp.ID, _ db: Database) throws {
    guard let stored = try MeetingRecord.fetchOne(db, id: meeting.id) else {
      try MeetingRecord(meeting, syncUpID: syncUpID, isFinished: true).insert(db)
      try insertSegments(meeting.segments, of: meeting.id, db)
      return
    }
    guard !stored.isFinished else { return }
    try finishRecording(meeting, db)
  }

  /// Finishes a recording's meeting with what was saved, once: its segments were committed as
  /// they were heard, and are replaced (once) only when the saved ones differ (the second
  /// pass's sentences); its length, transcript and audio file are the meeting's. False when it
  /// was finished already (by a recovery).
  @discardableResult
  static func finishRecording(_ meeting: Meeting, _ db: Database) throws -> Bool {
    guard var record = try MeetingRecord.fetchOne(db, id: meeting.id) else {
      throw SyncUpsDatabaseError.noSuchMeeting(id: meeting.id)
    }
    guard !record.isFinished else { return false }
    if !meeting.segments.isEmpty {
      let committed = try SegmentRecord.of(meeting.id).fetchAll(db)
      // Word times are compared only when the rest is the same.
      let same =
        try committed.map(\.text) == meeting.segments.map(\.text)
        && committed.map { try $0.segment() } == meeting.segments
      if !same { try replaceSegments(of: meeting.id, with: meeting.segments, db) }
    }
    let saved = MeetingRecord(meeting, syncUpID: record.syncUpId, isFinished: true)
    record.isFinished = true
    record.audioFile = saved.audioFile
    if !meeting.segments.isEmpty {
      record.length = saved.length
      record.transcript = saved.transcript
    } else {
      record.length = max(
        meeting.length ?? 0,
        try Double.fetchOne(
          db, SegmentRecord.of(meeting.id).select(max(SegmentRecord.Columns.endTime))) ?? 0)
    }
    try record.update(db)
    return true
  }
}

/// A sync-up cannot be deleted while one of its meetings is being recorded.
public struct SyncUpBeingRecorded: Error, Equatable, CustomStringConvertible {
  public var title: String
  public init(title: String) { self.title = title }
  public var description: String {
    "'\(title)' is being recorded; nothing was deleted: end that recording, then delete it"
  }
}
