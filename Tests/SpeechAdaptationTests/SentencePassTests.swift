import AudioCore
import AudioFilesClient
import AudioFilesClientLive
import Foundation
import TestSupport
import Testing
import TranscriptionClient
import TranscriptionClientLive

/// One sentence spoken by flite in two breaths: about 0.4 s of silence between its halves
/// (flite's own padding at the end and start of each half).
func twoSentences() throws -> String {
  let first = try flite("Yesterday Priya fixed the webhook retries")
  let second = try flite("and today she will deploy them to staging.")
  defer {
    unlink(first)
    unlink(second)
  }
  let path = FileManager.default.temporaryDirectory
    .appendingPathComponent("syncups-two-\(UUID().uuidString.prefix(8)).wav").path
  let pause = path + ".pause.wav"
  defer { unlink(pause) }
  try runTool("sox", ["-n", "-r", "16000", "-c", "1", "-b", "16", pause, "trim", "0", "0.2"])
  try runTool("sox", [pause, first, second, pause, pause, pause, pause, "-r", "16000", path])
  return path
}

func runTool(_ name: String, _ arguments: [String]) throws {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
  process.arguments = [name] + arguments
  process.standardError = FileHandle.nullDevice
  try process.run()
  process.waitUntilExit()
  try #require(process.terminationStatus == 0, "\(name) \(arguments) failed")
}

/// The file's chunks as a meeting's audio that started `offset` seconds before the file.
func chunks(of path: String, offset: Double) throws -> AsyncThrowingStream<AudioChunk, any Error> {
  let reader = try AudioFileReader(path: path)
  let shift = Int(offset * Double(AudioFormat.sampleRate))
  var all: [AudioChunk] = []
  while let chunk = try reader.next() {
    all.append(AudioChunk(samples: chunk.samples, startSample: chunk.startSample + shift))
  }
  return AsyncThrowingStream { continuation in
    for chunk in all { continuation.yield(chunk) }
    continuation.finish()
  }
}

/// Its tests run the decoder in-process (`SpeechDecoder.transcribe` blocks its thread for
/// seconds), flite and sox: each on a thread of its own, so the cooperative pool stays free.
@Suite("Second pass", .ownThread)
struct SentencePassTests {
  @Test func keepsSentencesWholeAndWordTimesInTheMeetingsTimeBase() async throws {
    let path = try twoSentences()
    defer { unlink(path) }
    let offset = 62.5
    let options = TranscriptionOptions(vocabulary: ["Priya"])
    let client = TranscriptionClient.live()
    let utterances = try await client.transcribeSentences(chunks(of: path, offset: offset), options)

    // The same audio decoded as one file, sentence by sentence, with the same decoder options:
    // the same words, the times moved by the offset.
    let decoder = try SentenceDecoder(options: DecoderOptions().sentencePass(options))
    let file = try decoder.transcribe(AudioFileReader(path: path))
    #expect(utterances.map(\.text) == file.utterances.map(\.text))
    let words = utterances.flatMap(\.words)
    let fileWords = file.utterances.flatMap(\.words)
    #expect(words.map(\.word) == fileWords.map(\.word))
    for (word, fileWord) in zip(words, fileWords) {
      #expect(abs(word.start - (fileWord.start + offset)) < 1e-9)
      #expect(abs(word.end - (fileWord.end + offset)) < 1e-9)
    }
    #expect(words.contains { $0.word == "priya" }, "\(utterances.map(\.text))")
    for utterance in utterances {
      #expect(utterance.start == utterance.words.first?.start)
      #expect(utterance.end == utterance.words.last?.end)
    }
    #expect(zip(words, words.dropFirst()).allSatisfy { $0.end <= $1.start })
    #expect(words.first.map { $0.start >= offset + 0.2 } == true)

    // The live pass (0.25 s endpointing) cuts the sentence at the breath; the second pass keeps it
    // whole.
    let live = try await client.transcribeMeeting(chunks(of: path, offset: offset), options)
    var finals = 0
    for try await event in live { if case .final = event { finals += 1 } }
    #expect(finals >= 2)
    #expect(utterances.count == 1, "\(utterances.map(\.text))")
  }

  @Test func theTestValueReturnsWhatWasHeardWhenTheAudioEnds() async throws {
    let said = [
      Utterance(start: 1, end: 2, text: "hello", words: []),
      Utterance(start: 30, end: 31, text: "later", words: []),
    ]
    let pass = TranscriptionClient.replayingSentences(said)
    let audio = AsyncThrowingStream<AudioChunk, any Error> { continuation in
      let silence = [Int16](repeating: 0, count: 16_000 * 5)
      continuation.yield(AudioChunk(samples: silence, startSample: 0))
      continuation.finish()
    }
    #expect(try await pass(audio, TranscriptionOptions()) == [said[0]])
  }
}
