import AudioCore
import ConcurrencyExtras
import Foundation
import MeetingRecorder
import SyncUpsFeatures
import Testing

@MainActor
struct RecordMeetingTests {
  @Test func timerAdvancesSpeakersAndSavesAtTheEnd() async {
    let clock = TestClock()
    let syncUp = Shared(value: SyncUp.mock)
    let learned = LockIsolated<[SyncUp.ID]>([])
    let store = TestStore(
      initialState: RecordMeeting.State(meetingID: meetingID, syncUp: syncUp, input: .none)
    ) {
      RecordMeeting()
    } withDependencies: {
      $0.continuousClock = clock
      $0.date.now = now
      $0.teamLearning.learnWords = { id in learned.withValue { $0.append(id) } }
      $0.uuid = .incrementing
    }
    await store.send(.onTask) { $0.recording = started() }
    await clock.tick()
    await store.receive(\.timerTick) {
      $0.timeline.seconds = 1
      $0.secondsElapsed = 1
    }
    await clock.tick()
    await store.receive(\.timerTick) {
      $0.timeline.seconds = 2
      $0.secondsElapsed = 2
      $0.speakerIndex = 1
    }
    await clock.tick()
    await store.receive(\.timerTick) {
      $0.timeline.seconds = 3
      $0.secondsElapsed = 3
    }
    await clock.tick()
    await store.receive(\.timerTick) {
      $0.timeline.seconds = 4
      $0.secondsElapsed = 4
      $0.speakerIndex = 2
    }
    await clock.tick()
    await store.receive(\.timerTick) {
      $0.timeline.seconds = 5
      $0.secondsElapsed = 5
    }
    await clock.tick()
    await store.receive(\.timerTick) {
      $0.timeline.seconds = 6
      $0.secondsElapsed = 6
      let meeting = Meeting(id: meetingID, date: now, transcript: "", length: 6)
      $0.status = .saved(meeting)
      $0.$syncUp.withLock { $0.meetings = [meeting] }
    }
    await store.finish()
    #expect(store.isDismissed)
    // The saved meeting taught the sync-up's words (`TeamLearning`), once.
    #expect(learned.value == [SyncUp.mock.id])
    #expect(syncUp.wrappedValue.meetings.count == 1)
  }

