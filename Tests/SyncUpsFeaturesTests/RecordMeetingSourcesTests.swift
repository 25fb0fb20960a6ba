import AudioCore
import ConcurrencyExtras
import Foundation
import MeetingRecorder
import SyncUpsFeatures
import Testing

/// Where the audio comes from: a microphone's level and wall clock, a file timed by its audio, a
/// remote stand-up's sources.
extension RecordMeetingTests {
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
          vocabulary: ["Blob", "Blob Jr", "Blob Sr"],
          teamModel: URL(fileURLWithPath: "/data").appendingPathComponent(
            DataDirectory.teamWordsFile(of: SyncUp.ID(UUID(0)))))
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
        if second == 6 { $0.status = .ending(.live) }
      }
    }
    // Nobody waits on a microphone: the recording waits for the whole sentences, saying how
    // far they are (shown as a progress bar), and they are saved.
    recorder.send(.sentencesProgress(0.5))
    await store.receive(\.recorder?.sentencesProgress) { $0.status = .ending(.catchingUp(0.5)) }
    let sentence = Meeting.Segment(speaker: "Blob", start: 0.5, end: 1.5, text: "hello there")
    recorder.send(.sentences([Utterance(start: 0.5, end: 1.5, text: "hello there", words: [])]))
    await store.receive(\.recorder?.sentences) {
      $0.status = .ending(.told([sentence], learned: [:]))
    }
    recorder.end(.finished(keptAudio: false))
    await store.receive(\.recorder?.finished) {
      let meeting = Meeting.recorded(started(), segments: [sentence], length: 6)
      $0.status = .saved(meeting)
      $0.$syncUp.withLock { $0.meetings = [meeting] }
    }
    await store.finish()
    #expect(store.isDismissed)
    #expect(recorder.stops.value == 1)
    #expect(recorder.requests.value.map(\.input) == [.file(file, pace: .fast)])
    #expect(recorder.requests.value.map(\.endsAt) == [6])
    #expect(recorder.requests.value.map(\.waitsForSentences) == [true])
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
      let meeting = Meeting(
        id: meetingID, date: now, transcript: "hello", segments: [hello], length: 0.9)
      $0.status = .saved(meeting)
      $0.$syncUp.withLock { $0.meetings = [meeting] }
    }
    await store.finish()
    #expect(store.isDismissed)
    #expect(
      recorder.requests.value == [
        RecordingRequest(
          id: UUID(0), input: .mix(["mic", "speakers.monitor"]), transcribes: true,
          audioFile: nil, vocabulary: ["Blob", "Blob Jr", "Blob Sr"],
          teamModel: URL(fileURLWithPath: "/syncups-tests").appendingPathComponent(
            DataDirectory.teamWordsFile(of: SyncUp.ID(UUID(0)))))
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
  func remoteStandUp(
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
