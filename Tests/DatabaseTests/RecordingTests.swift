import Foundation
import GRDB
import SyncUpsFeatures
import TestSupport
import Testing

@Suite
struct RecordingTests {
  let segment = Meeting.Segment(speaker: "Ana", start: 1, end: 3.5, text: "hello there")

  @Test func aMeetingIsHiddenWhileRecordedAndJoinsTheListWhenFinished() throws {
    let database = try SyncUpsDatabase.inMemory()
    let syncUp = makeSyncUp()
    try insert([syncUp], into: database)
    let meeting = Meeting(
      id: Meeting.ID(UUID()), date: Date(timeIntervalSince1970: 1_790_000_000), transcript: "")

    try database.begin(meeting, syncUpID: syncUp.id)
    #expect(try database.append(segment, meetingID: meeting.id) == 0)
    #expect(try database.append(segment, meetingID: meeting.id) == 1)
    let listed = try readSync(database) { db in try SyncUpsRequest().fetch(db) }
    #expect(listed[id: syncUp.id]?.meetings.isEmpty == true)
    let unfinished = try database.unfinished()
    #expect(unfinished.map(\.meetingID) == [meeting.id])
    #expect(unfinished.first?.segmentCount == 2)
    #expect(unfinished.first?.isActive == true)

    let audio = DataDirectory.audioFile(of: meeting.id)
    #expect(try database.finish(meeting.id, audioFile: audio))
    let saved = try readSync(database) { db in
      try MeetingTranscriptRequest(meetingID: meeting.id).fetch(db)
    }
    #expect(saved?.segments == [segment, segment])
    #expect(saved?.transcript == "hello there hello there")
    #expect(saved?.audioFile == audio)
    #expect(try database.unfinished().isEmpty)
    let summaries = try readSync(database) { db in
      try MeetingSummariesRequest(syncUpID: syncUp.id).fetch(db)
    }
    #expect(summaries.map(\.length) == [3.5])
    #expect(summaries.map(\.segmentCount) == [2])
    // Finishing twice changes nothing.
    #expect(try database.finish(meeting.id) == false)
  }

  /// Phase 2's path: the recording commits segments as it hears them, then the feature saves
  /// the meeting through the list's `@Shared`: one meeting, finished, its segments once.
  @Test func aRecordedMeetingSavedThroughTheListIsFinishedOnce() throws {
    let database = try SyncUpsDatabase.inMemory()
    let syncUp = makeSyncUp()
    try insert([syncUp], into: database)
    let meeting = makeMeeting(count: 3)
    try database.begin(
      Meeting(id: meeting.id, date: meeting.date, transcript: ""), syncUpID: syncUp.id)
    for segment in meeting.segments { try database.append(segment, meetingID: meeting.id) }
    try withDependencies {
      $0.syncUpsDatabase = database
    } operation: {
      @Shared(.syncUps) var syncUps
      let detail = try #require(Shared($syncUps[id: syncUp.id]))
      detail.withLock { $0.meetings.insert(meeting, at: 0) }
      try detail.save()
    }
    #expect(try database.unfinished().isEmpty)
    #expect(try database.finish(meeting.id) == false)
    #expect(try count("segment", in: database) == 3)
    let saved = try readSync(database) { db in
      try MeetingTranscriptRequest(meetingID: meeting.id).fetch(db)
    }
    #expect(saved == meeting)
  }

  @Test func discardDeletesTheMeetingAndItsSegmentsAndReturnsItsAudio() throws {
    let database = try SyncUpsDatabase.inMemory()
    let syncUp = makeSyncUp()
    try insert([syncUp], into: database)
    let id = Meeting.ID(UUID())
    let meeting = Meeting(
      id: id, date: Date(), transcript: "", audioFile: DataDirectory.audioFile(of: id))
    try database.begin(meeting, syncUpID: syncUp.id)
    try database.append(segment, meetingID: meeting.id)
    #expect(try database.discard(meeting.id) == DataDirectory.audioFile(of: id))
    #expect(try count("meeting", in: database) == 0)
    #expect(try count("segment", in: database) == 0)
  }