  @Test func recordTranscriptAttributesEachUtteranceToItsSpeaker() async {
    let clock = TestClock()
    let recorder = ScriptedRecorder()
    let store = TestStore(
      initialState: RecordMeeting.State(
        meetingID: meetingID, syncUp: Shared(value: .mock),
        input: .microphone(nil, keeping: .transcript)
      )
    ) {
      RecordMeeting()
    } withDependencies: {
      $0.continuousClock = clock
      $0.date.now = now
      $0.uuid = .incrementing
      recorder.install(&$0)
    }
    await store.send(.onTask) {
      $0.recording = started()
      $0.status = .recording
    }
    recorder.send(.partial("i finished"))
    await store.receive(\.recorder?.partial) { $0.partial = "i finished" }
    let first = Utterance(
      start: 0.4, end: 1.6, text: "i finished the parser",
      words: [
        Transcription.Word(word: "i", start: 0.4, end: 0.5, confidence: 0.9)
      ])
    recorder.send(.utterance(first))
    let parser = Meeting.Segment(
      speaker: "Blob", start: 0.4, end: 1.6, text: "i finished the parser",
      words: [Meeting.Word(word: "i", start: 0.4, end: 0.5, confidence: 0.9)]
    )
    await store.receive(\.recorder?.utterance) {
      $0.partial = ""
      $0.pendingSegments = [.init(parser)]
    }
    await store.receive(\.segmentKept) {
      $0.pendingSegments = []
      $0.segments = [parser]
    }
    // Blob Jr's slot starts at 2 s: an utterance starting at 2.3 s is theirs, even if its
    // result arrives before the clock has ticked that far.
    let reviews = await store.hears(
      Utterance(start: 2.3, end: 3.1, text: "reviews today", words: []), from: recorder,
      as: Meeting.Segment(speaker: "Blob Jr", start: 2.3, end: 3.1, text: "reviews today"))
    await store.send(.endMeetingButtonTapped) {
      $0.alert = .endMeeting(isDiscardable: true)
      $0.timeline.anchors.append(.init(recordingSeconds: 0, meetingSeconds: 0, isPaused: true))
    }
    await store.send(.alert(.presented(.confirmSave))) {
      $0.alert = nil
      $0.status = .ending(.live)
    }
    // The recorder is stopped; it transcribes the last words, then says it finished.
    recorder.end(.finished(keptAudio: false))
    await store.receive(\.recorder?.finished) {
      let meeting = Meeting(
        id: meetingID, date: now,
        transcript: "i finished the parser reviews today",
        segments: [parser, reviews],
        length: 3.1
      )
      $0.status = .saved(meeting)
      $0.$syncUp.withLock { $0.meetings = [meeting] }
    }
    await store.finish()
    #expect(store.isDismissed)
    #expect(recorder.stops.value == 1)
    #expect(
      recorder.requests.value == [
        RecordingRequest(
          id: UUID(0), input: .microphone(nil), transcribes: true, audioFile: nil,
          vocabulary: ["Blob", "Blob Jr", "Blob Sr"],
          teamModel: URL(fileURLWithPath: "/syncups-tests").appendingPathComponent(
            DataDirectory.teamWordsFile(of: SyncUp.ID(UUID(0)))))
      ])
  }

  @Test func endMeetingDiscardUsesNoIdOrDate() async {
    let clock = TestClock()
    let recorder = ScriptedRecorder()
    let store = TestStore(
      initialState: RecordMeeting.State(
        meetingID: meetingID, syncUp: Shared(value: .mock),
        input: .microphone(nil, keeping: .transcript)
      )
    ) {
      RecordMeeting()
    } withDependencies: {
      $0.continuousClock = clock
      $0.date.now = now
      recorder.install(&$0)
    }
    await store.send(.onTask) {
      $0.recording = started()
      $0.status = .recording
    }
    await store.endAndDiscard()
    await store.finish()
    #expect(store.isDismissed)
    #expect(store.state.syncUp.meetings.isEmpty)
  }

  /// Ended before a second passed and with nothing heard (Ctrl-C at once): there is no meeting
  /// to keep, and the user is told so.
  @Test func endedBeforeAnythingWasHeardSavesNothing() async {
    let clock = TestClock()
    let store = TestStore(
      initialState: RecordMeeting.State(
        meetingID: meetingID, syncUp: Shared(value: .mock), input: .none)
    ) {
      RecordMeeting()
    } withDependencies: {
      $0.continuousClock = clock
      $0.date.now = now
    }
    await store.send(.onTask) { $0.recording = started() }
    await store.send(.endAndSaveRequested) {
      $0.notice = "the meeting ended before anything was heard; nothing was saved"
      $0.status = .ended
    }
    await store.finish()
    #expect(store.isDismissed)
    #expect(store.state.syncUp.meetings.isEmpty)
  }

  /// A sync-up with nobody in it (stored before import applied the rules) is not recorded:
  /// there would be no slot to give what is heard to.
  @Test func aSyncUpWithNoAttendeesIsNotRecorded() async {
    var syncUp = SyncUp.mock
    syncUp.attendees = []
    let store = TestStore(
      initialState: RecordMeeting.State(
        meetingID: meetingID, syncUp: Shared(value: syncUp), input: .none)
    ) {
      RecordMeeting()
    }
    await store.send(.onTask) {
      $0.failure =
        "'\(syncUp.title)' has no attendees, so nobody could be given a slot: add one with "
        + "'syncups edit' and --add-attendee, then record"
      $0.status = .ended
    }
    await store.finish()
    #expect(store.isDismissed)
    #expect(store.state.syncUp.meetings.isEmpty)
  }

  @Test func endMeetingResumeGoesOn() async {
    let clock = TestClock()
    let store = TestStore(
      initialState: RecordMeeting.State(
        meetingID: meetingID, syncUp: Shared(value: .mock), input: .none)
    ) {
      RecordMeeting()
    } withDependencies: {
      $0.continuousClock = clock
      $0.date.now = now
    }
    await store.send(.onTask) { $0.recording = started() }
    await store.send(.endMeetingButtonTapped) {
      $0.alert = .endMeeting(isDiscardable: true)
      $0.timeline.anchors.append(.init(recordingSeconds: 0, meetingSeconds: 0, isPaused: true))
    }
    // Ticks do nothing to the meeting while the alert is up.
    await clock.tick()
    await store.receive(\.timerTick) { $0.timeline.seconds = 1 }
    await store.send(.alert(.dismiss)) {
      $0.alert = nil
      $0.timeline.anchors.append(.init(recordingSeconds: 1, meetingSeconds: 0))
    }
    await clock.tick()
    await store.receive(\.timerTick) {
      $0.timeline.seconds = 2
      $0.secondsElapsed = 1
    }
    await store.endAndDiscard(recordingSeconds: 2, meetingSeconds: 1)
    await store.finish()
    #expect(store.isDismissed)
  }

  @Test func nextSpeakerToTheEndAsksToSave() async {
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
      $0.uuid = .incrementing
    }
    await store.send(.onTask) { $0.recording = started() }
    await store.send(.nextButtonTapped) {
      $0.speakerIndex = 1
      $0.secondsElapsed = 2
      $0.timeline.anchors.append(.init(recordingSeconds: 0, meetingSeconds: 2, speakerIndex: 1))
    }
    await store.send(.nextButtonTapped) {
      $0.speakerIndex = 2
      $0.secondsElapsed = 4
      $0.timeline.anchors.append(.init(recordingSeconds: 0, meetingSeconds: 4, speakerIndex: 2))
    }
    await store.send(.nextButtonTapped) {
      $0.alert = .endMeeting(isDiscardable: false)
      $0.timeline.anchors.append(
        .init(recordingSeconds: 0, meetingSeconds: 4, speakerIndex: 2, isPaused: true)
      )
    }
    // A second passes while the alert is up (a meeting ended at once is not saved).
    await clock.tick()
    await store.receive(\.timerTick) { $0.timeline.seconds = 1 }
    await store.send(.alert(.presented(.confirmSave))) {
      $0.alert = nil
      let meeting = Meeting(id: meetingID, date: now, transcript: "", length: 1)
      $0.status = .saved(meeting)
      $0.$syncUp.withLock { $0.meetings = [meeting] }
    }
    await store.finish()
    // The saved meeting taught the sync-up's words (`TeamLearning`), once.
    #expect(learned.value == [SyncUp.mock.id])
    #expect(store.isDismissed)
  }

  @Test(arguments: [
    (attendees: 3, seconds: 10, speakerChanges: [4: 1, 7: 2]),
    (attendees: 4, seconds: 7, speakerChanges: [2: 1, 4: 2, 6: 3]),
    // The original never ends when a slot is shorter than a second. No speaker is skipped:
    // each gets at least a second, and those whose slot would start after the end never come.
    (attendees: 7, seconds: 5, speakerChanges: [1: 1, 2: 2, 3: 3, 4: 4]),
  ])
  func unevenDurationsStillEnd(
    attendees: Int, seconds: Int, speakerChanges: [Int: Int]
  ) async {
    let clock = TestClock()
    var syncUp = SyncUp(id: SyncUp.ID(UUID(0)), duration: .seconds(seconds))
    for index in 0..<attendees {
      syncUp.attendees.append(Attendee(id: Attendee.ID(UUID(index + 10)), name: "A\(index)"))
    }
    let learned = LockIsolated<[SyncUp.ID]>([])
    let store = TestStore(
      initialState: RecordMeeting.State(
        meetingID: meetingID, syncUp: Shared(value: syncUp), input: .none)
    ) {
      RecordMeeting()
    } withDependencies: {
      $0.continuousClock = clock
      $0.date.now = now
      $0.teamLearning.learnWords = { id in learned.withValue { $0.append(id) } }
      $0.uuid = .incrementing
    }
    await store.send(.onTask) { $0.recording = started() }
    var speaker = 0
    for second in 1...seconds {
      await clock.tick()
      speaker = speakerChanges[second] ?? speaker
      await store.receive(\.timerTick) {
        $0.timeline.seconds = second
        $0.secondsElapsed = second
        if second == seconds {
          let meeting = Meeting(id: meetingID, date: now, transcript: "", length: Double(seconds))
          $0.status = .saved(meeting)
          $0.$syncUp.withLock { $0.meetings = [meeting] }
        } else {
          $0.speakerIndex = speaker
        }
      }
    }
    await store.finish()
    #expect(store.isDismissed)
    #expect(learned.value == [syncUp.id])
  }
}
