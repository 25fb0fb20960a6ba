import AudioCaptureClient
import AudioCore
import AudioFilesClient
import Clocks
import ConcurrencyExtras
import Dependencies
import Foundation
import MeetingRecorder
import MeetingRecorderLive
import Testing
import TranscriptionClient

/// `count` chunks of `seconds` each, loud enough to be heard, one after the other.
private func chunks(_ count: Int, seconds: Double = 1) -> [AudioChunk] {
  let samples = Int(seconds * 16_000)
  return (0..<count).map {
    AudioChunk(samples: Array(repeating: 16_000, count: samples), startSample: $0 * samples)
  }
}

private func stream(
  _ chunks: [AudioChunk], then error: (any Error)? = nil
) -> AsyncThrowingStream<AudioChunk, any Error> {
  AsyncThrowingStream { continuation in
    for chunk in chunks { continuation.yield(chunk) }
    continuation.finish(throwing: error)
  }
}

private let audioURL = URL(fileURLWithPath: "/data/audio/meeting.flac")
private let file = URL(fileURLWithPath: "/samples/meeting.wav")

func request(
  _ input: RecordingInput = .file(file, pace: .fast), transcribes: Bool = true,
  audioFile: URL? = audioURL, endsAt: Double? = nil
) -> RecordingRequest {
  RecordingRequest(
    id: UUID(0), input: input, transcribes: transcribes, audioFile: audioFile,
    vocabulary: ["Ana", "Zorbex"], endsAt: endsAt)
}

struct DiskFull: Error, CustomStringConvertible {
  var description: String { "no space left on device" }
}

/// The clients the recorder composes, as fakes that note what they were given: a file of
/// `input` chunks, a live pass with one utterance per chunk, a second pass that gives
/// `sentences`, and an audio file that keeps what is appended.
final class FakeClients: Sendable {
  let input: [AudioChunk]
  let sentences: [Utterance]
  let appended = LockIsolated(0)
  let log = LockIsolated<[String]>([])
  let options = LockIsolated<[String: TranscriptionOptions]>([:])
  let sentenceChunks = LockIsolated(0)

  init(input: [AudioChunk] = chunks(2), sentences: [Utterance] = []) {
    self.input = input
    self.sentences = sentences
  }

  func install(_ dependencies: inout DependencyValues) {
    dependencies.audioFiles.read = { [input] _ in stream(input) }
    dependencies.audioFiles.append = { _, _ in self.appended.withValue { $0 += 1 } }
    dependencies.audioFiles.close = { _ in self.log.withValue { $0.append("close") } }
    dependencies.audioFiles.delete = { _ in self.log.withValue { $0.append("delete") } }
    dependencies.transcription.checkModel = {}
    dependencies.transcription.transcribeMeeting = { chunks, options in
      self.options.withValue { $0["live"] = options }
      return AsyncThrowingStream { continuation in
        let task = Task {
          do {
            for try await chunk in chunks {
              continuation.yield(
                .final(Utterance(start: chunk.start, end: chunk.end, text: "chunk", words: [])))
            }
            continuation.finish()
          } catch {
            continuation.finish(throwing: error)
          }
        }
        continuation.onTermination = { _ in task.cancel() }
      }
    }
    dependencies.transcription.transcribeSentences = { chunks, options in
      self.options.withValue { $0["sentences"] = options }
      var end = 0.0
      for try await chunk in chunks {
        self.sentenceChunks.withValue { $0 += 1 }
        end = chunk.end
      }
      return self.sentences.filter { $0.start < end }
    }
    // The second pass's bound never comes unless a test moves this clock.
    dependencies.continuousClock = TestClock()
  }
}

/// Every event of a recording, until its stream ends.
func record(
  _ request: RecordingRequest, _ dependencies: (inout DependencyValues) -> Void
) async -> [RecordingEvent] {
  await withDependencies(dependencies) {
    var events: [RecordingEvent] = []
    for await event in await MeetingRecorder.live().record(request) { events.append(event) }
    return events
  }
}

private func utterances(_ events: [RecordingEvent]) -> [Utterance] {
  events.compactMap { if case .utterance(let utterance) = $0 { utterance } else { nil } }
}

