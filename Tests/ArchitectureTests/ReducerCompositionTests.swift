import Architecture
import Testing

/// A parent that composes children with Scope (a field and an enum case), CombineReducers,
/// EmptyReducer, conditionals and onChange.
private struct Parent: Reducer {
  struct State: Equatable {
    var counter = Counter.State()
    var mode = Mode.off
    var doubled = 0
    var changes: [String] = []
    var useExtra = true
  }

  typealias Mode = ModeFeature.State

  enum Action: Equatable, Sendable {
    case counter(Counter.Action)
    case mode(ModeFeature.Action)
    case startCounting
  }

  var body: some ReducerOf<Self> {
    Scope(state: \.mode, action: \.mode) { ModeFeature() }
    CombineReducers {
      Scope(state: \.counter, action: \.counter) { Counter() }
      Reduce { state, action in
        if case .startCounting = action { state.mode = .counting(Counter.State()) }
        return .none
      }
      EmptyReducer()
    }
    .onChange(of: \.counter.count) { oldValue, newValue in
      Reduce { state, _ in
        state.changes.append("\(oldValue)→\(newValue)")
        state.doubled = newValue * 2
        return .none
      }
    }
  }
}

// The cases reached by key path (see `Scope`).
extension Parent.Action {
  fileprivate var counter: Counter.Action? {
    get { if case .counter(let value) = self { value } else { nil } }
    set { if let newValue { self = .counter(newValue) } }
  }

  fileprivate var mode: ModeFeature.Action? {
    get { if case .mode(let value) = self { value } else { nil } }
    set { if let newValue { self = .mode(newValue) } }
  }
}

/// A reducer over an enum state: the child runs only in its case.
private struct ModeFeature: Reducer {
  enum State: Equatable {
    case off
    case counting(Counter.State)
  }

  enum Action: Equatable, Sendable {
    case counting(Counter.Action)
  }

  var body: some ReducerOf<Self> {
    Scope(state: \.counting, action: \.counting) { Counter() }
  }
}

// The cases reached by key path (see `Scope`).
extension ModeFeature.State {
  fileprivate var counting: Counter.State? {
    get { if case .counting(let value) = self { value } else { nil } }
    set { if let newValue { self = .counting(newValue) } }
  }
}

extension ModeFeature.Action {
  fileprivate var counting: Counter.Action? {
    get { if case .counting(let value) = self { value } else { nil } }
    set { if let newValue { self = .counting(newValue) } }
  }
}

@MainActor
struct ReducerCompositionTests {
  @Test func scopeRunsTheChildOnItsFieldAndOnChangeReacts() async {
    let store = TestStore(initialState: Parent.State()) { Parent() }
    await store.send(.counter(.incrementButtonTapped)) {
      $0.counter.count = 1
      $0.doubled = 2
      $0.changes = ["0→1"]
    }
    await store.send(.counter(.decrementButtonTapped)) {
      $0.counter.count = 0
      $0.doubled = 0
      $0.changes = ["0→1", "1→0"]
    }
  }

  @Test func scopeRunsTheChildOnAnEnumCase() async {
    let store = TestStore(initialState: Parent.State()) { Parent() }
    await store.send(.startCounting) { $0.mode = .counting(Counter.State()) }
    await store.send(.mode(.counting(.incrementButtonTapped))) {
      $0.mode = .counting(Counter.State(count: 1))
    }
  }

  @Test func scopeOnTheWrongCaseIsReported() async {
    let store = TestStore(initialState: Parent.State()) { Parent() }
    await withKnownIssue {
      await store.send(.mode(.counting(.incrementButtonTapped)))
    } matching: { issue in
      issue.message.contains("received a child action when the parent state was in another case")
    }
  }

  @Test func builderConditionalsChooseAReducer() async {
    struct Toggle: Reducer {
      let enabled: Bool
      var body: some Reducer<Int, Void> {
        if enabled {
          Reduce { state, _ in
            state += 1
            return .none
          }
        } else {
          EmptyReducer()
        }
      }
    }
    var value = 0
    _ = Toggle(enabled: true).reduce(into: &value, action: ())
    _ = Toggle(enabled: false).reduce(into: &value, action: ())
    #expect(value == 1)
  }
}
