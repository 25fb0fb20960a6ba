import Dependencies
import Foundation
import GRDB
import SharingGRDB
import SyncUpsFeatures
import TestSupport
import Testing

/// `@Shared(.syncUps)` and the fetch keys over an in-memory database, as the Sharing
/// tests use an in-memory file system; across processes over a real file.
@MainActor
@Suite
struct SharedDatabaseTests {
  let database = try! SyncUpsDatabase.inMemory()
  let newer = makeMeeting(date: Date(timeIntervalSince1970: 1_790_100_000), count: 4)
  let older = makeMeeting(date: Date(timeIntervalSince1970: 1_790_000_000), count: 3)

  func shared<R>(_ body: () throws -> R) rethrows -> R {
    try withDependencies {
      $0.syncUpsDatabase = database
    } operation: {
      try body()
    }
  }

  /// The statements `body` runs on the database (with their arguments), but for those that
  /// triggers run: what the strategy itself reads and writes.
  func statements(_ body: () throws -> Void) throws -> [String] {
    let log = LockIsolated<[String]>([])
    try database.writer.writeWithoutTransaction { db in
      db.trace { event in
        let sql = event.expandedDescription
        if !sql.hasPrefix("--") { log.withValue { $0.append(sql) } }
      }
    }
    try body()
    try database.writer.writeWithoutTransaction { db in db.trace(options: [], nil) }
    return log.value
  }

  /// Those of `statements` that write (insert, update, delete) the data itself, not the word
  /// counts kept beside it (`bookkeeping`).
  func writes(_ statements: [String]) -> [String] {
    allWrites(statements).filter { sql in !Self.wordCounts.contains { sql.contains($0) } }
  }

  /// Those of `statements` that keep the words' counts as they change (`WordCounts`).
  func bookkeeping(_ statements: [String]) -> [String] {
    allWrites(statements).filter { sql in Self.wordCounts.contains { sql.contains($0) } }
  }

  static let wordCounts = ["wordCountsStale", "meetingWords", "syncUpWord"]

  private func allWrites(_ statements: [String]) -> [String] {
    statements.filter { sql in
      ["INSERT", "UPDATE", "DELETE"].contains { sql.uppercased().hasPrefix($0) }
    }
  }

  func changes(_ body: () throws -> Void) throws -> Int {
    writes(try statements(body)).count
  }

