import AudioCore
import ConcurrencyExtras
import Foundation
import MeetingRecorder
import SyncUpsFeatures
import Testing

private var withWords: SyncUp {
  var syncUp = SyncUp.mock
  syncUp.vocabulary = ["Grafana", "pull request"]
  return syncUp
}

private let live = Meeting.Segment(
  speaker: "Blob", start: 0.4, end: 1.6, text: "i finished the parcel")

/// A `RecordMeeting` store recording `syncUp` from the microphone with the recorder the test
/// drives: with `keepsAudio`, the audio is kept too (and so the second pass runs); without, only
/// the transcript is kept. `dependencies` adds (or overrides) the test's own.
@MainActor
private func recordingStore(
  _ syncUp: SyncUp = .mock, recorder: ScriptedRecorder, keepsAudio: Bool = false,
  dependencies: (inout DependencyValues) -> Void = { _ in },
  fileID: StaticString = #fileID, filePath: StaticString = #filePath,
  line: UInt = #line, column: UInt = #column
) -> TestStore<RecordMeeting.State, RecordMeeting.Action> {
  TestStore(
    initialState: RecordMeeting.State(
      meetingID: meetingID, syncUp: Shared(value: syncUp),
      input: keepsAudio ? .microphone(nil) : .microphone(nil, keeping: .transcript)),
    reducer: { RecordMeeting() },
    withDependencies: {
      $0.continuousClock = TestClock()
      $0.date.now = now
      recorder.install(&$0)
      dependencies(&$0)
    }, fileID: fileID, filePath: filePath, line: line, column: column)
}

extension TestStore where State == RecordMeeting.State, Action == RecordMeeting.Action {
  /// Recording starts with the audio kept, `live` is heard and kept, and the meeting is ended
  /// and saved: the recorder's second pass drains.
  fileprivate func keepLiveAndEnd(
    _ recorder: ScriptedRecorder,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath,
    line: UInt = #line, column: UInt = #column
  ) async {
    await send(
      .onTask,
      assert: {
        $0.recording = started(audio: true)
        $0.status = .recording
      }, fileID: fileID, filePath: filePath, line: line, column: column)
    recorder.send(.utterance(Utterance(start: 0.4, end: 1.6, text: live.text, words: [])))
    await receive(
      \.recorder?.utterance, assert: { $0.pendingSegments = [.init(live)] },
      fileID: fileID, filePath: filePath, line: line, column: column)
    await receive(
      \.segmentKept,
      assert: {
        $0.pendingSegments = []
        $0.segments = [live]
      }, fileID: fileID, filePath: filePath, line: line, column: column)
    await send(
      .endAndSaveRequested, assert: { $0.status = .ending(.live) },
      fileID: fileID, filePath: filePath, line: line, column: column)
  }

  /// The recorder finishes with the audio kept: the meeting is saved with `segments`, and
  /// everything ends.
  fileprivate func finishAndSave(
    _ recorder: ScriptedRecorder, segments: [Meeting.Segment],
    fileID: StaticString = #fileID, filePath: StaticString = #filePath,
    line: UInt = #line, column: UInt = #column
  ) async {
    recorder.end(.finished(keptAudio: true))
    await receive(
      \.recorder?.finished,
      assert: {
        let meeting = Meeting.recorded(started(audio: true), segments: segments, length: 0)
        $0.status = .saved(meeting)
        $0.$syncUp.withLock { $0.meetings = [meeting] }
      }, fileID: fileID, filePath: filePath, line: line, column: column)
    await finish()
  }
}

