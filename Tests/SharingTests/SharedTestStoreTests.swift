import Architecture
import Foundation
import Testing

/// A counter whose count is shared: the reducer mutates it directly, an effect mutates it later.
private struct SharedCounter: Reducer {
  struct State: Equatable {
    @Shared var count: Int
    var local = 0
  }

  enum Action: Equatable, Sendable {
    case incrementButtonTapped
    case incrementLaterButtonTapped
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .incrementButtonTapped:
      state.$count.withLock { $0 += 1 }
      return .none
    case .incrementLaterButtonTapped:
      return .run { [count = state.$count] _ in count.withLock { $0 += 1 } }
    }
  }
}

/// Holds a shared list and edits one element through a derived reference, as the sync-up
/// detail edits the list's sync-up.
private struct ItemEditor: Reducer {
  struct Item: Equatable, Identifiable, Codable, Sendable {
    var id: Int
    var title: String
  }

  struct State: Equatable {
    @Shared var item: Item
  }

  enum Action: Equatable, Sendable {
    case rename(String)
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .rename(let title):
      state.$item.withLock { $0.title = title }
      return .none
    }
  }
}

@MainActor
struct SharedTestStoreTests {
  @Test func reducerMutationIsAssertedInSend() async {
    let store = TestStore(initialState: SharedCounter.State(count: Shared(value: 0))) {
      SharedCounter()
    }
    await store.send(.incrementButtonTapped) { $0.$count.withLock { $0 = 1 } }
    await store.send(.incrementButtonTapped) { $0.$count.withLock { $0 = 2 } }
  }

  @Test func wrongExpectationShowsTheSharedValueBeforeAndAfter() async {
    let store = TestStore(initialState: SharedCounter.State(count: Shared(value: 0))) {
      SharedCounter()
    }
    await withKnownIssue {
      await store.send(.incrementButtonTapped) { $0.$count.withLock { $0 = 2 } }
    } matching: { issue in
      issue.text.contains("A state change does not match expectation")
        && issue.text.contains("−   _count: 2") && issue.text.contains("+   _count: 1")
    }
  }

  @Test func unassertedSharedChangeInTheReducerFails() async {
    let store = TestStore(initialState: SharedCounter.State(count: Shared(value: 0))) {
      SharedCounter()
    }
    await withKnownIssue {
      await store.send(.incrementButtonTapped)
    } matching: { issue in
      issue.text.contains("State was not expected to change, but a change occurred")
        && issue.text.contains("−   _count: 0") && issue.text.contains("+   _count: 1")
    }
  }

  @Test func changeMadeByAnEffectIsAssertedWithAssert() async {
    let store = TestStore(initialState: SharedCounter.State(count: Shared(value: 0))) {
      SharedCounter()
    }
    await store.send(.incrementLaterButtonTapped)
    await store.finish()
    store.assert { $0.$count.withLock { $0 = 1 } }
  }

  @Test func changeMadeByAnEffectAndNotAssertedFailsAtTheEndOfTheTest() async {
    await withKnownIssue {
      let store = TestStore(
        initialState: SharedCounter.State(count: Shared(wrappedValue: 0, .inMemory("count")))
      ) {
        SharedCounter()
      }
      await store.send(.incrementLaterButtonTapped)
      await store.finish()
    } matching: { issue in
      issue.text.contains(#"Tracked changes to 'Shared<Int>(.inMemory("count"))'"#)
        && issue.text.contains("− 0") && issue.text.contains("+ 1")
    }
  }

  @Test func sharedStateDeclaredInTheTestIsWhatTheFeatureSees() async {
    @Shared(.inMemory("count")) var count = 42
    let store = TestStore(
      initialState: SharedCounter.State(count: Shared(wrappedValue: 0, .inMemory("count")))
    ) {
      SharedCounter()
    }
    #expect(store.state.count == 42)
    await store.send(.incrementButtonTapped) { $0.$count.withLock { $0 = 43 } }
    #expect(count == 43)
  }

  @Test func writeThroughADerivedReferenceReachesTheRoot() async throws {
    @Shared(value: IdentifiedArray(uniqueElements: [ItemEditor.Item(id: 1, title: "Design")]))
    var items: IdentifiedArrayOf<ItemEditor.Item>
    let item = try #require(Shared($items[id: 1]))
    let store = TestStore(initialState: ItemEditor.State(item: item)) { ItemEditor() }
    await store.send(.rename("Engineering")) {
      $0.$item.withLock { $0.title = "Engineering" }
    }
    #expect(items[id: 1]?.title == "Engineering")
  }
}

extension Issue {
  fileprivate var text: String {
    comments.map(\.rawValue).joined(separator: "\n") + "\n" + description
  }
}
