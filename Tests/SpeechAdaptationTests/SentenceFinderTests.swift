import AudioCore
import AudioFilesClientLive
import Foundation
import Testing
import TranscriptionClient
import TranscriptionClientLive

/// Sentences found by voice detection, then decoded each alone (`SentenceDecoder`), in silence
/// and under other voices talking (which the detector takes for speech throughout).
@Suite("Sentences found and decoded alone", .ownThread)
struct SentenceFinderTests {
  /// Two flite sentences 1.6 s apart (as two turns of a stand-up), with `babble` (another voice
  /// reading, 14 dB quieter) under all of it or not.
  func twoTurns(babble: Bool) throws -> String {
    let first = try flite("Yesterday I fixed the login page and the report.", voice: "slt")
    let second = try flite("Today I will review the pull requests.", voice: "awb")
    let path = FileManager.default.temporaryDirectory
      .appendingPathComponent("syncups-turns-\(UUID().uuidString.prefix(8)).wav").path
    let gap = path + ".gap.wav"
    let turns = path + ".turns.wav"
    var made = [first, second, gap, turns]
    defer { for file in made { unlink(file) } }
    try runTool("sox", ["-n", "-r", "16000", "-c", "1", "-b", "16", gap, "trim", "0", "1.6"])
    try runTool("sox", [gap, first, gap, second, gap, "-r", "16000", "-c", "1", turns])
    guard babble else {
      try runTool("sox", [turns, path])
      return path
    }
    let other = try flite(
      "The library in our town was built with money from a rich family, and the garden behind "
        + "it grows roses, tomatoes and beans every summer while the children play outside.",
      voice: "kal")
    let quiet = path + ".babble.wav"
    made += [other, quiet]
    try runTool("sox", [other, "-r", "16000", "-c", "1", quiet, "vol", "0.2"])
    try runTool("sox", ["-m", turns, quiet, "-b", "16", path, "trim", "0", "12"])
    return path
  }

  @Test(arguments: [false, true])
  func eachTurnIsASentenceOfItsOwn(babble: Bool) throws {
    let path = try twoTurns(babble: babble)
    defer { unlink(path) }
    let decoder = try SentenceDecoder(
      options: DecoderOptions(partials: false).sentencePass(.init()))
    let heard = try decoder.transcribe(AudioFileReader(path: path)).utterances
    #expect(heard.count == 2, "\(heard.map(\.text))")
    #expect(heard.first?.text.contains("yesterday") == true, "\(heard.map(\.text))")
    #expect(heard.last?.text.contains("will review") == true, "\(heard.map(\.text))")
  }

  /// A sentence longer than `lookahead` is decoded while it is heard, so that little is left to
  /// decode when the stream ends (a recording's second pass must catch up within a second).
  @Test func aLongSentenceIsDecodedWhileItIsHeard() throws {
    let path = try flite(
      "The library in our town was built with money from a rich family, and the garden behind "
        + "it grows roses, tomatoes and beans every summer.",
      voice: "slt")
    defer { unlink(path) }
    let decoder = try SentenceDecoder(
      options: DecoderOptions(partials: false).sentencePass(.init()))
    decoder.startStream()
    let reader = try AudioFileReader(path: path)
    var total = 0
    var heard: [Transcription.Utterance] = []
    while let chunk = try reader.next() {
      for start in stride(from: 0, to: chunk.samples.count, by: 1600) {
        let part = Array(chunk.samples[start..<min(start + 1600, chunk.samples.count)])
        total += part.count
        heard += decoder.process(part)
      }
    }
    #expect(heard.isEmpty, "\(heard.map(\.text))")
    // All but the last tenth of a second's chunk, and what the decoder holds back (under 10 ms).
    #expect(
      decoder.decoder.samplesFed >= total - 1600 - 160, "\(decoder.decoder.samplesFed) of \(total)")
    heard = decoder.finish()
    #expect(heard.count == 1, "\(heard.map(\.text))")
    #expect(heard.first?.text.contains("library") == true, "\(heard.map(\.text))")
  }
}