/// The live recorder over fake clients: what each event says, in which order, and what becomes
/// of the audio file.
struct MeetingRecorderTests {
  @Test func aFileIsHeardByBothPassesAndItsAudioKept() async {
    let said = Utterance(start: 0.2, end: 1.8, text: "the zorbex team", words: [])
    let fakes = FakeClients(sentences: [said])
    let events = await record(request(), fakes.install)
    // Each chunk is measured, counted in seconds (before its words) and heard by the live pass.
    #expect(events.filter { $0.levels != nil }.count == 2)
    #expect(events.filter { $0.recorded != nil } == [.recorded(seconds: 1), .recorded(seconds: 2)])
    #expect(utterances(events).map(\.start) == [0, 1])
    let first = events.firstIndex { $0.utterance != nil }
    #expect(events.firstIndex(of: .recorded(seconds: 1))! < first!)
    // The second pass's sentences come once it has drained, then the end.
    #expect(events.suffix(2) == [.sentences([said]), .finished(keptAudio: true)])
    #expect(fakes.sentenceChunks.value == 2)
    #expect(fakes.appended.value == 2)
    #expect(fakes.log.value == ["close"])
    // Both passes know the vocabulary.
    let vocabulary = ["Ana", "Zorbex"]
    #expect(fakes.options.value["live"]?.vocabulary == vocabulary)
    #expect(fakes.options.value["sentences"]?.vocabulary == vocabulary)
  }

  @Test func theLevelIsTheLoudnessAndHowLongItHasBeenSilent() async {
    let silence = AudioChunk(samples: Array(repeating: 0, count: 16_000), startSample: 16_000)
    let fakes = FakeClients(input: [chunks(1)[0], silence])
    let events = await record(request(transcribes: false, audioFile: nil), fakes.install)
    let levels = events.compactMap { if case .levels(let levels) = $0 { levels } else { nil } }
      .flatMap { $0 }
    // A file is one source, named after it.
    #expect(levels.map(\.source) == ["meeting.wav", "meeting.wav"])
    #expect(levels.map(\.silentFor) == [0, 1])
    #expect(levels[0].loudness > 0.8 && levels[1].loudness == 0)
    #expect(events.last == .finished(keptAudio: false))
  }

  @Test func anAudioWriteErrorDeletesTheAudioAndTheSecondPassAndGoesOn() async {
    let fakes = FakeClients(sentences: [Utterance(start: 0.2, end: 0.9, text: "x", words: [])])
    let events = await record(request()) {
      fakes.install(&$0)
      $0.audioFiles.append = { _, _ in throw DiskFull() }
    }
    #expect(events.filter { $0.audioDropped != nil } == [.audioDropped("no space left on device")])
    // The live pass goes on; the second pass, which is for the kept audio, is dropped.
    #expect(utterances(events).count == 2)
    #expect(!events.contains { $0.sentences != nil || $0.sentencesFailed != nil })
    #expect(events.last == .finished(keptAudio: false))
    #expect(fakes.log.value == ["close", "delete"])
  }

