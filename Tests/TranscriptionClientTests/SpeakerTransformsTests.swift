import AudioCore
import AudioFilesClientLive
import Foundation
import SyncUpsTestSupport
import Testing
import TranscriptionClient
import TranscriptionClientLive

/// Speaker adaptation with the installed model and the real SphinxTrain tools.
@Suite("Speaker transforms")
struct SpeakerTransformsTests {
  @Test("The installed model's sendump reads back as mixture weights summing to one")
  func sendumpReadsAsMixtureWeights() throws {
    let model = try SpeechModel.resolve()
    let sendump = try Data(contentsOf: URL(fileURLWithPath: model.acousticModel + "/sendump"))
    let weights = try MixtureWeights(sendump: sendump)
    #expect(weights.streams == 3)
    #expect(weights.densities == 128)
    #expect(weights.values.count == weights.senones * weights.streams * weights.densities)
    // One byte per senone, stream and density after the header.
    #expect(sendump.count > weights.values.count)
    for start in stride(from: 0, to: weights.values.count, by: weights.densities * 97) {
      let sum = weights.values[start..<start + weights.densities].reduce(0, +)
      #expect(abs(sum - 1) < 1e-4)
    }
    let file = weights.sphinxFile
    #expect(file.starts(with: Data("s3\n".utf8)))
    #expect(file.count % 4 == 0)
    #expect(file.count > weights.values.count * 4)
  }

  @Test("A damaged sendump is refused in one line")
  func damagedSendumpIsRefused() throws {
    let model = try SpeechModel.resolve()
    let sendump = try Data(contentsOf: URL(fileURLWithPath: model.acousticModel + "/sendump"))
    #expect(throws: TranscriptionError.self) { try MixtureWeights(sendump: sendump.prefix(5000)) }
    #expect(throws: TranscriptionError.self) {
      try MixtureWeights(sendump: Data(repeating: 7, count: 64))
    }
  }

  @Test("A transform is estimated from a recording and its words, and decodes it again")
  func transformIsEstimatedAndUsed() throws {
    let audio = samples.appendingPathComponent("standup.wav")
    let script = try String(
      contentsOf: samples.appendingPathComponent("standup.script"), encoding: .utf8)
    let text = script.split(separator: "\n").compactMap { $0.split(separator: "|").last }
      .joined(separator: " ")
    let estimate = try #require(
      try SpeakerTransforms.estimate([(audio, [SpokenSpan(start: 0, end: 40, text: text)])]))
    #expect(estimate.seconds > 30)
    // PocketSphinx's MLLR file: one class, three streams of 13 dimensions, then numbers.
    let lines = String(decoding: estimate.transform, as: UTF8.self).split(separator: "\n")
    #expect(Array(lines.prefix(3)) == ["1", "3", "13"])
    let heard = try SpeakerTransforms.redecode(
      audio: audio, spans: [SpokenSpan(start: 0, end: 9), SpokenSpan(start: 60, end: 61)],
      transform: estimate.transform, options: DecoderOptions())
    #expect(heard.count == 2)
    let first = try #require(heard[0])
    #expect(first.text.contains("morning"))
    #expect(heard[1] == nil)
  }

  @Test("Decoded again with no transform, a recording is heard as the second pass hears it")
  func redecodeWithoutTransformIsTheSecondPass() throws {
    let audio = samples.appendingPathComponent("standup.wav")
    let options = DecoderOptions().sentencePass(TranscriptionOptions())
    let heard = try SpeakerTransforms.redecode(
      audio: audio, spans: [SpokenSpan(start: 0, end: .greatestFiniteMagnitude)], transform: nil,
      options: options)
    let pass = try SentenceDecoder(options: options).transcribe(AudioFileReader(path: audio.path))
    let words = try #require(heard.first??.words)
    #expect(words.count > 20)
    #expect(words == pass.utterances.flatMap(\.words))
  }

  @Test("Spans that cannot teach (too short, or words the dictionary lacks) give no transform")
  func unusableSpansGiveNothing() throws {
    let audio = samples.appendingPathComponent("standup.wav")
    let spans = [
      SpokenSpan(start: 0, end: 0.2, text: "good"),
      SpokenSpan(start: 0, end: 3, text: "zzqxj blorptastic"),
    ]
    #expect(try SpeakerTransforms.estimate([(audio, spans)]) == nil)
  }
}
