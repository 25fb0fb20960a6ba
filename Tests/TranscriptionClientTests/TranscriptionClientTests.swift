import AudioCaptureClient
import AudioCaptureClientLive
import AudioCore
import AudioFilesClient
import AudioFilesClientLive
import Foundation
import SyncUpsTestSupport
import TestSupport
import Testing
import TranscriptionClient
import TranscriptionClientLive

@testable import BatchTranscriber

/// The real decoder on the bundled samples.
@Suite("Transcription client")
struct TranscriptionClientTests {
  static let sampleNames = ["standup", "hello"]

  @Test(arguments: sampleNames)
  func samplesDecodeToTheirCommittedTranscripts(name: String) async throws {
    let transcript = try await TranscriptionClient.live()
      .transcribeFile(samples.appendingPathComponent("\(name).wav"))
    #expect(transcript.text == (try committedTranscript(name)))
  }

  @Test func meetingHasWordsTimesAndConfidences() async throws {
    let url = samples.appendingPathComponent("standup.wav")
    let transcript = try await TranscriptionClient.live().transcribeFile(url)
    let lines = try String(
      contentsOf: samples.appendingPathComponent("standup.txt"), encoding: .utf8
    )
    .split(separator: "\n")
    // Each spoken line is at least one utterance; pauses separate them.
    #expect(transcript.utterances.count >= lines.count)
    #expect(abs(transcript.duration - (try AudioFileReader(path: url.path).info.duration)) < 0.01)
    var previousEnd = 0.0
    for utterance in transcript.utterances {
      #expect(!utterance.words.isEmpty)
      #expect(utterance.words.map(\.word).joined(separator: " ") == utterance.text)
      #expect(utterance.start >= previousEnd && utterance.end > utterance.start)
      #expect(
        utterance.start == utterance.words.first?.start
          && utterance.end == utterance.words.last?.end)
      for word in utterance.words {
        #expect(word.end > word.start && word.start >= previousEnd)
        #expect((0...1).contains(word.confidence))
        previousEnd = word.end
      }
    }
    #expect(previousEnd <= transcript.duration)
    // The stand-up starts after half a second of silence: times count from the file's start.
    #expect(transcript.utterances[0].start >= 0.5)
  }

  /// Streaming the file through a capture replay gives the same finals, and partials before them.
  @Test func streamingGivesPartialsAndTheSameFinals() async throws {
    let url = samples.appendingPathComponent("standup.wav")
    let whole = try await TranscriptionClient.live().transcribeFile(url)
    let capture = AudioCaptureClient.replaying(url, pace: .asFastAsPossible, chunkSamples: 1_234)
    let events = try await TranscriptionClient.live().transcribe(try await capture.start(nil))
    var finals: [Utterance] = []
    var partialsBeforeFinal: [Int] = []
    var partials = 0
    for try await event in events {
      switch event {
      case .partial: partials += 1
      case .final(let utterance):
        finals.append(utterance)
        partialsBeforeFinal.append(partials)
        partials = 0
      }
    }
    #expect(finals == whole.utterances)
    #expect(partialsBeforeFinal.allSatisfy { $0 > 0 })
  }

  /// The stream flushes the last utterance when the audio ends mid-speech.
  @Test func flushesTheLastUtteranceWhenTheStreamEnds() async throws {
    let url = samples.appendingPathComponent("hello.wav")
    let audio = try AudioFileReader(path: url.path).readAll()
    let cut = Array(audio.prefix(audio.count * 2 / 3))
    let (chunks, continuation) = AsyncThrowingStream<AudioChunk, any Error>.makeStream()
    continuation.yield(AudioChunk(samples: cut, startSample: 0))
    continuation.finish()
    var finals: [Utterance] = []
    for try await event in try await TranscriptionClient.live().transcribe(chunks) {
      if case .final(let utterance) = event { finals.append(utterance) }
    }
    #expect(finals.count == 1)
    #expect(finals.first?.text.hasPrefix("hello world") == true)
  }

  /// The same sample as 44.1 kHz stereo, 48 kHz float and FLAC gives the same words.
  @Test func formatVariantsGiveTheSameWords() async throws {
    let folder = try TemporaryDirectory().url
    defer { try? FileManager.default.removeItem(at: folder) }
    let original = samples.appendingPathComponent("standup.wav")
    let variants = [
      (folder.appendingPathComponent("stereo44.wav"), ["-r", "44100", "-c", "2"]),
      (
        folder.appendingPathComponent("float48.wav"),
        ["-r", "48000", "-e", "floating-point", "-b", "32"]
      ),
      (folder.appendingPathComponent("standup.flac"), [String]()),
    ]
    let client = TranscriptionClient.live()
    let reference = try await client.transcribeFile(original).text
    for (url, options) in variants {
      // -D: no dither, so the variant is the same audio converted, not with fresh random noise.
      try await sox(["-D", original.path] + options + [url.path])
      let text = try await client.transcribeFile(url).text
      let wer = wordErrorRate(reference, text)
      #expect(wer <= 0.02, "\(url.lastPathComponent): WER \(wer)\n\(text)")
    }
  }

  /// Blocks its thread while the batch runs (`BatchTranscriber.run` returns when every file is
  /// decoded): a thread of its own.
  @Test(.ownThread) func batchWorkersGiveTheSameResultsInInputOrder() throws {
    let files = ["standup", "hello", "standup", "hello"].map {
      samples.appendingPathComponent("\($0).wav").path
    }
    let results = Results()
    try BatchTranscriber(jobs: 2).run(files: files) { results.append($0) }
    let all = results.all
    #expect(all.map(\.index) == [0, 1, 2, 3])
    let texts = all.map { (try? $0.outcome.get())?.text ?? "failed" }
    #expect(texts[0] == (try committedTranscript("standup")) && texts[2] == texts[0])
    #expect(texts[1] == (try committedTranscript("hello")) && texts[3] == texts[1])
  }

  @Test func batchTakesTheLongestFilesFirst() async throws {
    let folder = try TemporaryDirectory().url
    defer { try? FileManager.default.removeItem(at: folder) }
    // A short WAV, a long FLAC (smaller on disk than the WAVs), a middling WAV, and a file
    // that is not audio, ranked by its size.
    let short = folder.appendingPathComponent("short.wav")
    let long = folder.appendingPathComponent("long.flac")
    let middle = folder.appendingPathComponent("middle.wav")
    let text = folder.appendingPathComponent("notes.wav")
    try await sox(["-n", "-r", "16000", "-b", "16", "-c", "1", short.path, "trim", "0", "1"])
    try await sox(["-n", "-r", "16000", "-b", "16", "-c", "1", long.path, "trim", "0", "9"])
    try await sox(["-n", "-r", "16000", "-b", "16", "-c", "1", middle.path, "trim", "0", "3"])
    try Data(repeating: 65, count: 64_000).write(to: text)
    let order = BatchTranscriber.longestFirst(
      [short, long, middle, text].map { BatchTranscriber.audioSeconds($0.path) })
    #expect(order == [1, 2, 3, 0])
  }

  @Test func modelResolutionOrderAndClearErrors() throws {
    let system = try SpeechModel.resolve(environment: [:], currentDirectory: "/nonexistent")
    #expect(system.acousticModel == SpeechModel.systemDirectory + "/en-us")
    #expect(system.languageModel == SpeechModel.systemDirectory + "/en-us.lm.bin")
    #expect(system.dictionary == SpeechModel.systemDirectory + "/cmudict-en-us.dict")

    // SYNCUPS_MODEL_DIR wins over Models/ and the system; an explicit option wins over it.
    let folder = try TemporaryDirectory().url
    defer { try? FileManager.default.removeItem(at: folder) }
    #expect(throws: TranscriptionError.self) {
      try SpeechModel.resolve(environment: [SpeechModel.environmentVariable: folder.path])
    }
    do {
      _ = try SpeechModel.resolve(environment: [SpeechModel.environmentVariable: folder.path])
    } catch {
      #expect(
        error.description.contains(
          "lacks an acoustic model folder (with mdef), a language model (*.lm.bin), a dictionary (*.dict)"
        ))
      #expect(error.description.contains(SpeechModel.environmentVariable))
      #expect(!error.description.contains("\n"))
    }
    do {
      _ = try SpeechModel.resolve(explicit: "/nonexistent/model", environment: [:])
      Issue.record("expected an error")
    } catch {
      #expect(
        error == .modelNotFound("model folder /nonexistent/model (from --model-dir) does not exist")
      )
    }

    // Models/ is used when it holds a complete model (here: links to the system's files).
    let models = folder.appendingPathComponent("Models")
    try FileManager.default.createDirectory(at: models, withIntermediateDirectories: true)
    #expect(try SpeechModel.resolve(environment: [:], currentDirectory: folder.path) == system)
    for name in ["en-us", "en-us.lm.bin", "cmudict-en-us.dict"] {
      try FileManager.default.createSymbolicLink(
        atPath: models.appendingPathComponent(name).path,
        withDestinationPath: SpeechModel.systemDirectory + "/" + name)
    }
    let local = try SpeechModel.resolve(environment: [:], currentDirectory: folder.path)
    #expect(local.dictionary == models.appendingPathComponent("cmudict-en-us.dict").path)
  }

  @Test func missingModelFailsBeforeTranscribing() async throws {
    let client = TranscriptionClient.live(
      options: DecoderOptions(modelDirectory: "/nonexistent/model"))
    await #expect(throws: TranscriptionError.self) { try await client.checkModel() }
    let (chunks, _) = AsyncThrowingStream<AudioChunk, any Error>.makeStream()
    await #expect(throws: TranscriptionError.self) { _ = try await client.transcribe(chunks) }
  }
}

final class Results: @unchecked Sendable {
  private let lock = NSLock()
  private var results: [BatchTranscriber.Result] = []
  var all: [BatchTranscriber.Result] { lock.withLock { results } }
  func append(_ result: BatchTranscriber.Result) { lock.withLock { results.append(result) } }
}