  @Test func aFailedSecondPassIsSaidInWords() async {
    let fakes = FakeClients()
    let events = await record(request()) {
      fakes.install(&$0)
      $0.transcription.transcribeSentences = { chunks, _ in
        for try await _ in chunks {}
        throw TranscriptionError.decoderFailed("the decoder stopped")
      }
    }
    #expect(
      events.suffix(2) == [
        .sentencesFailed("failed (the decoder stopped)"), .finished(keptAudio: true),
      ])
  }

  @Test func aSecondPassPastItsBoundIsStopped() async {
    let clock = TestClock()
    let stopped = LockIsolated(false)
    let fakes = FakeClients()
    let recording = Task {
      await record(request()) {
        fakes.install(&$0)
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
    }
    // Only the bound's clock moves, a second at a time, until the bound stops the pass.
    while !stopped.value {
      await Task.megaYield()
      await clock.advance(by: .seconds(1))
    }
    let events = await recording.value
    #expect(events.suffix(2) == [.sentencesLate, .finished(keptAudio: true)])
  }

  @Test func aFastFileEndsWhereTheMeetingEnds() async {
    let fakes = FakeClients(input: chunks(4, seconds: 0.5))
    let events = await record(request(transcribes: false, endsAt: 1), fakes.install)
    #expect(events.filter { $0.recorded != nil } == [.recorded(seconds: 1)])
    #expect(fakes.appended.value == 2)
    #expect(events.last == .finished(keptAudio: true))
  }

  @Test func anInputThatBreaksKeepsWhatWasHeard() async {
    let fakes = FakeClients()
    let lost = AudioCaptureError.connectionLost(reason: "the server went away")
    let events = await record(request()) {
      fakes.install(&$0)
      $0.audioFiles.read = { _ in stream(chunks(1), then: lost) }
    }
    #expect(utterances(events).count == 1)
    #expect(events.last == .failed("\(lost)", keptAudio: true))
    #expect(fakes.log.value == ["close"])
  }

  @Test func whatCannotStartIsOneLine() async {
    let noServer = AudioCaptureError.serverNotRunning(reason: "connection refused")
    let microphone = await record(request(.microphone(nil))) {
      FakeClients().install(&$0)
      $0.audioCapture.start = { _ in throw noServer }
    }
    #expect(microphone == [.inputUnavailable("\(noServer)")])
    let missing = await record(request()) {
      FakeClients().install(&$0)
      $0.audioFiles.read = { _ in throw AudioFileError.notFound(path: "/nonexistent.wav") }
    }
    #expect(missing == [.inputUnavailable("cannot read /nonexistent.wav: no such file")])
    let noModel = await record(request()) {
      FakeClients().install(&$0)
      $0.transcription.checkModel = { throw TranscriptionError.modelNotFound("no model here") }
    }
    #expect(noModel == [.startFailed("no model here")])
  }

  /// Stopping ends the microphone's capture; the recording then finishes normally.
  @Test func stopEndsTheCaptureAndTheRecordingFinishes() async {
    let (input, microphone) = AsyncThrowingStream<AudioChunk, any Error>.makeStream()
    let recorder = MeetingRecorder.live()
    await withDependencies {
      FakeClients().install(&$0)
      $0.audioCapture.start = { _ in input }
      $0.audioCapture.stop = { microphone.finish() }
    } operation: {
      var events = await recorder.record(request(.microphone("virtmic"))).makeAsyncIterator()
      microphone.yield(chunks(1)[0])
      #expect(await events.next()?.levels?.map(\.source) == ["virtmic"])
      #expect(await events.next() == .recorded(seconds: 1))
      await recorder.stop(UUID(0))
      var rest: [RecordingEvent] = []
      while let event = await events.next() { rest.append(event) }
      #expect(rest.first?.utterance != nil)
      #expect(rest.suffix(2) == [.sentences([]), .finished(keptAudio: true)])
    }
  }

  /// A discarded meeting: the consumer stops listening, the capture stops, the audio goes.
  @Test func cancellingTheRecordingDeletesItsAudio() async {
    let (input, microphone) = AsyncThrowingStream<AudioChunk, any Error>.makeStream()
    let (deleted, deletion) = AsyncStream.makeStream(of: Void.self)
    let (heard, hearing) = AsyncStream.makeStream(of: Void.self)
    let fakes = FakeClients()
    await withDependencies {
      fakes.install(&$0)
      $0.audioCapture.start = { _ in input }
      $0.audioCapture.stop = { microphone.finish() }
      $0.audioFiles.delete = { _ in deletion.yield() }
    } operation: {
      let events = await MeetingRecorder.live().record(request(.microphone(nil)))
      let consumer = Task {
        for await event in events where event.levels != nil { hearing.yield() }
      }
      microphone.yield(chunks(1)[0])
      for await _ in heard { break }
      consumer.cancel()
      for await _ in deleted { break }
    }
    #expect(fakes.appended.value == 1)
  }
}

/// Capture streams by source name, that a test feeds; `stop` ends them all, as the live
/// client's does, and is counted.
private final class FakeSources: Sendable {
  let streams: [String: AsyncThrowingStream<AudioChunk, any Error>.Continuation]
  private let inputs: [String: AsyncThrowingStream<AudioChunk, any Error>]
  let stops = LockIsolated(0)
  let written = LockIsolated<[Int16]>([])