  @Test func aSyncUpTellsItsAudioFilesAndWhetherItIsBeingRecorded() throws {
    let database = try SyncUpsDatabase.inMemory()
    var saved = makeMeeting()
    saved.audioFile = DataDirectory.audioFile(of: saved.id)
    let syncUp = makeSyncUp(meetings: [saved])
    // Added as the app adds it (an import brings no audio).
    try database.add(syncUp)
    #expect(try database.isRecording(syncUp.id) == false)
    let nowID = Meeting.ID(UUID())
    let meeting = Meeting(
      id: nowID, date: Date(), transcript: "", audioFile: DataDirectory.audioFile(of: nowID))
    try database.begin(meeting, syncUpID: syncUp.id)
    #expect(try database.isRecording(syncUp.id))
    #expect(throws: SyncUpBeingRecorded.self) { try database.deletionAudioFiles([syncUp.id]) }
    try database.finish(meeting.id)
    #expect(try database.isRecording(syncUp.id) == false)
    #expect(
      Set(try database.deletionAudioFiles([syncUp.id]))
        == [DataDirectory.audioFile(of: saved.id), DataDirectory.audioFile(of: nowID)])
  }

  @Test func beginningAMeetingOfAnUnknownSyncUpFails() throws {
    let database = try SyncUpsDatabase.inMemory()
    let meeting = Meeting(id: Meeting.ID(UUID()), date: Date(), transcript: "")
    #expect(throws: SyncUpsDatabaseError.self) {
      try database.begin(meeting, syncUpID: SyncUp.ID(UUID()))
    }
  }

  /// The probe records 3 segments and SIGKILLs itself after each step of the save in turn;
  /// the next start finds exactly what was committed and finishes it once.
  @Test(arguments: ["begin", "append-0", "append-1", "append-2", "in-finish", "finish"])
  func aRecordingKilledAtEachStepIsRecoveredOnceWithWhatWasCommitted(step: String) async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let syncUp = makeSyncUp()
    do {
      let database = try SyncUpsDatabase.open(directory.dataDirectory)
      try insert([syncUp], into: database)
    }
    let run = try await Probe.run(
      "record", directory.url, [syncUp.id.rawValue.uuidString, "3", step])
    #expect(run.killed, "\(run.errors)")
    #expect(run.lines.last == step)

    let recovery = try await Probe.run("recover", directory.url)
    #expect(recovery.status == 0, "\(recovery.errors)")
    let committed =
      step.hasPrefix("append-") ? Int(step.dropFirst(7))! + 1 : (step == "begin" ? 0 : 3)
    if step == "finish" {
      #expect(recovery.lines.isEmpty)
    } else {
      #expect(recovery.lines.count == 1)
      #expect(recovery.lines.first?.hasSuffix(" \(committed)") == true, "\(recovery.lines)")
    }
    // Once: a second start finds nothing, and the meeting is listed with its segments.
    let again = try await Probe.run("recover", directory.url)
    #expect(again.lines.isEmpty)
    let database = try SyncUpsDatabase.open(directory.dataDirectory)
    let listed = try readSync(database) { db in try SyncUpsRequest().fetch(db) }
    // Killed before anything was heard (and no audio kept): dropped, not an empty meeting.
    #expect(listed[id: syncUp.id]?.meetings.count == (committed == 0 ? 0 : 1))
    #expect(try count("meeting", in: database) == (committed == 0 ? 0 : 1))
    #expect(try count("segment", in: database) == committed)
    #expect(try database.unfinished().isEmpty)
  }

  /// A recording killed before anything was heard is dropped with its audio when it
  /// left less than a second of it (as a meeting ended that soon is), never recovered empty;
  /// with more audio it is recovered, audio and all.
  @Test(arguments: [(0.4, false), (5.0, true)])
  func aRecordingKilledBeforeAnythingWasHeardIsKeptOnlyWithASecondOfAudio(
    seconds: Double, kept: Bool
  ) async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let syncUp = makeSyncUp()
    try insert([syncUp], into: try SyncUpsDatabase.open(directory.dataDirectory))
    _ = try await Probe.run(
      "record", directory.url, [syncUp.id.rawValue.uuidString, "0", "begin", "audio"])
    let database = try SyncUpsDatabase.open(directory.dataDirectory)
    let meeting = try #require(try database.unfinished().first)
    let name = DataDirectory.audioFile(of: meeting.meetingID)
    let audio = directory.url.appendingPathComponent(name)
    try FileManager.default.createDirectory(
      at: audio.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data(count: 4096).write(to: audio)
    try FileManager.default.setAttributes(
      [.modificationDate: meeting.date.addingTimeInterval(seconds)], ofItemAtPath: audio.path)

    let recovery = try await Probe.run("recover", directory.url)
    #expect(recovery.lines == ["recovered \(meeting.meetingID.rawValue) 0"])
    #expect(try database.unfinished().isEmpty)
    #expect(try count("meeting", in: database) == (kept ? 1 : 0))
    #expect(FileManager.default.fileExists(atPath: audio.path) == kept)
    if kept {
      let saved = try readSync(database) { db in
        try MeetingTranscriptRequest(meetingID: meeting.meetingID).fetch(db)
      }
      #expect(saved?.audioFile == name)
    }
  }

  @Test func aRunningRecordingIsNotRecoveredByAnotherProcess() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let database = try SyncUpsDatabase.open(directory.dataDirectory)
    let syncUp = makeSyncUp()
    try insert([syncUp], into: database)
    let meeting = Meeting(id: Meeting.ID(UUID()), date: Date(), transcript: "")
    try database.begin(meeting, syncUpID: syncUp.id)
    try database.append(segment, meetingID: meeting.id)

    let recovery = try await Probe.run("recover", directory.url)
    #expect(recovery.status == 0)
    #expect(recovery.lines.isEmpty)
    #expect(try database.unfinished().map(\.isActive) == [true])
    #expect(try database.finish(meeting.id))
  }

  /// Kills a probe that records meetings in a loop at arbitrary instants: every time, the
  /// database opens, passes its integrity check, and recovery leaves no unfinished meeting.
  @Test func killingARecorderAtArbitraryInstantsNeverDamagesTheDatabase() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let syncUp = makeSyncUp()
    try insert([syncUp], into: try SyncUpsDatabase.open(directory.dataDirectory))
    for round in 0..<5 {
      let (process, _, _) = try Probe.start(
        "hammer", directory.url, [syncUp.id.rawValue.uuidString])
      let ready = directory.file("ready")
      #expect(await waitUntil { FileManager.default.fileExists(atPath: ready.path) })
      try? FileManager.default.removeItem(at: ready)
      try await Task.sleep(for: .milliseconds(20 + 37 * round))
      kill(process.processIdentifier, SIGKILL)
      try await Probe.wait(process)

      let database = try SyncUpsDatabase.open(directory.dataDirectory)
      let check = try readSync(database) { db in
        try String.fetchOne(db, sql: "PRAGMA integrity_check")
      }
      #expect(check == "ok")
      _ = try database.recoverUnfinished()
      #expect(try database.unfinished().isEmpty)
      let lengths = try readSync(database) { db in
        try Int.fetchAll(
          db, sql: "SELECT (SELECT count(*) FROM segment WHERE meetingId = meeting.id) FROM meeting"
        )
      }
      #expect(lengths.allSatisfy { $0 <= 3 })
    }
  }

  @Test func twoProcessesRecoveringAtOnceFinishEachMeetingOnce() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let syncUp = makeSyncUp()
    try insert([syncUp], into: try SyncUpsDatabase.open(directory.dataDirectory))
    for step in ["append-0", "append-1", "begin"] {
      _ = try await Probe.run("record", directory.url, [syncUp.id.rawValue.uuidString, "3", step])
    }
    async let first = Probe.run("recover", directory.url)
    async let second = Probe.run("recover", directory.url)
    let lines = try await first.lines + second.lines
    #expect(lines.count == 3, "\(lines)")
    #expect(Set(lines).count == 3)
  }
}
