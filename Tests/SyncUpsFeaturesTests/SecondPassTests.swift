import AudioCore
import ConcurrencyExtras
import Foundation
import SyncUpsFeatures
import Testing
import TranscriptionClient

private let now = Date(timeIntervalSince1970: 1_234_567_890)
private let meetingID = Meeting.ID(UUID(0))

private func started(audio: Bool) -> MeetingRecording {
  MeetingRecording(
    meetingID: meetingID, syncUpID: SyncUp.mock.id, started: now,
    audioFile: audio ? DataDirectory.audioFile(of: meetingID) : nil
  )
}

/// Six seconds of audio in one chunk: every slot of `SyncUp.mock`.
private let sixSeconds = AudioChunk(samples: Array(repeating: 0, count: 6 * 16_000), startSample: 0)

private var withWords: SyncUp {
  var syncUp = SyncUp.mock
  syncUp.vocabulary = ["Grafana", "pull request"]
  return syncUp
}

private let live = Meeting.Segment(
  speaker: "Blob", start: 0.4, end: 1.6, text: "i finished the parcel")

/// Holds whoever waits until the test opens it.
final class Gate: Sendable {
  private let stream = AsyncStream.makeStream(of: Void.self)
  func wait() async { for await _ in stream.stream { return } }
  func open() { stream.continuation.finish() }
}

/// A `RecordMeeting` store recording `syncUp` from the microphone: with `closing`, the audio is
/// kept in a file whose closing waits for it; without, only the transcript is kept.
/// `dependencies` adds (or overrides) the test's own.
@MainActor
private func recordingStore(
  _ syncUp: SyncUp = .mock, audio: ScriptedAudio, closing: Gate? = nil,
  dependencies: (inout DependencyValues) -> Void = { _ in },
  fileID: StaticString = #fileID, filePath: StaticString = #filePath,
  line: UInt = #line, column: UInt = #column
) -> TestStore<RecordMeeting.State, RecordMeeting.Action> {
  TestStore(
    initialState: RecordMeeting.State(
      meetingID: meetingID, syncUp: Shared(value: syncUp),
      input: closing == nil ? .microphone(nil, keeping: .transcript) : .microphone(nil)),
    reducer: { RecordMeeting() },
    withDependencies: {
      $0.continuousClock = TestClock()
      $0.date.now = now
      if let closing {
        $0.audioFiles.append = { _, _ in }
        $0.audioFiles.close = { _ in await closing.wait() }
      }
      audio.install(&$0)
      dependencies(&$0)
    }, fileID: fileID, filePath: filePath, line: line, column: column)
}

extension TestStore where State == RecordMeeting.State, Action == RecordMeeting.Action {
  /// Recording starts, six seconds of audio come with `live` heard and kept, and the meeting is
  /// ended and saved: the second pass runs.
  fileprivate func keepLiveAndEnd(
    _ audio: ScriptedAudio,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath,
    line: UInt = #line, column: UInt = #column
  ) async {
    await send(
      .onTask,
      assert: {
        $0.recording = started(audio: true)
        $0.status = .recording
      }, fileID: fileID, filePath: filePath, line: line, column: column)
    audio.chunkFeed.yield(sixSeconds)
    audio.eventFeed.yield(.final(Utterance(start: 0.4, end: 1.6, text: live.text, words: [])))
    await receive(
      \.speechResult, assert: { $0.pendingSegments = [.init(live)] },
      fileID: fileID, filePath: filePath, line: line, column: column)
    await receive(
      \.segmentKept,
      assert: {
        $0.pendingSegments = []
        $0.segments = [live]
      }, fileID: fileID, filePath: filePath, line: line, column: column)
    await send(
      .endAndSaveRequested, assert: { $0.status = .ending },
      fileID: fileID, filePath: filePath, line: line, column: column)
  }

  /// The audio file is closed after the second pass (`closing` opens): then the meeting is
  /// saved with `segments`, and everything ends.
  fileprivate func closeAndSave(
    _ closing: Gate, segments: [Meeting.Segment],
    fileID: StaticString = #fileID, filePath: StaticString = #filePath,
    line: UInt = #line, column: UInt = #column
  ) async {
    closing.open()
    await receive(
      \.recordingFinished,
      assert: {
        $0.status = .ended
        $0.$syncUp.withLock {
          $0.meetings = [Meeting.recorded(started(audio: true), segments: segments, length: 0)]
        }
      }, fileID: fileID, filePath: filePath, line: line, column: column)
    await finish()
  }
}

/// The live pass shows results as they come; the saved meeting is the second pass's whole
/// sentences, attributed to speakers as the live ones are; both passes know the vocabulary.
@MainActor
struct SecondPassTests {
  @Test func theMeetingIsSavedWithTheSecondPassSentences() async {
    let closing = Gate()
    let audio = ScriptedAudio(sentences: [
      Utterance(start: 0.4, end: 2.8, text: "i finished the parser reviews today", words: []),
      Utterance(start: 4.2, end: 5.0, text: "grafana is down", words: []),
    ])
    let store = recordingStore(withWords, audio: audio, closing: closing)
    await store.keepLiveAndEnd(audio)
    let sentences = [
      Meeting.Segment(
        speaker: "Blob", start: 0.4, end: 2.8, text: "i finished the parser reviews today"),
      Meeting.Segment(speaker: "Blob Sr", start: 4.2, end: 5.0, text: "grafana is down"),
    ]
    await store.receive(\.secondPassFinished) { $0.sentenceSegments = sentences }
    await store.closeAndSave(closing, segments: sentences)
    #expect(store.isDismissed)
    #expect(audio.sentenceChunks.value == 1)
    let vocabulary = ["Blob", "Blob Jr", "Blob Sr", "Grafana", "pull request"]
    #expect(audio.options.value["live"]?.vocabulary == vocabulary)
    #expect(audio.options.value["sentences"]?.vocabulary == vocabulary)
  }

