import Dependencies
import Observation

/// Runs a feature: holds its state, runs its reducer for each action and the effects that follow.
///
/// A UI reads `state` (Observation-tracked) or iterates `states`, and calls `send`. `scope`
/// derives a store for a child feature that shares the same root.
@MainActor
public final class Store<State, Action>: Observable {
  private let root: StoreRoot
  private let toState: @MainActor () -> State
  private let sendAction: @MainActor (Action) -> Task<Void, Never>?
  private let registrar = ObservationRegistrar()
  private var observerID: Int?

  public init<R: Reducer<State, Action>>(
    initialState: @autoclosure () -> State,
    @ReducerBuilder<State, Action> reducer: () -> R,
    withDependencies prepareDependencies: (inout DependencyValues) -> Void = { _ in }
  ) {
    let (state, dependencies) = withDependencies(prepareDependencies) {
      (initialState(), DependencyValues._current)
    }
    let core = StoreCore(state: state, reducer: reducer(), dependencies: dependencies)
    self.root = core
    self.toState = { core.state }
    self.sendAction = { core.send($0) }
    observe()
  }

  private init(
    root: StoreRoot,
    toState: @escaping @MainActor () -> State,
    send: @escaping @MainActor (Action) -> Task<Void, Never>?
  ) {
    self.root = root
    self.toState = toState
    self.sendAction = send
    observe()
  }

  private func observe() {
    observerID = root.addObserver { [weak self] in
      guard let self else { return }
      registrar.withMutation(of: self, keyPath: \.state) {}
    }
  }

  isolated deinit {
    if let observerID { root.removeObserver(observerID) }
  }

  /// The current state.
  public var state: State {
    registrar.access(self, keyPath: \.state)
    return toState()
  }

  /// Sends an action. The returned task finishes when the effects it started have finished.
  @discardableResult
  public func send(_ action: Action) -> StoreTask {
    StoreTask(rawValue: sendAction(action))
  }

  /// True once the root feature called `@Dependency(\.dismiss)`.
  public var isDismissed: Bool { root.isDismissed }

  /// A store for a child feature: its state is read from this store's, its actions are embedded
  /// into this store's actions, e.g. `store.scope(state: \.counter, action: { .counter($0) })`.
  public func scope<ChildState, ChildAction>(
    state toChildState: KeyPath<State, ChildState>,
    action toChildAction: @escaping (ChildAction) -> Action
  ) -> Store<ChildState, ChildAction> {
    let toState = self.toState
    let send = self.sendAction
    return Store<ChildState, ChildAction>(
      root: root,
      toState: { toState()[keyPath: toChildState] },
      send: { send(toChildAction($0)) }
    )
  }
}

extension Store where State: Sendable {
  /// The current state, then every state after a change, for UIs that render from a loop.
  public var states: AsyncStream<State> {
    let (stream, continuation) = AsyncStream.makeStream(
      of: State.self, bufferingPolicy: .bufferingNewest(1)
    )
    continuation.yield(toState())
    let toState = self.toState
    let root = self.root
    let id = root.addObserver { continuation.yield(toState()) }
    continuation.onTermination = { _ in
      Task { @MainActor in root.removeObserver(id) }
    }
    return stream
  }
}

/// The work started by one `send`: await it, or cancel it.
public struct StoreTask: Hashable, Sendable {
  let rawValue: Task<Void, Never>?

  public func cancel() { rawValue?.cancel() }

  public func finish() async { await rawValue?.value }

  public var isCancelled: Bool { rawValue?.isCancelled ?? true }
}

/// What a `Store` and its scoped children share: change observers and dismissal.
@MainActor
class StoreRoot {
  private var observers: [Int: @MainActor () -> Void] = [:]
  private var nextObserverID = 0
  var isDismissed = false

  func addObserver(_ observer: @escaping @MainActor () -> Void) -> Int {
    defer { nextObserverID += 1 }
    observers[nextObserverID] = observer
    return nextObserverID
  }

  func removeObserver(_ id: Int) { observers[id] = nil }

  func notifyObservers() {
    for observer in observers.values { observer() }
  }
}

/// The root of a store: the state, the reducer and the running effects.
@MainActor
final class StoreCore<State, Action>: StoreRoot {
  private(set) var state: State
  private let reducer: any Reducer<State, Action>
  private let dependencies: DependencyValues
  private var effects: EffectRunner!
  private var queue: [Action] = []
  private var isSending = false

  init(state: State, reducer: some Reducer<State, Action>, dependencies: DependencyValues) {
    self.state = state
    self.reducer = reducer
    self.dependencies = dependencies
    super.init()
    self.effects = EffectRunner { [weak self] in
      await MainActor.run {
        self?.isDismissed = true
        self?.notifyObservers()
      }
    }
  }

  isolated deinit {
    effects.cancelAll()
  }

  /// Reduces `action` and any action sent synchronously by its effects (queued, so a send from
  /// inside a reducer's effects never re-enters a reducer).
  func send(_ action: Action) -> Task<Void, Never>? {
    queue.append(action)
    guard !isSending else { return nil }
    isSending = true
    defer { isSending = false }

    var tasks: [Task<Void, Never>] = []
    while !queue.isEmpty {
      let action = queue.removeFirst()
      let effect = withDependencies {
        $0 = dependencies
      } operation: {
        reducer.reduce(into: &state, action: action)
      }
      let send = Send<Action> { [weak self] in _ = self?.send($0) }
      let keys = effects.start(effect, send: send) { queue.append($0) }
      tasks += keys.compactMap { effects.inFlight[$0] }
    }
    notifyObservers()

    guard !tasks.isEmpty else { return nil }
    let started = tasks
    return Task {
      await withTaskCancellationHandler {
        for task in started { await task.value }
      } onCancel: {
        for task in started { task.cancel() }
      }
    }
  }
}
