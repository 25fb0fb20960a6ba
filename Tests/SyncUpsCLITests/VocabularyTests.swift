import Foundation
import SyncUpsFeatures
import SyncUpsTestSupport
import Testing

/// A sync-up's vocabulary from the command line: `add --word`, `edit --add-word/--remove-word`,
/// `show` (text and JSON).
@Suite("syncups add, edit and show: the vocabulary")
struct VocabularyCommandTests {
  let id = SyncUp.ID(UUID(uuidString: "12345678-0000-4000-8000-000000000000")!)

  func home(vocabulary: [String] = []) throws -> Home {
    let home = try Home()
    let syncUp = SyncUp(
      id: id,
      attendees: [
        Attendee(id: Attendee.ID(UUID()), name: "Ana"),
        Attendee(id: Attendee.ID(UUID()), name: "Ben"),
      ],
      title: "Morning Sync",
      vocabulary: vocabulary
    )
    try home.update { $0 = [syncUp] }
    return home
  }

  @Test func addWithWordsAndShowThem() throws {
    let home = try Home()
    let added = try home.run(
      "add", "--title", "Platform", "--attendee", "Priyanka", "--word", " Grafana ",
      "--word", "pull request")
    #expect(added.status == 0, "\(added)")
    let show = try home.run("show", "platform")
    #expect(show.stdout.contains("Vocabulary:   Grafana, pull request\n"), "\(show)")
    let json = try home.run("show", "platform", "--json")
    #expect(json.stdout.contains(#""vocabulary":["Grafana","pull request"]"#), "\(json)")
    #expect(try home.load().first?.vocabulary == ["Grafana", "pull request"])
  }

  @Test func editAddsAndRemovesWordsInAnyCase() throws {
    let home = try home(vocabulary: ["Terraform"])
    let edited = try home.run(
      "edit", "morning", "--add-word", "Grafana", "--add-word", "on-call", "--remove-word",
      "TERRAFORM")
    #expect(edited.status == 0, "\(edited)")
    #expect(edited.stdout.contains("Vocabulary:   Grafana, on-call\n"), "\(edited)")
    #expect(try home.load()[id: id]?.vocabulary == ["Grafana", "on-call"])
    let emptied = try home.run(
      "edit", "morning", "--remove-word", "grafana", "--remove-word", "On-Call")
    #expect(emptied.stdout.contains("Vocabulary:   attendees' names only"), "\(emptied)")
    #expect(try home.load()[id: id]?.vocabulary == [])
  }

  @Test func removingAWordThatIsNotThereChangesNothing() throws {
    let home = try home(vocabulary: ["Grafana"])
    let before = try home.load()
    expectOneLineFailure(
      try home.run("edit", "morning", "--add-word", "Jira", "--remove-word", "Figma"),
      containing: ["'Morning Sync'", "has no vocabulary word 'Figma'", "'Grafana'"])
    #expect(try home.load() == before)
    let empty = try self.home()
    expectOneLineFailure(
      try empty.run("edit", "morning", "--remove-word", "Figma"),
      containing: ["has no vocabulary word 'Figma'; its vocabulary is empty"])
  }

  @Test func aWordTwiceOrAnAttendeesNameIsRefused() throws {
    let home = try home(vocabulary: ["Grafana"])
    let before = try home.load()
    expectOneLineFailure(
      try home.run("edit", "morning", "--add-word", "GRAFANA"),
      containing: ["the vocabulary already has 'GRAFANA'"])
    expectOneLineFailure(
      try home.run("edit", "morning", "--add-word", "ana"),
      containing: ["'ana' is an attendee: attendees' names are always in the vocabulary"])
    expectOneLineFailure(
      try home.run("edit", "morning", "--add-word", "  "), containing: ["--add-word needs a word"])
    #expect(try home.load() == before)
  }
}

/// The proof of issue 11's vocabulary, end to end against the binary: a made-up team name that
/// no dictionary has ("Zorbex", `Samples/vocabulary.wav`, spoken by flite) is not heard until
/// `edit --add-word` puts it in the sync-up's vocabulary; then `record` hears it, and
/// `transcript` shows the second pass (what `transcribe` gives with the same vocabulary).
@Suite("syncups record with a vocabulary")
struct VocabularyRecordingTests {
  @Test func aTeamNameIsHeardOnlyOnceItIsInTheVocabulary() throws {
    let home = try Home()
    let sample = samples.appendingPathComponent("vocabulary.wav").path
    let added = try home.run(
      "add", "--title", "Platform", "--attendee", "Ana", "--attendee", "Ben", "--duration", "20s")
    #expect(added.status == 0, "\(added)")

    let before = try home.run("record", "platform", "--input", sample, "--fast")
    #expect(before.status == 0, "\(before)")
    let without = try home.run("transcript", "platform")
    #expect(without.status == 0, "\(without)")
    #expect(!without.stdout.contains("zorbex"), "\(without)")
    #expect(without.stdout.contains("Ana: yesterday"), "\(without)")

    #expect(try home.run("edit", "platform", "--add-word", "Zorbex").status == 0)
    let after = try home.run("record", "platform", "--input", sample, "--fast")
    #expect(after.status == 0, "\(after)")
    let with = try home.run("transcript", "platform", "--format", "json")
    let json = try #require(
      try JSONSerialization.jsonObject(with: Data(with.stdout.utf8)) as? [String: Any], "\(with)")
    let text = try #require(json["text"] as? String)
    #expect(text.contains("the zorbex team"), "\(text)")

    // What was saved is the second pass: the whole-sentence decoding of the same audio with the
    // same vocabulary (attendees' names, then the sync-up's words).
    let words = home.url.appendingPathComponent("words.txt")
    try "Ana\nBen\nZorbex\n".write(to: words, atomically: true, encoding: .utf8)
    let file = try home.run(
      "transcribe", "--format", "txt", "--vocabulary", words.path, sample)
    #expect(file.status == 0, "\(file)")
    #expect(text == file.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
  }
}
