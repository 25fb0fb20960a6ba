import Architecture
import Testing

/// A presented child with a timer, that can close itself.
private struct Child: Reducer {
  struct State: Equatable {
    var ticks = 0
  }

  enum Action: Equatable, Sendable {
    case closeButtonTapped
    case onAppear
    case tick
  }

  @Dependency(\.continuousClock) var clock
  @Dependency(\.dismiss) var dismiss

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .closeButtonTapped:
      return .run { [dismiss] _ in await dismiss() }
    case .onAppear:
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
extension Child.Action {
  fileprivate var tick: Void? {
    get { if case .tick = self { () } else { nil } }
    set { if newValue != nil { self = .tick } }
  }
}

/// A parent presenting either the child or an alert, through one destination.
private struct Parent: Reducer {
  struct State: Equatable {
    @Presents var destination: Destination.State?
    var log: [String] = []
  }

  enum Action: Equatable, Sendable {
    case destination(PresentationAction<Destination.Action>)
    case deleteButtonTapped
    case showChildButtonTapped
  }

  enum Alert: Equatable, Sendable {
    case confirmDeletion
  }

  struct Destination: CaseReducer {
    enum State: Equatable, CaseReducerState {
      typealias StateReducer = Destination
      case alert(AlertState<Alert>)
      case child(Child.State)
    }

    enum Action: Equatable, Sendable {
      case alert(Alert)
      case child(Child.Action)
    }

    var body: some ReducerOf<Self> {
      Scope(state: \.child, action: \.child) { Child() }
    }
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .destination(.presented(.alert(.confirmDeletion))):
        state.log.append("deleted")
        return .none
      case .destination(.presented(.child(.tick))):
        // The child runs first: its tick count is already updated here.
        if case .child(let child) = state.destination { state.log.append("tick \(child.ticks)") }
        return .none
      case .destination:
        return .none
      case .deleteButtonTapped:
        state.destination = .alert(
          AlertState {
            TextState("Delete?")
          } actions: {
            ButtonState(role: .destructive, action: .confirmDeletion) { TextState("Yes") }
            ButtonState(role: .cancel) { TextState("Nevermind") }
          } message: {
            TextState("This cannot be undone.")
          }
        )
        return .none
      case .showChildButtonTapped:
        state.destination = .child(Child.State())
        return .none
      }
    }
    .ifLet(\.$destination, action: \.destination)
  }
}

// The cases reached by key path (see `Scope`).
extension Parent.Action {
  fileprivate var destination: PresentationAction<Parent.Destination.Action>? {
    get { if case .destination(let value) = self { value } else { nil } }
    set { if let newValue { self = .destination(newValue) } }
  }
}

extension Parent.Destination.State {
  fileprivate var child: Child.State? {
    get { if case .child(let value) = self { value } else { nil } }
    set { if let newValue { self = .child(newValue) } }
  }
}

extension Parent.Destination.Action {
  fileprivate var child: Child.Action? {
    get { if case .child(let value) = self { value } else { nil } }
    set { if let newValue { self = .child(newValue) } }
  }
}

@MainActor
struct PresentationTests {
  @Test func childRunsBeforeParentAndDismissingStopsItsTimer() async {
    let clock = TestClock()
    let store = TestStore(initialState: Parent.State()) {
      Parent()
    } withDependencies: {
      $0.continuousClock = clock
    }
    await store.send(.showChildButtonTapped) { $0.destination = .child(Child.State()) }
    await store.send(.destination(.presented(.child(.onAppear))))
    await clock.tick()
    await store.receive(\.destination?.presented?.child?.tick) {
      $0.destination = .child(Child.State(ticks: 1))
      $0.log = ["tick 1"]
    }
    await store.send(.destination(.dismiss)) { $0.destination = nil }
    // The dismissed child's timer is cancelled: no more ticks, nothing left running.
    await clock.advance(by: .seconds(5))
  }

  @Test func childDismissesItself() async {
    let clock = TestClock()
    let store = TestStore(initialState: Parent.State()) {
      Parent()
    } withDependencies: {
      $0.continuousClock = clock
    }
    await store.send(.showChildButtonTapped) { $0.destination = .child(Child.State()) }
    await store.send(.destination(.presented(.child(.onAppear))))
    await store.send(.destination(.presented(.child(.closeButtonTapped))))
    await store.receive(\.destination?.dismiss) { $0.destination = nil }
    await clock.advance(by: .seconds(5))
  }

  @Test func alertButtonSendsItsActionAndDismissesTheAlert() async {
    let store = TestStore(initialState: Parent.State()) { Parent() }
    await store.send(.deleteButtonTapped) {
      $0.destination = .alert(
        AlertState {
          TextState("Delete?")
        } actions: {
          ButtonState(role: .destructive, action: .confirmDeletion) { TextState("Yes") }
          ButtonState(role: .cancel) { TextState("Nevermind") }
        } message: {
          TextState("This cannot be undone.")
        }
      )
    }
    await store.send(.destination(.presented(.alert(.confirmDeletion)))) {
      $0.destination = nil
      $0.log = ["deleted"]
    }
  }

  @Test func replacingTheDestinationCancelsTheOldChildsEffects() async {
    let clock = TestClock()
    let store = TestStore(initialState: Parent.State()) {
      Parent()
    } withDependencies: {
      $0.continuousClock = clock
    }
    await store.send(.showChildButtonTapped) { $0.destination = .child(Child.State()) }
    await store.send(.destination(.presented(.child(.onAppear))))
    await store.send(.deleteButtonTapped) {
      $0.destination = .alert(
        AlertState {
          TextState("Delete?")
        } actions: {
          ButtonState(role: .destructive, action: .confirmDeletion) { TextState("Yes") }
          ButtonState(role: .cancel) { TextState("Nevermind") }
        } message: {
          TextState("This cannot be undone.")
        }
      )
    }
    await clock.advance(by: .seconds(3))
    await store.send(.destination(.dismiss)) { $0.destination = nil }
  }

  @Test func actionForAnAbsentChildIsReported() async {
    let store = TestStore(initialState: Parent.State()) { Parent() }
    await withKnownIssue {
      await store.send(.destination(.presented(.child(.tick))))
    } matching: { issue in
      issue.message.contains("received a presentation action when its state was absent")
    }
  }

  @Test func rootFeatureDismissingItselfSetsIsDismissed() async {
    let store = TestStore(initialState: Child.State()) { Child() }
    #expect(!store.isDismissed)
    await store.send(.closeButtonTapped)
    await store.finish()
    #expect(store.isDismissed)
  }

  @Test func alertStateIsPlainData() {
    let alert = AlertState<Parent.Alert> {
      TextState("Delete?")
    } actions: {
      ButtonState(role: .destructive, action: .confirmDeletion) { TextState("Yes") }
      ButtonState(role: .cancel) { TextState("Nevermind") }
    }
    #expect(alert.title == "Delete?")
    #expect(alert.message == nil)
    #expect(alert.buttons.map(\.label.string) == ["Yes", "Nevermind"])
    #expect(alert.buttons[0].role == .destructive)
    #expect(alert.buttons[0].action == .confirmDeletion)
    #expect(alert.cancelButton?.action == nil)
    #expect(alert != AlertState { TextState("Other") })
  }
}
