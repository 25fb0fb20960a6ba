import AudioCore
import ConcurrencyExtras
import Foundation
import MeetingRecorder
import SyncUpsFeatures
import Testing

/// Every call the feature makes to the recording store, in order.
private func loggingStore(_ log: LockIsolated<[String]>) -> RecordingStore {
  RecordingStore(
    begin: { recording in log.withValue { $0.append("begin \(recording.meetingID)") } },
    append: { segment, _ in log.withValue { $0.append("append \(segment.text)") } },
    release: { _ in log.withValue { $0.append("release") } },
    deferSentencePass: { _, _ in log.withValue { $0.append("defer") } },
    discard: { _ in log.withValue { $0.append("discard") } },
    recoverUnfinished: { [] },
    voices: { _ in [:] },
    learnVoices: { _ in }
  )
}

/// One recording path: end and save (Ctrl-C, SIGTERM, `q`) saves exactly once, failures end
/// the recording cleanly, every utterance reaches the recording store.
@MainActor
struct RecordingPathTests {
  @Test func endAndSaveSavesOnceAndTheStoreSeesEveryStep() async {
    let recorder = ScriptedRecorder()
    let log = LockIsolated<[String]>([])
    let store = TestStore(
      initialState: RecordMeeting.State(
        meetingID: meetingID, syncUp: Shared(value: .mock),
        input: .microphone(nil, keeping: .transcript)
      )
    ) {
      RecordMeeting()
    } withDependencies: {
      $0.continuousClock = TestClock()
      $0.date.now = now
      $0.recordingStore = loggingStore(log)
      recorder.install(&$0)
    }
    await store.send(.onTask) {
      $0.recording = started(audio: false)
      $0.status = .recording
    }
    recorder.send(.utterance(Utterance(start: 0.2, end: 0.9, text: "hello", words: [])))
    let hello = Meeting.Segment(speaker: "Blob", start: 0.2, end: 0.9, text: "hello")
    await store.receive(\.recorder?.utterance) { $0.pendingSegments = [.init(hello)] }
    await store.receive(\.segmentKept) {
      $0.pendingSegments = []
      $0.segments = [hello]
    }
    await store.send(.endAndSaveRequested) { $0.status = .ending(.live) }
    // A second signal while the last words are transcribed changes nothing.
    await store.send(.endAndSaveRequested)
    recorder.end(.finished(keptAudio: false))
    await store.receive(\.recorder?.finished) {
      let meeting = Meeting(
        id: meetingID, date: now, transcript: "hello",
        segments: [Meeting.Segment(speaker: "Blob", start: 0.2, end: 0.9, text: "hello")],
        length: 0.9
      )
      $0.status = .saved(meeting)
      $0.$syncUp.withLock { $0.meetings = [meeting] }
    }
    await store.send(.endAndSaveRequested)
    await store.finish()
    #expect(store.isDismissed)
    #expect(store.state.syncUp.meetings.count == 1)
    // Saved once, through the sync-up; the recording then only lets its meeting go.
    #expect(log.value == ["begin \(meetingID)", "append hello", "release"])
    // The saved meeting teaches the sync-up's words; no audio was kept, so nothing is left for
    // the background (no sentences to finish, no voices to adapt).
    #expect(recorder.afterSave.value == ["words mock"])
    // The recorder was stopped once, however many signals came.
    #expect(recorder.stops.value == 1)
  }

