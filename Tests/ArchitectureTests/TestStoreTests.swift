import Architecture
import Foundation
import Testing

/// Stamps new items with an id and a date from its dependencies.
private struct Stamper: Reducer {
  struct State: Equatable {
    var createdAt: Date
    var items: [UUID] = []
  }

  enum Action: Equatable, Sendable {
    case addButtonTapped
    case addLaterButtonTapped
    case added(UUID)
  }

  @Dependency(\.uuid) var uuid

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .addButtonTapped:
      state.items.append(uuid())
      return .none
    case .addLaterButtonTapped:
      return .run { [uuid] send in await send(.added(uuid())) }
    case .added(let id):
      state.items.append(id)
      return .none
    }
  }
}

// The cases reached by key path (see `Scope`).
extension Stamper.Action {
  fileprivate var added: UUID? {
    get { if case .added(let value) = self { value } else { nil } }
    set { if let newValue { self = .added(newValue) } }
  }
}

@MainActor
struct TestStoreTests {
  @Test func initialStateIsBuiltInsideTheOverriddenDependencies() async {
    @Dependency(\.date.now) var now
    let store = TestStore(initialState: Stamper.State(createdAt: now)) {
      Stamper()
    } withDependencies: {
      $0.date.now = Date(timeIntervalSince1970: 1_234_567_890)
      $0.uuid = .incrementing
    }
    #expect(store.state.createdAt == Date(timeIntervalSince1970: 1_234_567_890))
    await store.send(.addButtonTapped) { $0.items = [UUID(0)] }
  }

  @Test func dependenciesCanChangeBetweenSends() async {
    let store = TestStore(initialState: Stamper.State(createdAt: .distantPast)) {
      Stamper()
    } withDependencies: {
      $0.uuid = .constant(UUID(7))
    }
    await store.send(.addButtonTapped) { $0.items = [UUID(7)] }
    store.dependencies.uuid = .constant(UUID(8))
    await store.send(.addLaterButtonTapped)
    await store.receive(\.added, UUID(8)) { $0.items = [UUID(7), UUID(8)] }
    await store.finish()
  }

  @Test func assertChecksTheCurrentStateWithoutSending() async {
    let store = TestStore(initialState: Stamper.State(createdAt: .distantPast)) {
      Stamper()
    } withDependencies: {
      $0.uuid = .incrementing
    }
    store.exhaustivity = .off
    await store.send(.addLaterButtonTapped)
    await store.skipReceivedActions()
    store.assert { $0.items = [UUID(0)] }
    withKnownIssue {
      store.assert { $0.items = [] }
    } matching: { issue in
      issue.message.contains("A state change does not match expectation")
    }
  }

  @Test func usingAnUnimplementedDependencyFails() async {
    let store = TestStore(initialState: Stamper.State(createdAt: .distantPast)) { Stamper() }
    await withKnownIssue {
      await store.send(.addButtonTapped) { $0.items = [UUID(0)] }
    } matching: { issue in
      // The live uuid generator is refused, and so the state holds an unexpected id.
      issue.message.contains(#"@Dependency(\.uuid) has no test implementation"#)
        || issue.message.contains("A state change does not match expectation")
    }
  }
}
