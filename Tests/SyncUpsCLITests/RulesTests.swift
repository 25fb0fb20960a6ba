import Foundation
import SyncUpsFeatures
import Testing

/// The same rules, with the same words, as the app's forms (`SyncUpRulesTests`): `add` and
/// `edit` refuse each one in one line and change nothing.
@Suite("syncups add and edit: the sync-up rules")
struct RulesTests {
  /// A rule broken on the command line: `add`'s options, `edit`'s options, and the words.
  struct Case: Sendable, CustomTestStringConvertible {
    var name: String
    var add: [String]
    var edit: [String]
    var words: String
    var testDescription: String { name }
  }

  static let cases: [Case] = [
    Case(
      name: "blank title", add: ["--title", "  ", "--attendee", "Ana"], edit: ["--title", " "],
      words: "the title cannot be blank"),
    Case(
      name: "title on two lines", add: ["--title", "De\nsign", "--attendee", "Ana"],
      edit: ["--title", "De\nsign"], words: "the title must be one line"),
    Case(
      name: "escape in title", add: ["--title", "\u{1B}[31mDesign", "--attendee", "Ana"],
      edit: ["--title", "\u{1B}[31mDesign"],
      words: "the title cannot contain control characters (such as escape sequences)"),
    Case(
      name: "no named attendee", add: ["--title", "T", "--attendee", " "],
      edit: ["--remove-attendee", "ana", "--remove-attendee", "ben"],
      words: "a sync-up needs at least one attendee"),
    Case(
      name: "name on two lines", add: ["--title", "T", "--attendee", "Bl\nob"],
      edit: ["--add-attendee", "Bl\nob"], words: #"the attendee name "Bl\nob" must be one line"#),
    Case(
      name: "escape in name", add: ["--title", "T", "--attendee", "\u{1B}[2JBlob"],
      edit: ["--add-attendee", "\u{1B}[2JBlob"],
      words:
        #"the attendee name "\u{1B}[2JBlob" cannot contain control characters (such as escape sequences)"#
    ),
    Case(
      name: "same name twice", add: ["--title", "T", "--attendee", "Ana", "--attendee", "ANA"],
      edit: ["--add-attendee", "ANA"],
      words: "two attendees are named 'ANA': give each a different name"),
    Case(
      name: "no time", add: ["--title", "T", "--attendee", "Ana", "--duration", "0"],
      edit: ["--duration", "0"], words: "a sync-up lasts between 1s and 24h"),
    Case(
      name: "over a day", add: ["--title", "T", "--attendee", "Ana", "--duration", "24h1s"],
      edit: ["--duration", "24h1s"], words: "a sync-up lasts between 1s and 24h"),
    Case(
      name: "word on two lines", add: ["--title", "T", "--attendee", "Ana", "--word", "Gra\nfana"],
      edit: ["--add-word", "Gra\nfana"],
      words: #"the vocabulary word "Gra\nfana" must be one line"#),
    Case(
      name: "escape in word",
      add: ["--title", "T", "--attendee", "Ana", "--word", "\u{1B}[2JGrafana"],
      edit: ["--add-word", "\u{1B}[2JGrafana"],
      words:
        #"the vocabulary word "\u{1B}[2JGrafana" cannot contain control characters (such as escape sequences)"#
    ),
    Case(
      name: "word that cannot be said",
      add: ["--title", "T", "--attendee", "Ana", "--word", "k8s"],
      edit: ["--add-word", "k8s"],
      words: "the vocabulary word 'k8s' cannot be used: 'k8s' has characters other than letters"),
    Case(
      name: "word too long",
      add: ["--title", "T", "--attendee", "Ana", "--word", String(repeating: "a", count: 61)],
      edit: ["--add-word", String(repeating: "a", count: 61)],
      words: "is too long: at most 60 characters"),
  ]

  func homeWithOneSyncUp() throws -> (Home, SyncUp) {
    let home = try Home()
    let syncUp = SyncUp(
      id: SyncUp.ID(UUID(uuidString: "12345678-0000-4000-8000-000000000000")!),
      attendees: [
        Attendee(id: Attendee.ID(UUID()), name: "Ana"),
        Attendee(id: Attendee.ID(UUID()), name: "Ben"),
      ],
      title: "Morning Sync"
    )
    try home.update { $0 = [syncUp] }
    return (home, syncUp)
  }

  @Test(arguments: cases)
  func addAndEditRefuseWithTheFormsWords(_ rule: Case) async throws {
    let (home, syncUp) = try homeWithOneSyncUp()
    expectOneLineFailure(try await home.run(["add"] + rule.add), containing: [rule.words])
    expectOneLineFailure(
      try await home.run(["edit", "morning sync"] + rule.edit), containing: [rule.words])
    #expect(try home.load() == [syncUp])
  }

  /// A sync-up saved with a blank attendee row (as an older form could) can still be edited:
  /// blank rows are dropped on save, never taken for "removing every attendee".
  @Test func editingTheDurationOfASyncUpWithABlankRowWorks() async throws {
    let home = try Home()
    let id = SyncUp.ID(UUID(uuidString: "12345678-0000-4000-8000-000000000000")!)
    try home.update {
      $0 = [
        SyncUp(
          id: id,
          attendees: [
            Attendee(id: Attendee.ID(UUID()), name: "Ana"),
            Attendee(id: Attendee.ID(UUID()), name: ""),
          ],
          title: "Morning Sync"
        )
      ]
    }
    let run = try await home.run("edit", "morning sync", "--duration", "2m")
    #expect(run.status == 0, "\(run)")
    let edited = try #require(try home.load()[id: id])
    #expect(edited.duration == .seconds(120))
    #expect(edited.attendees.map(\.name) == ["Ana"])
  }
}
