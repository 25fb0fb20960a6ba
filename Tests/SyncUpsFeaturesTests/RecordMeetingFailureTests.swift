import AudioCore
import ConcurrencyExtras
import Foundation
import MeetingRecorder
import SyncUpsFeatures
import Testing

/// When recording fails: what was heard is kept or discarded as the user says.
extension RecordMeetingTests {
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
          let meeting = Meeting(
            id: meetingID, date: now, transcript: "hello",
            segments: [Meeting.Segment(speaker: "Blob", start: 0.2, end: 0.9, text: "hello")],
            length: 6
          )
          $0.status = .saved(meeting)
          $0.$syncUp.withLock { $0.meetings = [meeting] }
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
}
