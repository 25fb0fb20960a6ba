import Foundation
import SyncUpsFeatures
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

  @Test func addWithWordsAndShowThem() async throws {
    let home = try Home()
    let added = try await home.run(
      "add", "--title", "Platform", "--attendee", "Priyanka", "--word", " Grafana ",
      "--word", "pull request")
    #expect(added.status == 0, "\(added)")
    let show = try await home.run("show", "platform")
    #expect(show.stdout.contains("Vocabulary:   Grafana, pull request\n"), "\(show)")
    let json = try await home.run("show", "platform", "--json")
    #expect(json.stdout.contains(#""vocabulary":["Grafana","pull request"]"#), "\(json)")
    #expect(try home.load().first?.vocabulary == ["Grafana", "pull request"])
  }

  @Test func editAddsAndRemovesWordsInAnyCase() async throws {
    let home = try home(vocabulary: ["Terraform"])
    let edited = try await home.run(
      "edit", "morning", "--add-word", "Grafana", "--add-word", "on-call", "--remove-word",
      "TERRAFORM")
    #expect(edited.status == 0, "\(edited)")
    #expect(edited.stdout.contains("Vocabulary:   Grafana, on-call\n"), "\(edited)")
    #expect(try home.load()[id: id]?.vocabulary == ["Grafana", "on-call"])
    let emptied = try await home.run(
      "edit", "morning", "--remove-word", "grafana", "--remove-word", "On-Call")
    #expect(emptied.stdout.contains("Vocabulary:   attendees' names only"), "\(emptied)")
    #expect(try home.load()[id: id]?.vocabulary == [])
  }

  @Test func removingAWordThatIsNotThereChangesNothing() async throws {
    let home = try home(vocabulary: ["Grafana"])
    let before = try home.load()
    expectOneLineFailure(
      try await home.run("edit", "morning", "--add-word", "Jira", "--remove-word", "Figma"),
      containing: ["'Morning Sync'", "has no vocabulary word 'Figma'", "'Grafana'"])
    #expect(try home.load() == before)
    let empty = try self.home()
    expectOneLineFailure(
      try await empty.run("edit", "morning", "--remove-word", "Figma"),
      containing: ["has no vocabulary word 'Figma'; its vocabulary is empty"])
  }

  @Test func aWordTwiceOrAnAttendeesNameIsRefused() async throws {
    let home = try home(vocabulary: ["Grafana"])
    let before = try home.load()
    expectOneLineFailure(
      try await home.run("edit", "morning", "--add-word", "GRAFANA"),
      containing: ["the vocabulary already has 'GRAFANA'"])
    expectOneLineFailure(
      try await home.run("edit", "morning", "--add-word", "ana"),
      containing: ["'ana' is an attendee: attendees' names are always in the vocabulary"])
    expectOneLineFailure(
      try await home.run("edit", "morning", "--add-word", "  "),
      containing: ["--add-word needs a word"])
    #expect(try home.load() == before)
  }
}
