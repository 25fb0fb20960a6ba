import Foundation
import SyncUpsTestSupport
import Testing

/// A team's vocabulary, end to end against the binary: a made-up team name that
/// no dictionary has ("Zorbex", `Samples/vocabulary.wav`, spoken by flite) is not heard until
/// `edit --add-word` puts it in the sync-up's vocabulary; then `record` hears it, and
/// `transcript` shows the second pass (what `transcribe` gives with the same vocabulary).
@Suite("syncups record with a vocabulary")
struct VocabularyRecordingTests {
  @Test func aTeamNameIsHeardOnlyOnceItIsInTheVocabulary() async throws {
    let home = try dataDirectory(title: "Platform", attendees: ["Ana", "Ben"], seconds: 20)
    defer { try? FileManager.default.removeItem(at: home) }
    let sample = samples.appendingPathComponent("vocabulary.wav").path

    let before = try await syncups(["record", "platform", "--input", sample, "--fast"], home: home)
    #expect(before.status == 0, "\(before.stderr)")
    let without = try await syncups(["transcript", "platform"], home: home)
    #expect(without.status == 0, "\(without.stderr)")
    #expect(!without.stdout.contains("zorbex"), "\(without.stdout)")
    #expect(without.stdout.contains("Ana: yesterday"), "\(without.stdout)")

    let edit = try await syncups(["edit", "platform", "--add-word", "Zorbex"], home: home)
    #expect(edit.status == 0, "\(edit.stderr)")
    let after = try await syncups(["record", "platform", "--input", sample, "--fast"], home: home)
    #expect(after.status == 0, "\(after.stderr)")
    let with = try await syncups(["transcript", "platform", "--format", "json"], home: home)
    let json = try #require(
      try JSONSerialization.jsonObject(with: Data(with.stdout.utf8)) as? [String: Any],
      "\(with.stdout)")
    let text = try #require(json["text"] as? String)
    #expect(text.contains("the zorbex team"), "\(text)")

    // What was saved is the second pass: the whole-sentence decoding of the same audio with the
    // same vocabulary (attendees' names, then the sync-up's words).
    let words = home.appendingPathComponent("words.txt")
    try "Ana\nBen\nZorbex\n".write(to: words, atomically: true, encoding: .utf8)
    let file = try await syncups(
      ["transcribe", "--format", "txt", "--vocabulary", words.path, sample], home: home)
    #expect(file.status == 0, "\(file.stderr)")
    #expect(text == file.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
  }
}