  /// On a full disk, what is shown is what was committed. An utterance
  /// the store could not keep is not shown as kept; it is saved with the meeting (in time
  /// order) if there is room by then, and the notice says so in words.
  @Test func anUtteranceTheStoreCannotKeepIsNotShownButSavedWithTheMeeting() async {
    struct DiskFull: Error, CustomStringConvertible {
      var description: String { "the disk is full" }
    }
    let recorder = ScriptedRecorder()
    let store = TestStore(
      initialState: RecordMeeting.State(
        meetingID: meetingID, syncUp: Shared(value: .mock),
        input: .microphone(nil, keeping: .transcript)
      )
    ) {
      RecordMeeting()
    } withDependencies: {
      $0.continuousClock = TestClock()
      $0.date.now = now
      $0.recordingStore.begin = { _ in }
      $0.recordingStore.append = { segment, _ in
        if segment.text == "lost" { throw DiskFull() }
      }
      $0.recordingStore.release = { _ in }
      recorder.install(&$0)
    }
    await store.send(.onTask) {
      $0.recording = started(audio: false)
      $0.status = .recording
    }
    let lost = Meeting.Segment(speaker: "Blob", start: 0.2, end: 0.9, text: "lost")
    let kept = Meeting.Segment(speaker: "Blob", start: 1.2, end: 1.9, text: "kept")
    recorder.send(.utterance(Utterance(start: 0.2, end: 0.9, text: "lost", words: [])))
    await store.receive(\.recorder?.utterance) { $0.pendingSegments = [.init(lost)] }
    await store.receive(\.storeFailed) {
      $0.notice =
        "cannot keep what is heard safe from a crash (the disk is full); it is not shown, and is "
        + "saved with the meeting if there is room then"
      $0.pendingSegments = []
      $0.unkeptSegments = [lost]
    }
    recorder.send(.utterance(Utterance(start: 1.2, end: 1.9, text: "kept", words: [])))
    await store.receive(\.recorder?.utterance) { $0.pendingSegments = [.init(kept)] }
    await store.receive(\.segmentKept) {
      $0.pendingSegments = []
      $0.segments = [kept]
    }
    await store.send(.endAndSaveRequested) { $0.status = .ending(.live) }
    recorder.end(.finished(keptAudio: false))
    await store.receive(\.recorder?.finished) {
      let meeting = Meeting(
        id: meetingID, date: now, transcript: "lost kept", segments: [lost, kept],
        length: 1.9)
      $0.status = .saved(meeting)
      $0.$syncUp.withLock { $0.meetings = [meeting] }
    }
    await store.finish()
  }

  @Test func endAndSaveWhileAnAlertIsShownSavesAtOnce() async {
    let clock = TestClock()
    let learned = LockIsolated<[SyncUp.ID]>([])
    let store = TestStore(
      initialState: RecordMeeting.State(
        meetingID: meetingID, syncUp: Shared(value: .mock), input: .none)
    ) {
      RecordMeeting()
    } withDependencies: {
      $0.continuousClock = clock
      $0.date.now = now
      $0.teamLearning.learnWords = { id in learned.withValue { $0.append(id) } }
    }
    await store.send(.onTask) { $0.recording = started(audio: false) }
    await store.send(.endMeetingButtonTapped) {
      $0.alert = .endMeeting(isDiscardable: true)
      $0.timeline.anchors.append(.init(recordingSeconds: 0, meetingSeconds: 0, isPaused: true))
    }
    // A second passes while the alert is up (a meeting ended at once is not saved).
    await clock.tick()
    await store.receive(\.timerTick) { $0.timeline.seconds = 1 }
    await store.send(.endAndSaveRequested) {
      $0.alert = nil
      let meeting = Meeting(id: meetingID, date: now, transcript: "", length: 1)
      $0.status = .saved(meeting)
      $0.$syncUp.withLock { $0.meetings = [meeting] }
    }
    await store.send(.endAndSaveRequested)
    await store.finish()
    // The saved meeting taught the sync-up's words (`TeamLearning`), once.
    #expect(learned.value == [SyncUp.mock.id])
    #expect(store.isDismissed)
  }

