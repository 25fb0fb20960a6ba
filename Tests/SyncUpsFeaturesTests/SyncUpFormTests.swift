import Foundation
import SyncUpsFeatures
import Testing

@MainActor
struct SyncUpFormTests {
  @Test func addAttendeeFocusesIt() async {
    let store = TestStore(
      initialState: SyncUpForm.State(syncUp: SyncUp(id: SyncUp.ID(UUID(0))))
    ) {
      SyncUpForm()
    } withDependencies: {
      $0.uuid = .incrementing
    }
    // The form starts with one empty attendee, made with the first uuid.
    #expect(store.state.syncUp.attendees.map(\.id) == [Attendee.ID(UUID(0))])
    await store.send(.addAttendeeButtonTapped) {
      $0.focus = .attendee(Attendee.ID(UUID(1)))
      $0.syncUp.attendees.append(Attendee(id: Attendee.ID(UUID(1))))
    }
  }

  @Test func removingAttendeesMovesFocusToTheNeighbour() async {
    let store = TestStore(
      initialState: SyncUpForm.State(
        syncUp: SyncUp(
          id: SyncUp.ID(UUID(0)),
          attendees: [
            Attendee(id: Attendee.ID(UUID(1))),
            Attendee(id: Attendee.ID(UUID(2))),
            Attendee(id: Attendee.ID(UUID(3))),
            Attendee(id: Attendee.ID(UUID(4))),
          ]
        )
      )
    ) {
      SyncUpForm()
    }
    await store.send(.onDeleteAttendees([0])) {
      $0.focus = .attendee(Attendee.ID(UUID(2)))
      $0.syncUp.attendees.remove(id: Attendee.ID(UUID(1)))
    }
    await store.send(.onDeleteAttendees([2])) {
      $0.focus = .attendee(Attendee.ID(UUID(3)))
      $0.syncUp.attendees.remove(id: Attendee.ID(UUID(4)))
    }
    await store.send(.onDeleteAttendees([1])) {
      $0.focus = .attendee(Attendee.ID(UUID(2)))
      $0.syncUp.attendees.remove(id: Attendee.ID(UUID(3)))
    }
  }

  @Test func removingTheLastAttendeeLeavesAFreshOne() async {
    let store = TestStore(
      initialState: SyncUpForm.State(
        syncUp: SyncUp(id: SyncUp.ID(UUID(0)), attendees: [Attendee(id: Attendee.ID(UUID(1)))])
      )
    ) {
      SyncUpForm()
    } withDependencies: {
      $0.uuid = .incrementing
    }
    await store.send(.onDeleteAttendees([0])) {
      $0.focus = .attendee(Attendee.ID(UUID(0)))
      $0.syncUp.attendees = [Attendee(id: Attendee.ID(UUID(0)))]
    }
  }

  @Test func bindingsEditTheSyncUp() async {
    let store = TestStore(initialState: SyncUpForm.State(syncUp: .mock)) { SyncUpForm() }
    await store.send(.binding(.set(\.syncUp.title, "Evening Sync"))) {
      $0.syncUp.title = "Evening Sync"
    }
    await store.send(.binding(.set(\.syncUp.theme, .teal))) { $0.syncUp.theme = .teal }
    await store.send(.binding(.set(\.syncUp.duration, .seconds(600)))) {
      $0.syncUp.duration = .seconds(600)
    }
  }

  @Test func addingTypingAndRemovingVocabularyWords() async {
    let store = TestStore(initialState: SyncUpForm.State(syncUp: .mock)) { SyncUpForm() }
    await store.send(.addWordButtonTapped) {
      $0.focus = .word(0)
      $0.syncUp.vocabulary = [""]
    }
    await store.send(.binding(.set(\.syncUp.vocabulary[0], "Grafana"))) {
      $0.syncUp.vocabulary = ["Grafana"]
    }
    await store.send(.addWordButtonTapped) {
      $0.focus = .word(1)
      $0.syncUp.vocabulary = ["Grafana", ""]
    }
    await store.send(.binding(.set(\.syncUp.vocabulary[1], "pull request"))) {
      $0.syncUp.vocabulary = ["Grafana", "pull request"]
    }
    await store.send(.addWordButtonTapped) {
      $0.focus = .word(2)
      $0.syncUp.vocabulary = ["Grafana", "pull request", ""]
    }
    // A blank row is dropped when the form is saved.
    var form = store.state
    #expect(form.validated()?.vocabulary == ["Grafana", "pull request"])
    await store.send(.onDeleteWords([1])) {
      $0.focus = .word(1)
      $0.syncUp.vocabulary = ["Grafana", ""]
    }
    await store.send(.onDeleteWords([1])) {
      $0.focus = .word(0)
      $0.syncUp.vocabulary = ["Grafana"]
    }
    // The last word gone, the cursor goes back to the last attendee.
    await store.send(.onDeleteWords([0])) {
      $0.focus = .attendee(Attendee.ID(UUID(3)))
      $0.syncUp.vocabulary = []
    }
  }

  @Test func aVocabularyWordAgainstTheRulesStaysOnTheForm() async {
    var form = SyncUpForm.State(syncUp: .mock)
    form.syncUp.vocabulary = ["Grafana", "grafana"]
    #expect(form.validated() == nil)
    #expect(form.problem == .duplicateWord("grafana"))
    #expect("\(form.problem!)" == "the vocabulary has 'grafana' twice: keep one")
  }
}
