import Architecture
import Testing

/// A navigation stack of counters with timers that can pop themselves.
private struct Navigation: Reducer {
  struct State: Equatable {
    var path = StackState<Screen.State>()
    var popped: [StackElementID] = []
  }

  enum Action: Equatable, Sendable {
    case path(StackAction<Screen.State, Screen.Action>)
    case pushButtonTapped
  }

  struct Screen: CaseReducer {
    enum State: Equatable, CaseReducerState {
      typealias StateReducer = Screen
      case timer(Ticker.State)
    }

    enum Action: Equatable, Sendable {
      case timer(Ticker.Action)
    }

    var body: some ReducerOf<Self> {
      Scope(state: \.timer, action: \.timer) { Ticker() }
    }
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .path(.popFrom(let id)):
        state.popped.append(id)
        return .none
      case .path:
        return .none
      case .pushButtonTapped:
        state.path.append(.timer(Ticker.State()))
        return .none
      }
    }
    .forEach(\.path, action: \.path)
  }
}

// The cases reached by key path (see `Scope`).
extension Navigation.Action {
  fileprivate var path: StackAction<Navigation.Screen.State, Navigation.Screen.Action>? {
    get { if case .path(let value) = self { value } else { nil } }
    set { if let newValue { self = .path(newValue) } }
  }
}

extension Navigation.Screen.State {
  fileprivate var timer: Ticker.State? {
    get { if case .timer(let value) = self { value } else { nil } }
    set { if let newValue { self = .timer(newValue) } }
  }
}

extension Navigation.Screen.Action {
  fileprivate var timer: Ticker.Action? {
    get { if case .timer(let value) = self { value } else { nil } }
    set { if let newValue { self = .timer(newValue) } }
  }
}

private struct Ticker: Reducer {
  struct State: Equatable {
    var ticks = 0
  }

  enum Action: Equatable, Sendable {
    case backButtonTapped
    case start
    case tick
  }

  @Dependency(\.continuousClock) var clock
  @Dependency(\.dismiss) var dismiss

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .backButtonTapped:
      return .run { [dismiss] _ in await dismiss() }
    case .start:
      return .run { [clock] send in
        for await _ in clock.timer(interval: .seconds(1)) { await send(.tick) }
      }
    case .tick:
      state.ticks += 1
      return .none
    }
  }
}

// The cases reached by key path (see `Scope`).
extension Ticker.Action {
  fileprivate var tick: Void? {
    get { if case .tick = self { () } else { nil } }
    set { if newValue != nil { self = .tick } }
  }
}

@MainActor
struct StackNavigationTests {
  @Test func idsIncreaseAndStayStable() {
    withDependencies {
      $0.stackElementID = StackElementIDGenerator()
    } operation: {
      var stack = StackState<String>(["a", "b"])
      #expect(stack.ids == [0, 1])
      stack.append("c")
      stack.removeLast()
      stack.append("d")
      #expect(stack.ids == [0, 1, 3])
      #expect(stack[id: 1] == "b")
      stack.pop(from: 1)
      #expect(Array(stack) == ["a"])
      stack.append("e")
      #expect(stack.ids == [0, 4])
      stack.pop(to: 0)
      #expect(stack.ids == [0])
    }
  }

  @Test func aPushedElementRunsItsEffectsUntilPopped() async {
    let clock = TestClock()
    let store = TestStore(initialState: Navigation.State()) {
      Navigation()
    } withDependencies: {
      $0.continuousClock = clock
    }
    await store.send(.pushButtonTapped) { $0.path.append(.timer(Ticker.State())) }
    await store.send(.path(.push(id: 1, state: .timer(Ticker.State(ticks: 7))))) {
      $0.path[id: 1] = nil
      $0.path.append(.timer(Ticker.State(ticks: 7)))
    }
    #expect(store.state.path.ids == [0, 1])
    await store.send(.path(.element(id: 0, action: .timer(.start))))
    await clock.tick()
    await store.receive(\.path?[id: 0]?.timer?.tick) {
      $0.path[id: 0] = .timer(Ticker.State(ticks: 1))
    }
    // Popping the element stops its timer.
    await store.send(.path(.popFrom(id: 0))) {
      $0.path.removeAll()
      $0.popped = [0]
    }
    await clock.advance(by: .seconds(5))
  }

  @Test func elementPopsItselfWithDismiss() async {
    let store = TestStore(initialState: Navigation.State()) { Navigation() }
    await store.send(.pushButtonTapped) { $0.path.append(.timer(Ticker.State())) }
    await store.send(.pushButtonTapped) { $0.path.append(.timer(Ticker.State())) }
    await store.send(.path(.element(id: 1, action: .timer(.backButtonTapped))))
    await store.receive(\.path?.popFrom, 1) {
      $0.path.pop(from: 1)
      $0.popped = [1]
    }
  }

  @Test func pushingAnIdNotAboveTheStackIsReported() async {
    let store = TestStore(initialState: Navigation.State()) { Navigation() }
    await store.send(.pushButtonTapped) { $0.path.append(.timer(Ticker.State())) }
    await withKnownIssue {
      await store.send(.path(.push(id: 0, state: .timer(Ticker.State()))))
    } matching: { issue in
      issue.message.contains("was asked to push id #0")
    }
  }
}
