import Architecture
import Clocks
import Dependencies
import Testing

@MainActor
struct CounterTests {
  @Test func incrementingAndDecrementingChangeTheCount() async {
    let store = TestStore(initialState: Counter.State()) { Counter() }
    await store.send(.incrementButtonTapped) { $0.count = 1 }
    await store.send(.incrementButtonTapped) { $0.count = 2 }
    await store.send(.decrementButtonTapped) { $0.count = 1 }
  }

  @Test func timerTicksOnTheTestClock() async {
    let clock = TestClock()
    let store = TestStore(initialState: Counter.State()) {
      Counter()
    } withDependencies: {
      $0.continuousClock = clock
    }
    await store.send(.toggleTimerButtonTapped) { $0.isTimerRunning = true }
    await clock.tick()
    await store.receive(\.timerTick) { $0.count = 1 }
    await clock.tick(2)
    await store.receive(\.timerTick) { $0.count = 2 }
    await store.receive(\.timerTick) { $0.count = 3 }
    await store.send(.toggleTimerButtonTapped) { $0.isTimerRunning = false }
    await clock.advance(by: .seconds(5))
  }

  @Test func timerRunsOnTheRealStoreToo() async throws {
    let clock = TestClock()
    let store = Store(initialState: Counter.State()) {
      Counter()
    } withDependencies: {
      $0.continuousClock = clock
    }
    let task = store.send(.toggleTimerButtonTapped)
    await advance(clock, until: { store.state.count == 3 })
    task.cancel()
    await task.finish()
    await clock.advance(by: .seconds(3))
    #expect(store.state.count == 3)
  }
}

extension Task where Success == Never, Failure == Never {
  /// Lets effect tasks run up to their next suspension point.
  static func megaYieldForTests(count: Int = 50) async {
    for _ in 0..<count {
      await Task<Void, Never>.detached(priority: .background) { await Task.yield() }.value
    }
  }
}