  @Test func anAudioWriteErrorDropsTheAudioAndTheMeetingGoesOn() async {
    let clock = TestClock()
    let recorder = ScriptedRecorder()
    let store = TestStore(
      initialState: RecordMeeting.State(
        meetingID: meetingID, syncUp: Shared(value: .mock), input: .microphone(nil)
      )
    ) {
      RecordMeeting()
    } withDependencies: {
      $0.continuousClock = clock
      $0.date.now = now
      recorder.install(&$0)
    }
    await store.send(.onTask) {
      $0.recording = started(audio: true)
      $0.status = .recording
    }
    // The recorder deleted the audio and goes on without it (and without the second pass).
    recorder.send(.audioDropped("no space left on device"))
    await store.receive(\.recorder?.audioDropped) {
      $0.recording?.audioFile = nil
      $0.notice =
        "cannot keep the meeting's audio: no space left on device; the meeting goes on without it"
    }
    // Transcription and the meeting clock go on.
    recorder.send(.utterance(Utterance(start: 0.2, end: 0.9, text: "still here", words: [])))
    let stillHere = Meeting.Segment(speaker: "Blob", start: 0.2, end: 0.9, text: "still here")
    await store.receive(\.recorder?.utterance) { $0.pendingSegments = [.init(stillHere)] }
    await store.receive(\.segmentKept) {
      $0.pendingSegments = []
      $0.segments = [stillHere]
    }
    await clock.tick()
    await store.receive(\.timerTick) {
      $0.timeline.seconds = 1
      $0.secondsElapsed = 1
    }
    await store.send(.endAndSaveRequested) { $0.status = .ending(.live) }
    recorder.end(.finished(keptAudio: false))
    await store.receive(\.recorder?.finished) {
      let meeting = Meeting(
        id: meetingID, date: now, transcript: "still here",
        segments: [
          Meeting.Segment(speaker: "Blob", start: 0.2, end: 0.9, text: "still here")
        ],
        length: 1
      )
      $0.status = .saved(meeting)
      $0.$syncUp.withLock { $0.meetings = [meeting] }
    }
    await store.finish()
    #expect(store.isDismissed)
  }

  @Test func noPulseAudioWithANamedSourceEndsWithoutSaving() async {
    let recorder = ScriptedRecorder()
    let log = LockIsolated<[String]>([])
    let store = TestStore(
      initialState: RecordMeeting.State(
        meetingID: meetingID, syncUp: Shared(value: .mock), input: .microphone("virtmic")
      )
    ) {
      RecordMeeting()
    } withDependencies: {
      $0.continuousClock = TestClock()
      $0.date.now = now
      $0.recordingStore = loggingStore(log)
      recorder.install(&$0)
    }
    await store.send(.onTask) {
      $0.recording = started(audio: true)
      $0.status = .recording
    }
    recorder.end(.inputUnavailable("PulseAudio is not running: connection refused."))
    await store.receive(\.recorder?.inputUnavailable) {
      $0.status = .ended
      $0.failure = "PulseAudio is not running: connection refused."
    }
    await store.finish()
    #expect(store.isDismissed)
    #expect(store.state.syncUp.meetings.isEmpty)
    #expect(log.value == ["begin \(meetingID)", "discard"])
  }

  @Test func noPulseAudioWithTheDefaultSourceIsTimedWithoutRecording() async {
    let clock = TestClock()
    let recorder = ScriptedRecorder()
    let store = TestStore(
      initialState: RecordMeeting.State(
        meetingID: meetingID, syncUp: Shared(value: .mock), input: .microphone(nil)
      )
    ) {
      RecordMeeting()
    } withDependencies: {
      $0.continuousClock = clock
      $0.date.now = now
      recorder.install(&$0)
    }
    await store.send(.onTask) {
      $0.recording = started(audio: true)
      $0.status = .recording
    }
    recorder.end(.inputUnavailable("PulseAudio is not running: connection refused."))
    await store.receive(\.recorder?.inputUnavailable) {
      $0.status = .timing
      $0.recording?.audioFile = nil
      $0.notice =
        "PulseAudio is not running: connection refused.; "
        + "the meeting is timed without recording or transcription"
    }
    await clock.tick()
    await store.receive(\.timerTick) {
      $0.timeline.seconds = 1
      $0.secondsElapsed = 1
    }
    await store.send(.endAndSaveRequested) {
      let meeting = Meeting(id: meetingID, date: now, transcript: "", length: 1)
      $0.status = .saved(meeting)
      $0.$syncUp.withLock { $0.meetings = [meeting] }
    }
    await store.finish()
    #expect(store.isDismissed)
  }

