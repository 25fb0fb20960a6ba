import AudioCore
import AudioFilesClient
import AudioFilesClientLive
import Foundation
import SpeechAdaptation
import SpeechVocabulary
import TestSupport
import Testing
import TranscriptionClient
import TranscriptionClientLive

/// Speaks `text` with flite (a real synthesiser) into a temporary WAV file.
func flite(_ text: String, voice: String = "rms") throws -> String {
  let path = FileManager.default.temporaryDirectory
    .appendingPathComponent("syncups-flite-\(UUID().uuidString.prefix(8)).wav").path
  let process = Process()
  process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
  process.arguments = ["flite", "-voice", voice, "-t", text, "-o", path]
  try process.run()
  process.waitUntilExit()
  try #require(process.terminationStatus == 0, "flite failed")
  return path
}

func transcribe(_ path: String, vocabulary: [String] = []) throws -> Transcript {
  let decoder = try SpeechDecoder(options: DecoderOptions(partials: false, vocabulary: vocabulary))
  return try decoder.transcribe(AudioFileReader(path: path))
}

func words(_ transcript: Transcript) -> [String] {
  transcript.text.split(separator: " ").map(String.init)
}

/// Its tests run the decoder in-process (`SpeechDecoder.transcribe` blocks its thread for
/// seconds) and flite: each on a thread of its own, so the cooperative pool stays free.
@Suite("Vocabulary in the decoder", .ownThread)
struct DecoderVocabularyTests {
  @Test func flitePronouncesWordsInTheModelsPhoneSet() {
    #expect(LetterToSound.phones(for: "Grafana") == ["G", "R", "EY", "F", "AE", "N", "AH"])
    #expect(LetterToSound.phones(for: "webhook") == ["W", "EH", "B", "HH", "UH", "K"])
    #expect(LetterToSound.phones(for: "k8s") == [])
  }

  @Test func anOutOfDictionaryNameIsRecognisedWithTheVocabularyAndNotWithout() throws {
    let sample = try flite(
      "Yesterday I paired with Priya on the dashboards. Today Tomasz will review the change.")
    defer { unlink(sample) }
    let without = words(try transcribe(sample))
    let with = words(try transcribe(sample, vocabulary: ["Priya", "Tomasz"]))
    // Neither name is in cmudict: without the vocabulary the decoder cannot say them.
    #expect(!without.contains("priya") && !without.contains("tomasz"), "\(without)")
    #expect(with.contains("priya") && with.contains("tomasz"), "\(with)")
  }

  @Test func phrasesAndNamesKeepWordTimes() throws {
    let sample = try flite("Priya moved the alerts to the staging server.")
    defer { unlink(sample) }
    let transcript = try transcribe(sample, vocabulary: ["Priya", "staging server"])
    let words = transcript.utterances.flatMap(\.words)
    let priya = try #require(words.first { $0.word == "priya" }, "\(transcript.text)")
    #expect(priya.start >= 0 && priya.end > priya.start)
    #expect(transcript.text.contains("staging server"), "\(transcript.text)")
  }

  @Test func theVocabularyModelIsAValidARPAModelOfItsTerms() throws {
    // Loaded by a real decoder: a malformed model fails decoder start.
    let vocabulary = ["staging server", "on call", "Priya"]
    _ = try SpeechDecoder(options: DecoderOptions(partials: false, vocabulary: vocabulary))
  }
}