  @Test func aFailedSecondPassSavesTheLiveTranscriptAndSaysSo() async {
    let closing = Gate()
    let audio = ScriptedAudio()
    let store = recordingStore(audio: audio, closing: closing) {
      $0.transcription.transcribeSentences = { chunks, _ in
        for try await _ in chunks {}
        throw TranscriptionError.decoderFailed("the decoder stopped")
      }
    }
    await store.keepLiveAndEnd(audio)
    await store.receive(\.secondPassFailed) {
      $0.notice =
        "the whole-sentence pass failed (the decoder stopped); the live transcript is saved instead"
    }
    await store.closeAndSave(closing, segments: [live])
    #expect(store.isDismissed)
  }

  @Test func aSecondPassPastItsBoundIsStoppedAndTheLiveTranscriptSaved() async {
    let clock = TestClock()
    let closing = Gate()
    let audio = ScriptedAudio()
    let stopped = LockIsolated(false)
    let store = recordingStore(audio: audio, closing: closing) {
      $0.continuousClock = clock
      // A decoder that never finishes until it is stopped.
      $0.transcription.transcribeSentences = { chunks, _ in
        for try await _ in chunks {}
        await withTaskCancellationHandler {
          try? await Task.sleep(for: .seconds(3600))
        } onCancel: {
          stopped.setValue(true)
        }
        throw CancellationError()
      }
    }
    await store.keepLiveAndEnd(audio)
    // Meeting time stands still (the timer is stopped); only the bound's clock moves, a second
    // at a time, until the bound stops the pass.
    while !stopped.value {
      await Task.megaYield()
      await clock.advance(by: .seconds(1))
    }
    await store.receive(\.secondPassFailed) {
      $0.notice =
        "the whole-sentence pass took longer than 30s; the live transcript is saved instead"
    }
    await store.closeAndSave(closing, segments: [live])
  }

  /// A final utterance is shown only once the recording store has it, and the save waits for
  /// appends still in flight: what was printed survives a SIGKILL.
  @Test func aFinalIsShownOnlyOnceKeptAndTheSaveWaitsForIt() async {
    let audio = ScriptedAudio()
    let gate = AsyncStream.makeStream(of: Void.self)
    let log = LockIsolated<[String]>([])
    let store = recordingStore(audio: audio) {
      $0.recordingStore = RecordingStore(
        begin: { _ in log.withValue { $0.append("begin") } },
        append: { segment, _ in
          for await _ in gate.stream { break }
          log.withValue { $0.append("append \(segment.text)") }
        },
        finish: { _, _ in log.withValue { $0.append("finish") } },
        discard: { _ in log.withValue { $0.append("discard") } },
        recoverUnfinished: { [] }
      )
    }
    await store.send(.onTask) {
      $0.recording = started(audio: false)
      $0.status = .recording
    }
    audio.eventFeed.yield(.final(Utterance(start: 0.4, end: 1.6, text: live.text, words: [])))
    // Heard, but not shown: the store does not have it yet.
    await store.receive(\.speechResult) { $0.pendingSegments = [.init(live)] }
    await store.send(.endAndSaveRequested) { $0.status = .ending }
    await store.receive(\.recordingFinished) { $0.savesWhenKept = true }
    #expect(store.state.syncUp.meetings.isEmpty)
    gate.continuation.yield()
    await store.receive(\.segmentKept) {
      $0.pendingSegments = []
      $0.segments = [live]
      $0.savesWhenKept = false
      $0.status = .ended
      $0.$syncUp.withLock {
        $0.meetings = [Meeting.recorded(started(audio: false), segments: [live], length: 0)]
      }
    }
    await store.finish()
    #expect(store.isDismissed)
    #expect(log.value == ["begin", "append \(live.text)", "finish"])
  }

  /// Keeps come back in any order; segments are shown in the order they were heard.
  @Test func finalsAreShownInTheOrderHeardWhateverOrderTheStoreReturns() async {
    let audio = ScriptedAudio()
    let gates = LockIsolated<[String: AsyncStream<Void>.Continuation]>([:])
    let store = recordingStore(audio: audio) {
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
    audio.eventFeed.yield(.final(Utterance(start: 0.4, end: 1.6, text: live.text, words: [])))
    await store.receive(\.speechResult) { $0.pendingSegments = [.init(live)] }
    audio.eventFeed.yield(.final(Utterance(start: 2.2, end: 2.9, text: second.text, words: [])))
    await store.receive(\.speechResult) { $0.pendingSegments = [.init(live), .init(second)] }
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
