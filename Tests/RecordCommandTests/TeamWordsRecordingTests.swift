import Foundation
import SyncUpsTestSupport
import Testing

/// The team's words, end to end against the binary: a correction that introduces a word no
/// dictionary has ("Zorbex", `Samples/vocabulary.wav`) rebuilds the sync-up's own language
/// model, and the next recording hears the word (not with `--use-learning none`).
@Suite("syncups record learns the team's words from corrections")
struct TeamWordsRecordingTests {
  @Test("A correction rebuilds the sync-up's words and the next recording uses them")
  func aCorrectedWordIsHeardInTheNextRecording() async throws {
    let home = try dataDirectory(title: "Platform", attendees: ["Ana", "Ben"], seconds: 20)
    defer { try? FileManager.default.removeItem(at: home) }
    let sample = samples.appendingPathComponent("vocabulary.wav").path
    let model = home.appendingPathComponent("words/\(syncUpID.lowercased()).lm")

    let first = try await syncups(["record", "platform", "--input", sample, "--fast"], home: home)
    #expect(first.status == 0, "\(first.stderr)")
    let heard = try await syncups(["transcript", "platform", "--numbers"], home: home)
    #expect(!heard.stdout.contains("zorbex"), "\(heard.stdout)")
    // The recording taught the model its own (uncorrected) words.
    let learned = try String(contentsOf: model, encoding: .utf8)
    #expect(learned.contains(" yesterday") && !learned.contains("zorbex"))

    let correct = try await syncups(
      [
        "correct", "platform", "1", "--text",
        "Yesterday the Zorbex team moved our alerts to Grafana.",
      ],
      home: home)
    #expect(correct.status == 0, "\(correct.stderr)")
    #expect(try String(contentsOf: model, encoding: .utf8).contains(" zorbex team"))

    let all = try await syncups(["record", "platform", "--input", sample, "--fast"], home: home)
    #expect(all.status == 0, "\(all.stderr)")
    let with = try await syncups(["transcript", "platform"], home: home)
    #expect(with.stdout.contains("the zorbex team"), "\(with.stdout)")
    let none = try await syncups(
      ["record", "platform", "--input", sample, "--fast", "--use-learning", "none"], home: home)
    #expect(none.status == 0, "\(none.stderr)")
    let without = try await syncups(["transcript", "platform"], home: home)
    #expect(!without.stdout.contains("zorbex"), "\(without.stdout)")

  }

  @Test("--use-learning takes all, words, voices or none")
  func aBadLearningValueIsOneLine() async throws {
    let home = try dataDirectory(title: "Platform", attendees: ["Ana"], seconds: 5)
    defer { try? FileManager.default.removeItem(at: home) }
    let sample = samples.appendingPathComponent("vocabulary.wav").path
    let bad = try await syncups(
      ["record", "platform", "--input", sample, "--use-learning", "most"], home: home)
    #expect(bad.status != 0)
    #expect(bad.stderr.contains("--use-learning takes all, words, voices or none"), "\(bad.stderr)")
  }
}