/// The live pass shows results as they come; the saved meeting is the second pass's whole
/// sentences, attributed to speakers as the live ones are; both passes know the vocabulary.
@MainActor
struct SecondPassTests {
  @Test func theMeetingIsSavedWithTheSecondPassSentences() async {
    let recorder = ScriptedRecorder()
    let store = recordingStore(withWords, recorder: recorder, keepsAudio: true)
    await store.keepLiveAndEnd(recorder)
    recorder.send(
      .sentences([
        Utterance(start: 0.4, end: 2.8, text: "i finished the parser reviews today", words: []),
        Utterance(start: 4.2, end: 5.0, text: "grafana is down", words: []),
      ]))
    let sentences = [
      Meeting.Segment(
        speaker: "Blob", start: 0.4, end: 2.8, text: "i finished the parser reviews today"),
      Meeting.Segment(speaker: "Blob Sr", start: 4.2, end: 5.0, text: "grafana is down"),
    ]
    // No voices came with them: attributed by slot, and ready.
    await store.receive(\.recorder?.sentences) {
      $0.status = .ending(.told(sentences, learned: [:]))
    }
    await store.finishAndSave(recorder, segments: sentences)
    #expect(store.isDismissed)
    // Both passes are given the vocabulary (MeetingRecorderTests: the live recorder does).
    let vocabulary = ["Blob", "Blob Jr", "Blob Sr", "Grafana", "pull request"]
    #expect(recorder.requests.value.map(\.vocabulary) == [vocabulary])
    #expect(recorder.requests.value.map(\.transcribes) == [true])
    #expect(recorder.requests.value.allSatisfy { $0.audioFile != nil })
    // With its audio kept and the voices used, the saved meeting teaches the sync-up's words,
    // then the background pass adapts the voices: whatever front end recorded it.
    #expect(recorder.afterSave.value == ["words mock", "background"])
  }

  /// `--use-learning words`: the voices are not used, so nothing is started in the background
  /// for a meeting whose sentences came in time; its words are still learned.
  @Test func withoutTheVoicesOnlyTheWordsAreLearned() async {
    let recorder = ScriptedRecorder()
    let store = TestStore(
      initialState: RecordMeeting.State(
        meetingID: meetingID, syncUp: Shared(value: .mock), input: .microphone(nil),
        learning: .words),
      reducer: { RecordMeeting() },
      withDependencies: {
        $0.continuousClock = TestClock()
        $0.date.now = now
        recorder.install(&$0)
      })
    await store.keepLiveAndEnd(recorder)
    await store.finishAndSave(recorder, segments: [live])
    #expect(recorder.afterSave.value == ["words mock"])
  }

  @Test func aFailedSecondPassSavesTheLiveTranscriptAndSaysSo() async {
    let recorder = ScriptedRecorder()
    let store = recordingStore(recorder: recorder, keepsAudio: true)
    await store.keepLiveAndEnd(recorder)
    recorder.send(.sentencesFailed("failed (the decoder stopped)"))
    await store.receive(\.recorder?.sentencesFailed) {
      $0.notice =
        "the whole-sentence pass failed (the decoder stopped); the live transcript is saved instead"
    }
    await store.finishAndSave(recorder, segments: [live])
    #expect(store.isDismissed)
  }

  /// The second pass had not caught up when the meeting ended (`MeetingRecorderTests`): the
  /// meeting is saved at once with the live transcript, its pass is noted before the save and
  /// started in the background after it (`SentencePassTests` runs it), and the notice says so.
  @Test func aLateSecondPassSavesTheLiveTranscriptAndFinishesInTheBackground() async {
    let recorder = ScriptedRecorder()
    let log = LockIsolated<[String]>([])
    let store = recordingStore(recorder: recorder, keepsAudio: true) {
      $0.recordingStore.deferSentencePass = { id, _ in
        log.withValue { $0.append("defer \(id == meetingID)") }
      }
      $0.sentencePasses.startInBackground = { log.withValue { $0.append("start") } }
    }
    await store.keepLiveAndEnd(recorder)
    recorder.send(.sentencesLate)
    await store.receive(\.recorder?.sentencesLate) {
      $0.status = .ending(.late)
      $0.notice =
        "the whole sentences are not ready yet; the live transcript is saved now and replaced "
        + "by them in the background"
    }
    await store.finishAndSave(recorder, segments: [live])
    #expect(log.value == ["defer true", "start"])
  }