  /// Seven attendees in five seconds: words are only ever given to a speaker who was announced.
  @Test func slotsShorterThanASecondNeverAttributeWordsToAnUnannouncedSpeaker() async {
    var syncUp = SyncUp(id: SyncUp.ID(UUID(0)), duration: .seconds(5))
    for index in 0..<7 {
      syncUp.attendees.append(Attendee(id: Attendee.ID(UUID(index + 10)), name: "A\(index)"))
    }
    let state = RecordMeeting.State(
      meetingID: meetingID, syncUp: Shared(value: syncUp), input: .none)
    #expect((0..<5).map { state.slot(atMeetingSeconds: Double($0) + 0.5) } == [0, 1, 2, 3, 4])
    #expect(state.slot(atMeetingSeconds: 4.99) == 4)
  }

  @Test func recoveryIsSaidInOneLinePerMeeting() async {
    let empty = Meeting.ID(UUID(99))
    let kept = LockIsolated([
      meetingID: UnfinishedMeeting(
        syncUpID: SyncUp.mock.id, syncUpTitle: "Morning Sync", meetingID: meetingID, date: now,
        segmentCount: 1, audioFile: nil, isActive: false),
      empty: UnfinishedMeeting(
        syncUpID: SyncUp.mock.id, syncUpTitle: "Morning Sync", meetingID: empty,
        date: now.addingTimeInterval(60), segmentCount: 0, audioFile: nil, isActive: false),
    ])
    let report = await RecordingStore.inMemory(kept).recover()
    let started = { (date: Date) in date.formatted(date: .abbreviated, time: .shortened) }
    #expect(
      report == [
        "recovered an unfinished meeting of 'Morning Sync' (00000000) started "
          + "\(started(now)) (1 utterance)",
        "dropped a recording of 'Morning Sync' (00000000) started "
          + "\(started(now.addingTimeInterval(60))): it stopped before anything was heard or kept",
      ])
    #expect(kept.value.isEmpty)
  }

  /// The live store: the meeting is a row from its start, each utterance a committed segment;
  /// a running recording is never recovered; the save names exactly the audio that was kept.
  @Test func theDatabaseKeepsEachUtteranceAndNeverRecoversARunningRecording() async throws {
    let database = try SyncUpsDatabase.inMemory()
    try database.add(.mock)
    let store = RecordingStore.database(database)
    try await store.begin(started(audio: true))
    let segment = Meeting.Segment(speaker: "Blob", start: 0.2, end: 0.9, text: "hello")
    try await store.append(segment, meetingID)
    #expect(try await store.recoverUnfinished().isEmpty)
    let running = try database.unfinished()
    #expect(running.map(\.segmentCount) == [1])
    #expect(running.map(\.isActive) == [true])
    #expect(try database.isRecording(SyncUp.mock.id))

    // The audio could not be kept after all: the meeting saved into its sync-up (the store's one
    // named write, as `@Shared(.syncUps)` saves it) finishes the recording's row naming none;
    // the recording then only lets it go.
    var saved = SyncUp.mock
    saved.meetings = [Meeting.recorded(started(audio: false), segments: [segment], length: 1)]
    try database.edit(from: .mock, to: saved)
    #expect(try database.unfinished().isEmpty)
    await store.release(meetingID)
    #expect(try await store.recoverUnfinished().isEmpty)
    let summaries = try await database.writer.read { db in
      try MeetingSummariesRequest(syncUpID: SyncUp.mock.id).fetch(db)
    }
    #expect(summaries.map(\.id) == [meetingID])
    #expect(summaries.map(\.segmentCount) == [1])
    #expect(summaries.map(\.audioFile) == [nil])
    #expect(try !database.isRecording(SyncUp.mock.id))
  }

  @Test func aDiscardedRecordingLeavesNoRows() async throws {
    let database = try SyncUpsDatabase.inMemory()
    try database.add(.mock)
    let store = RecordingStore.database(database)
    try await store.begin(started(audio: true))
    try await store.append(
      Meeting.Segment(speaker: "Blob", start: 0.2, end: 0.9, text: "hello"), meetingID)
    try await store.discard(meetingID)
    #expect(try database.unfinished().isEmpty)
    let count = try await database.writer.read { db in
      try Int.fetchOne(db, sql: "SELECT count(*) FROM segment")
    }
    #expect(count == 0)
  }
}