  init(_ names: [String]) {
    var streams: [String: AsyncThrowingStream<AudioChunk, any Error>.Continuation] = [:]
    var inputs: [String: AsyncThrowingStream<AudioChunk, any Error>] = [:]
    for name in names {
      (inputs[name], streams[name]) = AsyncThrowingStream.makeStream()
    }
    self.streams = streams
    self.inputs = inputs
  }

  func install(_ dependencies: inout DependencyValues) {
    FakeClients().install(&dependencies)
    dependencies.audioCapture.start = { name in
      guard let name, let input = self.inputs[name] else {
        throw AudioCaptureError.sourceNotFound(name: name ?? "(default)")
      }
      return input
    }
    dependencies.audioCapture.stop = {
      self.stops.withValue { $0 += 1 }
      for stream in self.streams.values { stream.finish() }
    }
    dependencies.audioFiles.append = { samples, _ in self.written.withValue { $0 += samples } }
  }

  func play(_ name: String, _ value: Int16, count: Int = 800) {
    streams[name]!.yield(
      AudioChunk(samples: Array(repeating: value, count: count), startSample: 0))
  }
}

/// Several sources at once (a remote stand-up), through the live recorder.
struct SourceMixTests {
  /// Both sources are heard in one stream, added sample by sample as they line up (whatever
  /// the sizes they come in), and each chunk's levels name both sources.
  @Test func severalSourcesAreMixedIntoOneStreamWithALevelEach() async {
    let sources = FakeSources(["mic", "call.monitor"])
    let recorder = MeetingRecorder.live()
    await withDependencies(sources.install) {
      var events = await recorder.record(
        request(.mix(["mic", "call.monitor"]), transcribes: false)
      ).makeAsyncIterator()
      sources.play("mic", 1_000, count: 12_000)
      sources.play("call.monitor", -3_000, count: 8_000)
      let first = await events.next()
      #expect(first?.levels?.map(\.source) == ["mic", "call.monitor"])
      sources.play("call.monitor", 500, count: 8_000)
      sources.play("mic", 0, count: 4_000)
      // A whole second is mixed (and written first): then the recording is stopped.
      var rest: [RecordingEvent] = []
      while let event = await events.next() {
        rest.append(event)
        if event == .recorded(seconds: 1) { await recorder.stop(UUID(0)) }
      }
      #expect(
        rest.filter { $0.levels != nil }.allSatisfy {
          $0.levels?.map(\.source) == ["mic", "call.monitor"]
        })
      #expect(rest.last == .finished(keptAudio: true))
    }
    let expected =
      Array(repeating: Int16(-2_000), count: 8_000) + Array(repeating: 1_500, count: 4_000)
      + Array(repeating: 500, count: 4_000)
    #expect(sources.written.value == expected)
  }

  /// A source that goes away ends the recording: what every source had delivered is kept, the
  /// other source is stopped, and the failure names the source in words.
  @Test func aSourceThatGoesAwayEndsTheRecordingKeepingWhatWasHeard() async {
    let sources = FakeSources(["mic", "call.monitor"])
    let events = await withDependencies(sources.install) {
      let stream = await MeetingRecorder.live().record(
        request(.mix(["mic", "call.monitor"]), transcribes: false))
      sources.play("mic", 1_000)
      sources.play("call.monitor", 1_000)
      sources.play("mic", 2_000)
      sources.streams["call.monitor"]!.finish(
        throwing: AudioCaptureError.sourceGone(name: "call.monitor"))
      var events: [RecordingEvent] = []
      for await event in stream { events.append(event) }
      return events
    }
    #expect(
      events.last
        == .failed("\(AudioCaptureError.sourceGone(name: "call.monitor"))", keptAudio: true))
    #expect(sources.written.value == Array(repeating: 2_000, count: 1_600))
    #expect(sources.stops.value >= 1)
  }

  /// A source that does not exist: nothing is recorded, the sources that did start are stopped,
  /// and it is one line.
  @Test func aMissingSourceStopsTheOthersAndIsOneLine() async {
    let sources = FakeSources(["mic"])
    let events = await record(request(.mix(["mic", "nope"]), transcribes: false), sources.install)
    #expect(events == [.inputUnavailable("\(AudioCaptureError.sourceNotFound(name: "nope"))")])
    #expect(sources.stops.value == 1)
    #expect(sources.written.value.isEmpty)
  }
}