  /// A final utterance is shown only once the recording store has it, and the save waits for
  /// appends still in flight: what was printed survives a SIGKILL.
  @Test func aFinalIsShownOnlyOnceKeptAndTheSaveWaitsForIt() async {
    let recorder = ScriptedRecorder()
    let gate = AsyncStream.makeStream(of: Void.self)
    let log = LockIsolated<[String]>([])
    let store = recordingStore(recorder: recorder) {
      $0.recordingStore = RecordingStore(
        begin: { _ in log.withValue { $0.append("begin") } },
        append: { segment, _ in
          for await _ in gate.stream { break }
          log.withValue { $0.append("append \(segment.text)") }
        },
        release: { _ in log.withValue { $0.append("release") } },
        deferSentencePass: { _, _ in log.withValue { $0.append("defer") } },
        discard: { _ in log.withValue { $0.append("discard") } },
        recoverUnfinished: { [] },
        voices: { _ in [:] },
        learnVoices: { _ in }
      )
    }
    await store.send(.onTask) {
      $0.recording = started(audio: false)
      $0.status = .recording
    }
    recorder.send(.utterance(Utterance(start: 0.4, end: 1.6, text: live.text, words: [])))
    // Heard, but not shown: the store does not have it yet.
    await store.receive(\.recorder?.utterance) { $0.pendingSegments = [.init(live)] }
    await store.send(.endAndSaveRequested) { $0.status = .ending(.live) }
    recorder.end(.finished(keptAudio: false))
    await store.receive(\.recorder?.finished) { $0.status = .saving(.live) }
    #expect(store.state.syncUp.meetings.isEmpty)
    gate.continuation.yield()
    await store.receive(\.segmentKept) {
      $0.pendingSegments = []
      $0.segments = [live]
      let meeting = Meeting.recorded(started(audio: false), segments: [live], length: 0)
      $0.status = .saved(meeting)
      $0.$syncUp.withLock { $0.meetings = [meeting] }
    }
    await store.finish()
    #expect(store.isDismissed)
    #expect(log.value == ["begin", "append \(live.text)", "release"])
  }

  /// Keeps come back in any order; segments are shown in the order they were heard.
  @Test func finalsAreShownInTheOrderHeardWhateverOrderTheStoreReturns() async {
    let recorder = ScriptedRecorder()
    let gates = LockIsolated<[String: AsyncStream<Void>.Continuation]>([:])
    let store = recordingStore(recorder: recorder) {
      $0.recordingStore.begin = { _ in }
      $0.recordingStore.append = { segment, _ in
        let gate = AsyncStream.makeStream(of: Void.self)
        gates.withValue { $0[segment.text] = gate.continuation }
        for await _ in gate.stream { break }
      }
    }
    await store.send(.onTask) {
      $0.recording = started(audio: false)
      $0.status = .recording
    }
    let second = Meeting.Segment(speaker: "Blob Jr", start: 2.2, end: 2.9, text: "me next")
    recorder.send(.utterance(Utterance(start: 0.4, end: 1.6, text: live.text, words: [])))
    await store.receive(\.recorder?.utterance) { $0.pendingSegments = [.init(live)] }
    recorder.send(.utterance(Utterance(start: 2.2, end: 2.9, text: second.text, words: [])))
    await store.receive(\.recorder?.utterance) {
      $0.pendingSegments = [.init(live), .init(second)]
    }
    while gates.value.count < 2 { await Task.yield() }
    gates.value[second.text]?.yield()
    await store.receive(\.segmentKept) {
      $0.pendingSegments = [.init(live), .init(second, isKept: true)]
    }
    gates.value[live.text]?.yield()
    await store.receive(\.segmentKept) {
      $0.pendingSegments = []
      $0.segments = [live, second]
    }
    await store.endAndDiscard()
    await store.finish()
  }
}
