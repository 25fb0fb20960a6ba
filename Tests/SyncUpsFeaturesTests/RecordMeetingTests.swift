import AudioCore
import ConcurrencyExtras
import Foundation
import MeetingRecorder
import SyncUpsFeatures
import Testing

/// The meeting recorder as the test drives it: `record` gives the events the test sends, and
/// every request and stop is noted.
final class ScriptedRecorder: Sendable {
  private let events: AsyncStream<RecordingEvent>
  private let feed: AsyncStream<RecordingEvent>.Continuation
  let requests = LockIsolated<[RecordingRequest]>([])
  let stops = LockIsolated(0)

  init() {
    (events, feed) = AsyncStream.makeStream()
  }

  func send(_ event: RecordingEvent) { feed.yield(event) }

  /// The recording's last event: the stream ends after it.
  func end(_ event: RecordingEvent) {
    feed.yield(event)
    feed.finish()
  }

  func install(_ dependencies: inout DependencyValues) {
    dependencies.meetingRecorder.record = { request in
      self.requests.withValue { $0.append(request) }
      return self.events
    }
    dependencies.meetingRecorder.stop = { _ in self.stops.withValue { $0 += 1 } }
  }
}

struct CaptureFailure: Error, CustomStringConvertible {
  var description: String { "PulseAudio is not running: connection refused." }
}

private let now = Date(timeIntervalSince1970: 1_234_567_890)
private let meetingID = Meeting.ID(UUID(0))

/// What `onTask` records about the meeting before anything else.
private func started(audio: Bool = false, syncUp: SyncUp = .mock) -> MeetingRecording {
  MeetingRecording(
    meetingID: meetingID, syncUpID: syncUp.id, started: now,
    audioFile: audio ? DataDirectory.audioFile(of: meetingID) : nil
  )
}