  @Test func theListHoldsSyncUpsAndMeetingSummariesWithoutTranscripts() throws {
    let syncUp = makeSyncUp(meetings: [newer, older])
    try insert([syncUp], into: database)
    try shared {
      @Shared(.syncUps) var syncUps
      #expect(syncUps.ids == [syncUp.id])
      #expect(syncUps[0].attendees == syncUp.attendees)
      #expect(syncUps[0].meetings.ids == [newer.id, older.id])
      #expect(syncUps[0].meetings.allSatisfy { $0.segments.isEmpty && $0.transcript.isEmpty })

      @SharedReader(.meetingTranscript(older.id)) var transcript
      #expect(transcript == older)
      @SharedReader(.meetingSummaries(syncUp.id)) var summaries
      #expect(summaries.map(\.segmentCount) == [4, 3])
      #expect(
        summaries.map(\.opening)
          == [newer, older].map {
            $0.segments.prefix(9).map(\.text).joined(separator: " ")
          })
    }
  }

  @Test func addingASyncUpWritesItsRowsOnly() throws {
    try insert([makeSyncUp("Old", meetings: [older])], into: database)
    let added = makeSyncUp("New")
    try shared {
      @Shared(.syncUps) var syncUps
      let changed = try changes {
        $syncUps.withLock { _ = $0.append(added) }
        try $syncUps.save()
      }
      #expect(changed == 3)  // the sync-up and its two attendees
      #expect($syncUps.saveError == nil)
    }
    let stored = try readSync(database) { db in try SyncUpsRequest().fetch(db) }
    #expect(stored.map(\.title) == ["Old", "New"])
  }

  @Test func savingANewMeetingNeverRewritesOtherMeetingsOrTheirTranscripts() throws {
    let history = (0..<20).map {
      makeMeeting(date: Date(timeIntervalSince1970: 1_780_000_000 + Double($0) * 86_400))
    }
    let syncUp = makeSyncUp(meetings: history)
    try insert([syncUp], into: database)
    let recorded = makeMeeting(date: Date(timeIntervalSince1970: 1_800_000_000), count: 5)
    try shared {
      @Shared(.syncUps) var syncUps
      let detail = try #require(Shared($syncUps[id: syncUp.id]))
      let ran = try statements {
        detail.withLock { $0.meetings.insert(recorded, at: 0) }
        try detail.save()
      }
      #expect(writes(ran).count == 1 + 5, "\(ran)")  // the meeting and its segments
      // The words it adds are counted from its own segments: a write per distinct word and
      // a few for the sums, whatever the history.
      let distinct = Set(recorded.segments.flatMap { $0.text.lowercased().split(separator: " ") })
      #expect(bookkeeping(ran).count <= distinct.count + 4, "\(bookkeeping(ran))")
      // No other meeting's row or segments are read or written.
      let others = history.map { $0.id.rawValue.uuidString.lowercased() }
      #expect(!ran.contains { sql in others.contains { sql.contains($0) } })
      let own = recorded.id.rawValue.uuidString.lowercased()
      #expect(
        !ran.contains {
          ($0.contains("FROM segment") || $0.contains("FROM \"segment\"")) && !$0.contains(own)
        })
      let renamed = try writes(
        statements {
          detail.withLock { $0.title = "Renamed" }
          try detail.save()
        })
      #expect(renamed.count == 1, "\(renamed)")
    }
    let transcript = try readSync(database) { db in
      try MeetingTranscriptRequest(meetingID: recorded.id).fetch(db)
    }
    #expect(transcript == recorded)
    #expect(try count("segment", in: database) == 20 * 3 + 5)
  }

  /// A recording's meeting saved through the detail's `$syncUp` (derived from the
  /// list's) is one write of that meeting: no other sync-up is compared or read back, the
  /// segments committed as they were heard stay when they are what is saved, and they are
  /// replaced once by the second pass's sentences; the meeting is finished once.
  @Test func aRecordedMeetingSavedThroughTheDetailIsOneWriteOfThatMeeting() throws {
    let other = makeSyncUp("Other", meetings: [older])
    let syncUp = makeSyncUp("Recorded")
    try insert([other, syncUp], into: database)
    let live = makeMeeting(date: Date(timeIntervalSince1970: 1_800_000_000), count: 3)
    let sentences = makeMeeting(date: live.date, count: 2, texts: ["one sentence", "another"])
    for (saved, segmentWrites) in [(live, 0), (sentences, 1 + 2)] {
      let id = Meeting.ID(UUID())
      try database.begin(
        Meeting(
          id: id, date: saved.date, transcript: "", audioFile: DataDirectory.audioFile(of: id)),
        syncUpID: syncUp.id)
      for segment in live.segments { try database.append(segment, meetingID: id) }
      let meeting = Meeting(
        id: id, date: saved.date, transcript: saved.transcript, segments: saved.segments,
        audioFile: DataDirectory.audioFile(of: id), length: 60)
      try shared {
        @Shared(.syncUps) var syncUps
        let detail = try #require(Shared($syncUps[id: syncUp.id]))
        let ran = try statements {
          detail.withLock { $0.meetings.insert(meeting, at: 0) }
          try detail.save()
        }
        // The meeting's row, and its segments replaced once when they differ.
        #expect(writes(ran).count == 1 + segmentWrites, "\(writes(ran))")
        // The save's transaction reads and writes this sync-up's rows only. (The list's
        // observation reads the list after the commit, as it does after any commit.)
        let start = try #require(ran.firstIndex { $0.hasPrefix("BEGIN IMMEDIATE") })
        let end = try #require(ran[start...].firstIndex { $0.hasPrefix("COMMIT") })
        let save = ran[start...end]
        let otherIDs = [other.id.rawValue, older.id.rawValue].map { $0.uuidString.lowercased() }
        #expect(!save.contains { sql in otherIDs.contains { sql.contains($0) } }, "\(save)")
        #expect(!save.contains { $0.contains("FROM \"syncUp\" ORDER BY") }, "\(save)")
        #expect(syncUps[id: syncUp.id]?.meetings.first?.id == id)
      }
      // Finished by the save: ending the recording writes nothing more.
      var finishedAgain = true
      let ended = try statements {
        finishedAgain = try database.finishRecording(
          id, audioFile: DataDirectory.audioFile(of: id))
      }
      #expect(!finishedAgain)
      #expect(writes(ended).isEmpty, "\(ended)")
      let stored = try readSync(database) { db in
        try MeetingTranscriptRequest(meetingID: id).fetch(db)
      }
      #expect(stored == meeting)
      #expect(try database.unfinished().isEmpty)
    }
  }

  /// An edit from a value read before another process's edit changes only its own
  /// fields, over the rows as they are: both edits stand.
  @Test func anEditKeepsWhatAnotherEditChangedMeanwhile() throws {
    var syncUp = makeSyncUp("Team")
    syncUp.vocabulary = ["Zorbex"]
    try insert([syncUp], into: database)
    var theirs = syncUp
    theirs.attendees.append(Attendee(id: Attendee.ID(UUID()), name: "Cleo"))
    theirs.vocabulary.append("Grafana")
    theirs.duration = .seconds(600)
    try database.edit(from: syncUp, to: theirs)
    var ours = syncUp
    ours.title = "Renamed"
    ours.attendees.remove(id: syncUp.attendees[0].id)
    ours.attendees.append(Attendee(id: Attendee.ID(UUID()), name: "Dev"))
    ours.vocabulary = ["staging server"]
    let edited = try #require(try database.edit(from: syncUp, to: ours))
    #expect(edited.title == "Renamed")
    #expect(edited.attendees.map(\.name) == ["Ben", "Cleo", "Dev"])
    #expect(edited.vocabulary == ["Grafana", "staging server"])
    #expect(edited.duration == .seconds(600))
  }

  @Test func deletingASyncUpOrAMeetingDeletesTheirRows() throws {
    let kept = makeSyncUp("Kept", meetings: [newer, older])
    let gone = makeSyncUp("Gone", meetings: [makeMeeting()])
    try insert([kept, gone], into: database)
    try shared {
      @Shared(.syncUps) var syncUps
      $syncUps.withLock {
        $0.remove(id: gone.id)
        $0[id: kept.id]?.meetings.remove(id: older.id)
      }
      try $syncUps.save()
    }
    #expect(try count("syncUp", in: database) == 1)
    #expect(try count("meeting", in: database) == 1)
    #expect(try count("segment", in: database) == newer.segments.count)
    #expect(try count("attendee", in: database) == 2)
  }

  @Test func aCommitMadeOutsideTheKeyReachesTheReference() async throws {
    let syncUp = makeSyncUp()
    try insert([syncUp], into: database)
    try await withDependencies {
      $0.syncUpsDatabase = database
    } operation: {
      @Shared(.syncUps) var syncUps
      let meeting = Meeting(
        id: Meeting.ID(UUID()), date: Date(timeIntervalSince1970: 1_800_000_000), transcript: "")
      try database.begin(meeting, syncUpID: syncUp.id)
      try database.append(
        .init(speaker: "Ana", start: 0, end: 1, text: "hi"), meetingID: meeting.id)
      try database.finish(meeting.id)
      #expect(await waitUntil { syncUps[id: syncUp.id]?.meetings.ids == [meeting.id] })
    }
  }

  @Test func anotherProcessCommitReachesAnOpenReference() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let database = try SyncUpsDatabase.open(directory.dataDirectory)
    try await withDependencies {
      $0.syncUpsDatabase = database
    } operation: {
      @Shared(.syncUps) var syncUps
      #expect(syncUps.isEmpty)
      let run = try await Probe.run("add", directory.url, ["Elsewhere", "2"])
      #expect(run.status == 0, "\(run.errors)")
      #expect(await waitUntil { syncUps.count == 2 })
      #expect(syncUps.map(\.title) == ["Elsewhere 0", "Elsewhere 1"])
    }
  }

  @Test func anEditOfASyncUpDeletedElsewhereDoesNotBringItBack() async throws {
    let syncUp = makeSyncUp()
    try insert([syncUp], into: database)
    try await withDependencies {
      $0.syncUpsDatabase = database
    } operation: {
      @Shared(.syncUps) var syncUps
      let detail = try #require(Shared($syncUps[id: syncUp.id]))
      try writeSync(database) { db in try db.execute(sql: "DELETE FROM syncUp") }
      detail.withLock { $0.title = "Edited" }
      try $syncUps.save()
      #expect(try count("syncUp", in: database) == 0)
      #expect(await waitUntil { syncUps.isEmpty })
    }
  }

  @Test func aFailedSaveIsReportedAndWrittenByTheNextSave() throws {
    let syncUp = makeSyncUp()
    try insert([syncUp], into: database)
    try shared {
      @Shared(.syncUps) var syncUps
      try writeSync(database) { db in
        try db.execute(
          sql: """
            CREATE TRIGGER refuse BEFORE UPDATE ON syncUp BEGIN SELECT raise(ABORT, 'refused'); END
            """)
      }
      $syncUps.withLock { $0[id: syncUp.id]?.title = "Renamed" }
      #expect(throws: (any Error).self) { try $syncUps.save() }
      #expect($syncUps.saveError != nil)
      #expect(
        try readSync(database) { db in try String.fetchOne(db, sql: "SELECT title FROM syncUp") }
          == syncUp.title)
      try writeSync(database) { db in try db.execute(sql: "DROP TRIGGER refuse") }
      try $syncUps.save()
      #expect($syncUps.saveError == nil)
      #expect(
        try readSync(database) { db in try String.fetchOne(db, sql: "SELECT title FROM syncUp") }
          == "Renamed")
    }
  }

  /// The sync-up detail, over database-backed state, asserted exhaustively by the TestStore.
  @Test func theDetailDeletesAMeetingThroughTheDatabaseExhaustively() async throws {
    let syncUp = makeSyncUp(meetings: [newer, older])
    try insert([syncUp], into: database)
    let store = TestStore(initialState: detailState(syncUp.id)) {
      SyncUpDetail()
    } withDependencies: {
      $0.syncUpsDatabase = database
      $0.teamLearning.learnWords = { _ in }
    }
    await store.send(.deleteMeetings(atOffsets: [0])) {
      $0.$syncUp.withLock { _ = $0.meetings.remove(at: 0) }
    }
    await store.finish()
    try store.state.$syncUp.save()
    #expect(try count("meeting", in: database) == 1)
    #expect(try count("segment", in: database) == older.segments.count)
  }
}

@MainActor
private func detailState(_ id: SyncUp.ID) -> SyncUpDetail.State {
  @Shared(.syncUps) var syncUps
  return SyncUpDetail.State(syncUp: Shared($syncUps[id: id])!)
}
