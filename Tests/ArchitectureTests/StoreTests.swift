import Architecture
import Foundation
import Observation
import Testing

@MainActor
struct StoreTests {
  @Test func sendUpdatesStateAndReturnsAnAwaitableTask() async {
    let store = Store(initialState: Echo.State()) { Echo() }
    let task = store.send(.ping)
    #expect(store.state.pings == 1)
    await task.finish()
    #expect(store.state.pongs == 1)
  }

  @Test func initialStateIsBuiltWithTheStoresDependencies() async {
    struct Feature: Reducer {
      struct State { var id: UUID }
      @Dependency(\.uuid) var uuid
      func reduce(into state: inout State, action: Void) -> Effect<Void> {
        state.id = uuid()
        return .none
      }
    }
    @Dependency(\.uuid) var uuid
    let store = Store(initialState: Feature.State(id: uuid())) {
      Feature()
    } withDependencies: {
      $0.uuid = .incrementing
    }
    #expect(store.state.id == UUID(0))
    store.send(())
    #expect(store.state.id == UUID(1))
  }

  @Test func scopedStoreReadsAndSendsThroughTheParent() async {
    let store = Store(initialState: CounterHolder.State()) { CounterHolder() }
    let child = store.scope(state: \.counter, action: { .counter($0) })
    child.send(.incrementButtonTapped)
    #expect(child.state.count == 1)
    #expect(store.state.counter.count == 1)
  }

  @Test func statesStreamFollowsChanges() async {
    let store = Store(initialState: Counter.State()) { Counter() }
    var states = store.states.makeAsyncIterator()
    #expect(await states.next()?.count == 0)
    store.send(.incrementButtonTapped)
    #expect(await states.next()?.count == 1)
    store.send(.incrementButtonTapped)
    #expect(await states.next()?.count == 2)
  }

  @Test func observationTrackingSeesStateChanges() async {
    let store = Store(initialState: Counter.State()) { Counter() }
    let changed = LockIsolated(false)
    withObservationTracking {
      _ = store.state.count
    } onChange: {
      changed.setValue(true)
    }
    store.send(.incrementButtonTapped)
    #expect(changed.value)
  }

  @Test func cancellingTheSendTaskCancelsItsEffects() async {
    let clock = TestClock()
    let store = Store(initialState: Counter.State()) {
      Counter()
    } withDependencies: {
      $0.continuousClock = clock
    }
    let task = store.send(.toggleTimerButtonTapped)
    await advance(clock, until: { store.state.count == 1 })
    task.cancel()
    await task.finish()
    #expect(task.isCancelled)
    await clock.advance(by: .seconds(5))
    #expect(store.state.count == 1)
  }

  @Test func rootFeatureDismissingItselfMarksTheStore() async {
    struct Closing: Reducer {
      @Dependency(\.dismiss) var dismiss
      func reduce(into state: inout Int, action: Void) -> Effect<Void> {
        .run { [dismiss] _ in await dismiss() }
      }
    }
    let store = Store(initialState: 0) { Closing() }
    await store.send(()).finish()
    #expect(store.isDismissed)
  }
}

/// Advances the clock a second at a time until `condition` holds: a real store starts its
/// effects asynchronously, so the first advance can come before the timer is waiting.
@MainActor
func advance(_ clock: TestClock<Duration>, until condition: () -> Bool) async {
  for _ in 0..<1000 where !condition() {
    await Task.megaYieldForTests()
    if condition() { return }
    await clock.advance(by: .seconds(1))
  }
  #expect(condition())
}

private struct CounterHolder: Reducer {
  struct State { var counter = Counter.State() }
  enum Action: Sendable { case counter(Counter.Action) }
  var body: some ReducerOf<Self> {
    Scope(state: \.counter, action: \.counter) { Counter() }
  }
}

// The cases reached by key path (see `Scope`).
extension CounterHolder.Action {
  fileprivate var counter: Counter.Action? {
    get { if case .counter(let value) = self { value } else { nil } }
    set { if let newValue { self = .counter(newValue) } }
  }
}