@MainActor
struct RecordMeetingTests {
  @Test func timerAdvancesSpeakersAndSavesAtTheEnd() async {
    let clock = TestClock()
    let syncUp = Shared(value: SyncUp.mock)
    let store = TestStore(
      initialState: RecordMeeting.State(meetingID: meetingID, syncUp: syncUp, input: .none)
    ) {
      RecordMeeting()
    } withDependencies: {
      $0.continuousClock = clock
      $0.date.now = now
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
      $0.status = .ended
      $0.$syncUp.withLock {
        $0.meetings = [Meeting(id: meetingID, date: now, transcript: "", length: 6)]
      }
    }
    await store.finish()
    #expect(store.isDismissed)
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
    recorder.send(.utterance(Utterance(start: 2.3, end: 3.1, text: "reviews today", words: [])))
    let reviews = Meeting.Segment(
      speaker: "Blob Jr", start: 2.3, end: 3.1, text: "reviews today")
    await store.receive(\.recorder?.utterance) { $0.pendingSegments = [.init(reviews)] }
    await store.receive(\.segmentKept) {
      $0.pendingSegments = []
      $0.segments.append(reviews)
    }
    await store.send(.endMeetingButtonTapped) {
      $0.alert = .endMeeting(isDiscardable: true)
      $0.timeline.anchors.append(.init(recordingSeconds: 0, meetingSeconds: 0, isPaused: true))
    }
    await store.send(.alert(.presented(.confirmSave))) {
      $0.alert = nil
      $0.status = .ending
    }
    // The recorder is stopped; it transcribes the last words, then says it finished.
    recorder.end(.finished(keptAudio: false))
    await store.receive(\.recorder?.finished) {
      $0.status = .ended
      $0.$syncUp.withLock {
        $0.meetings = [
          Meeting(
            id: meetingID, date: now,
            transcript: "i finished the parser reviews today",
            segments: [
              Meeting.Segment(
                speaker: "Blob", start: 0.4, end: 1.6, text: "i finished the parser",
                words: [Meeting.Word(word: "i", start: 0.4, end: 0.5, confidence: 0.9)]
              ),
              Meeting.Segment(speaker: "Blob Jr", start: 2.3, end: 3.1, text: "reviews today"),
            ],
            length: 3.1
          )
        ]
      }
    }
    await store.finish()
    #expect(store.isDismissed)
    #expect(recorder.stops.value == 1)
    #expect(
      recorder.requests.value == [
        RecordingRequest(
          id: UUID(0), input: .microphone(nil), transcribes: true, audioFile: nil,
          vocabulary: ["Blob", "Blob Jr", "Blob Sr"])
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
    let store = TestStore(
      initialState: RecordMeeting.State(
        meetingID: meetingID, syncUp: Shared(value: .mock), input: .none)
    ) {
      RecordMeeting()
    } withDependencies: {
      $0.continuousClock = clock
      $0.date.now = now
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
      $0.status = .ended
      $0.$syncUp.withLock {
        $0.meetings = [Meeting(id: meetingID, date: now, transcript: "", length: 1)]
      }
    }
    await store.finish()
    #expect(store.isDismissed)
  }

  @Test func continueAfterARecordingFailureKeepsTheTranscript() async {
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
    recorder.send(.utterance(Utterance(start: 0.2, end: 0.9, text: "hello", words: [])))
    let hello = Meeting.Segment(speaker: "Blob", start: 0.2, end: 0.9, text: "hello")
    await store.receive(\.recorder?.utterance) { $0.pendingSegments = [.init(hello)] }
    await store.receive(\.segmentKept) {
      $0.pendingSegments = []
      $0.segments = [hello]
    }
    recorder.end(.failed("PulseAudio is not running: connection refused.", keptAudio: false))
    // The meeting goes on (its clock too) while the alert says what happened.
    await store.receive(\.recorder?.failed) {
      $0.status = .timing
      $0.notice =
        "PulseAudio is not running: connection refused.; the meeting goes on without recording"
      $0.alert = .recordingFailed("PulseAudio is not running: connection refused.")
    }
    await store.send(.alert(.presented(.continueMeeting))) { $0.alert = nil }
    for second in 1...6 {
      await clock.tick()
      await store.receive(\.timerTick) {
        $0.timeline.seconds = second
        $0.secondsElapsed = second
        $0.speakerIndex = min(2, second / 2)
        if second == 6 {
          $0.status = .ended
          $0.$syncUp.withLock {
            $0.meetings = [
              Meeting(
                id: meetingID, date: now, transcript: "hello",
                segments: [Meeting.Segment(speaker: "Blob", start: 0.2, end: 0.9, text: "hello")],
                length: 6
              )
            ]
          }
        }
      }
    }
    await store.finish()
    #expect(store.isDismissed)
  }

  @Test func discardAfterARecordingFailure() async {
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
    recorder.end(.failed("PulseAudio is not running: connection refused.", keptAudio: false))
    // The meeting goes on (its clock too) while the alert says what happened.
    await store.receive(\.recorder?.failed) {
      $0.status = .timing
      $0.notice =
        "PulseAudio is not running: connection refused.; the meeting goes on without recording"
      $0.alert = .recordingFailed("PulseAudio is not running: connection refused.")
    }
    await store.send(.alert(.presented(.confirmDiscard))) {
      $0.alert = nil
      $0.status = .ended
    }
    await store.finish()
    #expect(store.isDismissed)
    #expect(store.state.syncUp.meetings.isEmpty)
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
    let store = TestStore(
      initialState: RecordMeeting.State(
        meetingID: meetingID, syncUp: Shared(value: syncUp), input: .none)
    ) {
      RecordMeeting()
    } withDependencies: {
      $0.continuousClock = clock
      $0.date.now = now
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
          $0.status = .ended
          $0.$syncUp.withLock {
            $0.meetings = [
              Meeting(id: meetingID, date: now, transcript: "", length: Double(seconds))
            ]
          }
        } else {
          $0.speakerIndex = speaker
        }
      }
    }
    await store.finish()
    #expect(store.isDismissed)
  }

  /// The level meter follows the input; from a microphone, the meeting clock is the wall clock's
  /// (seconds of audio change nothing), and the audio is asked to be kept under the meeting's id.
  @Test func theLevelIsShownAndAMicrophoneMeetingKeepsWallClockTime() async {
    let recorder = ScriptedRecorder()
    let store = TestStore(
      initialState: RecordMeeting.State(
        meetingID: meetingID, syncUp: Shared(value: .mock), input: .microphone("virtmic"))
    ) {
      RecordMeeting()
    } withDependencies: {
      $0.continuousClock = TestClock()
      $0.date.now = now
      $0.dataDirectory = DataDirectory(url: URL(fileURLWithPath: "/data"))
      recorder.install(&$0)
    }
    await store.send(.onTask) {
      $0.recording = started(audio: true)
      $0.status = .recording
    }
    recorder.send(.levels([AudioLevel(source: "virtmic", loudness: 0.5, silentFor: 0)]))
    await store.receive(\.recorder?.levels) {
      $0.levels = [AudioLevel(source: "virtmic", loudness: 0.5, silentFor: 0)]
    }
    recorder.send(.recorded(seconds: 1))
    await store.receive(\.recorder?.recorded)
    await store.endAndDiscard()
    await store.finish()
    #expect(
      recorder.requests.value == [
        RecordingRequest(
          id: UUID(0), input: .microphone("virtmic"), transcribes: true,
          audioFile: URL(fileURLWithPath: "/data").appendingPathComponent(
            DataDirectory.audioFile(of: meetingID)),
          vocabulary: ["Blob", "Blob Jr", "Blob Sr"])
      ])
  }

  /// A file read as fast as it decodes: the meeting clock follows the audio's seconds, the input
  /// is asked to end with the meeting, and the meeting ends when its time is up.
  @Test func aFastFileIsTimedByItsAudio() async {
    let recorder = ScriptedRecorder()
    let file = URL(fileURLWithPath: "/meeting.wav")
    let store = TestStore(
      initialState: RecordMeeting.State(
        meetingID: meetingID, syncUp: Shared(value: .mock),
        input: .file(file, pace: .fast, keeping: .transcript))
    ) {
      RecordMeeting()
    } withDependencies: {
      $0.continuousClock = TestClock()
      $0.date.now = now
      recorder.install(&$0)
    }
    await store.send(.onTask) {
      $0.recording = started()
      $0.status = .recording
    }
    for second in 1...6 {
      recorder.send(.recorded(seconds: second))
      await store.receive(\.recorder?.recorded) {
        $0.timeline.seconds = second
        $0.secondsElapsed = second
        $0.speakerIndex = min(2, second / 2)
        if second == 6 { $0.status = .ending }
      }
    }
    recorder.end(.finished(keptAudio: false))
    await store.receive(\.recorder?.finished) {
      $0.status = .ended
      $0.$syncUp.withLock {
        $0.meetings = [Meeting(id: meetingID, date: now, transcript: "", length: 6)]
      }
    }
    await store.finish()
    #expect(store.isDismissed)
    #expect(recorder.stops.value == 1)
    #expect(recorder.requests.value.map(\.input) == [.file(file, pace: .fast)])
    #expect(recorder.requests.value.map(\.endsAt) == [6])
  }

  /// A remote stand-up: several sources mixed by the recorder, each one's level shown. A source
  /// that goes away ends the meeting: it is saved with what was heard, and the failure is said.
  @Test func aRemoteStandUpShowsEachLevelAndALostSourceEndsItSaved() async {
    let (store, recorder) = await remoteStandUp(["mic", "speakers.monitor"])
    let levels = [
      AudioLevel(source: "mic", loudness: 0.7, silentFor: 0),
      AudioLevel(source: "speakers.monitor", loudness: 0.1, silentFor: 4),
    ]
    recorder.send(.levels(levels))
    await store.receive(\.recorder?.levels) { $0.levels = levels }
    let hello = await store.hears(
      Utterance(start: 0.2, end: 0.9, text: "hello", words: []), from: recorder,
      as: Meeting.Segment(speaker: "Blob", start: 0.2, end: 0.9, text: "hello"))
    let gone = "PulseAudio's source speakers.monitor went away while recording"
    recorder.end(.failed(gone, keptAudio: false))
    await store.receive(\.recorder?.failed) {
      $0.failure = "\(gone); the meeting was saved with what was heard until then"
      $0.status = .ended
      $0.$syncUp.withLock {
        $0.meetings = [
          Meeting(
            id: meetingID, date: now, transcript: "hello", segments: [hello], length: 0.9)
        ]
      }
    }
    await store.finish()
    #expect(store.isDismissed)
    #expect(
      recorder.requests.value == [
        RecordingRequest(
          id: UUID(0), input: .mix(["mic", "speakers.monitor"]), transcribes: true,
          audioFile: nil, vocabulary: ["Blob", "Blob Jr", "Blob Sr"])
      ])
  }

  /// A source of a remote stand-up that cannot be recorded is a failure, as a named microphone
  /// is: nothing is saved.
  @Test func aRemoteStandUpWhoseSourceIsMissingFails() async {
    let (store, recorder) = await remoteStandUp(["mic", "nope"])
    recorder.end(.inputUnavailable("PulseAudio has no source named nope"))
    await store.receive(\.recorder?.inputUnavailable) {
      $0.failure = "PulseAudio has no source named nope"
      $0.status = .ended
    }
    await store.finish()
    #expect(store.isDismissed)
    #expect(store.state.syncUp.meetings.isEmpty)
  }

  /// A remote stand-up of `sources`, started: recording, nothing heard yet.
  private func remoteStandUp(
    _ sources: [String]
  ) async -> (TestStore<RecordMeeting.State, RecordMeeting.Action>, ScriptedRecorder) {
    let recorder = ScriptedRecorder()
    let store = TestStore(
      initialState: RecordMeeting.State(
        meetingID: meetingID, syncUp: Shared(value: .mock),
        input: .mix(sources, keeping: .transcript))
    ) {
      RecordMeeting()
    } withDependencies: {
      $0.continuousClock = TestClock()
      $0.date.now = now
      recorder.install(&$0)
    }
    await store.send(.onTask) {
      $0.recording = started()
      $0.status = .recording
    }
    return (store, recorder)
  }
}
