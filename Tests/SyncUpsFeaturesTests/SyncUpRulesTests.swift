import Foundation
import SyncUpsFeatures
import Testing

/// One case per rule: what is typed, and the words every front end refuses it with (the CLI's
/// `RulesTests` checks the same words).
struct Rule: Sendable, CustomTestStringConvertible {
  var name: String
  var title = "Design"
  var names = ["Blob"]
  var duration: Duration = .seconds(60)
  var vocabulary: [String] = []
  var words: String

  var testDescription: String { name }

  static let all: [Rule] = [
    Rule(name: "blank title", title: "   ", words: "the title cannot be blank"),
    Rule(name: "title on two lines", title: "De\nsign", words: "the title must be one line"),
    Rule(
      name: "escape in title", title: "\u{1B}[31mDesign",
      words: "the title cannot contain control characters (such as escape sequences)"),
    Rule(
      name: "no named attendee", names: ["", "  "], words: "a sync-up needs at least one attendee"),
    Rule(
      name: "name on two lines", names: ["Bl\nob"],
      words: #"the attendee name "Bl\nob" must be one line"#),
    Rule(
      name: "escape in name", names: ["\u{1B}[2JBlob"],
      words:
        #"the attendee name "\u{1B}[2JBlob" cannot contain control characters (such as escape sequences)"#
    ),
    Rule(
      name: "same name twice", names: ["Blob", "BLOB"],
      words: "two attendees are named 'BLOB': give each a different name"),
    Rule(name: "no time", duration: .zero, words: "a sync-up lasts between 1s and 24h"),
    Rule(
      name: "over a day", duration: .seconds(24 * 3600 + 1),
      words: "a sync-up lasts between 1s and 24h"),
    Rule(
      name: "word on two lines", vocabulary: ["Gra\nfana"],
      words: #"the vocabulary word "Gra\nfana" must be one line"#),
    Rule(
      name: "escape in word", vocabulary: ["\u{1B}[2JGrafana"],
      words:
        #"the vocabulary word "\u{1B}[2JGrafana" cannot contain control characters (such as escape sequences)"#
    ),
    Rule(
      name: "word that cannot be said", vocabulary: ["k8s"],
      words:
        "the vocabulary word 'k8s' cannot be used: 'k8s' has characters other than letters; "
        + "write it as it is said (e.g. 'k eight s')"),
    Rule(
      name: "word too long", vocabulary: [String(repeating: "a", count: 61)],
      words: "the vocabulary word 'aaaaaaaaaaaaaaaaaaaa…' is too long: at most 60 characters"),
    Rule(
      name: "same word twice", vocabulary: ["Grafana", "GRAFANA"],
      words: "the vocabulary has 'GRAFANA' twice: keep one"),
  ]

  func syncUp(id: SyncUp.ID) -> SyncUp {
    SyncUp(
      id: id,
      attendees: IdentifiedArray(
        uniqueElements: names.enumerated().map {
          Attendee(id: Attendee.ID(UUID($0 + 10)), name: $1)
        }
      ),
      duration: duration,
      title: title,
      vocabulary: vocabulary
    )
  }
}

@MainActor
struct SyncUpRulesTests {
  @Test(arguments: Rule.all)
  func theAddFormRefusesAndSaysWhy(_ rule: Rule) async throws {
    let store = TestStore(initialState: SyncUpsList.State()) {
      SyncUpsList()
    } withDependencies: {
      $0.uuid = .incrementing
    }
    await store.send(.addSyncUpButtonTapped) {
      $0.destination = .add(
        SyncUpForm.State(
          syncUp: SyncUp(id: SyncUp.ID(UUID(0)), attendees: [Attendee(id: Attendee.ID(UUID(1)))])
        )
      )
    }
    let typed = rule.syncUp(id: SyncUp.ID(UUID(0)))
    await store.send(.destination(.presented(.add(.binding(.set(\.syncUp, typed)))))) {
      $0.destination = .add(SyncUpForm.State(syncUp: typed))
    }
    await store.send(.confirmAddSyncUpButtonTapped) {
      var form = SyncUpForm.State(syncUp: typed)
      form.problem = try? #require(Self.problem(typed))
      $0.destination = .add(form)
    }
    #expect(store.state.syncUps.isEmpty)
    #expect(Self.problem(typed).map { "\($0)" } == rule.words)
  }

  @Test(arguments: Rule.all)
  func theEditFormRefusesAndSaysWhy(_ rule: Rule) async throws {
    let syncUp = Shared(value: SyncUp.mock)
    let store = TestStore(initialState: SyncUpDetail.State(syncUp: syncUp)) { SyncUpDetail() }
    await store.send(.editButtonTapped) {
      $0.destination = .edit(SyncUpForm.State(syncUp: .mock))
    }
    let typed = rule.syncUp(id: SyncUp.mock.id)
    await store.send(.destination(.presented(.edit(.binding(.set(\.syncUp, typed)))))) {
      $0.destination = .edit(SyncUpForm.State(syncUp: typed))
    }
    await store.send(.doneEditingButtonTapped) {
      var form = SyncUpForm.State(syncUp: typed)
      form.problem = Self.problem(typed)
      $0.destination = .edit(form)
    }
    #expect(syncUp.wrappedValue == .mock)
    #expect(form(store.state)?.problem.map { "\($0)" } == rule.words)
  }

  func form(_ state: SyncUpDetail.State) -> SyncUpForm.State? {
    if case .edit(let form)? = state.destination { return form }
    return nil
  }

  static func problem(_ syncUp: SyncUp) -> SyncUpProblem? {
    do {
      _ = try syncUp.validated()
      return nil
    } catch {
      return error
    }
  }

  @Test func aSyncUpWithinTheRulesIsSavedTrimmed() throws {
    var syncUp = SyncUp.mock
    syncUp.title = "  Morning Sync \t"
    syncUp.attendees.append(Attendee(id: Attendee.ID(UUID(9)), name: "   "))
    #expect(try syncUp.validated() == .mock)
    #expect(SyncUp.durationRange == .seconds(1) ... .seconds(24 * 3600))
  }

  @Test func theVocabularyIsSavedTrimmedWithoutBlankRowsOrAttendeesNames() throws {
    var syncUp = SyncUp.mock
    syncUp.vocabulary = ["  Grafana ", "", "blob jr", "pull request", "   "]
    var saved = SyncUp.mock
    saved.vocabulary = ["Grafana", "pull request"]
    #expect(try syncUp.validated() == saved)
    #expect(
      saved.transcriptionVocabulary == ["Blob", "Blob Jr", "Blob Sr", "Grafana", "pull request"])
  }

  @Test func filesWithoutAVocabularyStillRead() throws {
    let json = #"{"id":"00000000-0000-0000-0000-000000000000","title":"Old","attendees":[]}"#
    let syncUp = try JSONDecoder().decode(SyncUp.self, from: Data(json.utf8))
    #expect(syncUp.vocabulary == [])
    var withWords = syncUp
    withWords.vocabulary = ["Grafana"]
    let again = try JSONDecoder().decode(SyncUp.self, from: JSONEncoder().encode(withWords))
    #expect(again.vocabulary == ["Grafana"])
  }
}
