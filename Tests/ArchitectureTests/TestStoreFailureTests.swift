import Architecture
import Clocks
import Dependencies
import Testing

/// Proves the TestStore fails when it should, and that each failure shows what differs.
@MainActor
struct TestStoreFailureTests {
  @Test func wrongExpectationFailsWithADiff() async {
    await withKnownIssue {
      let store = TestStore(initialState: Counter.State()) { Counter() }
      await store.send(.incrementButtonTapped) { $0.count = 2 }
    } matching: { issue in
      let text = issue.message
      return text.contains("A state change does not match expectation")
        && text.contains("−   count: 2,") && text.contains("+   count: 1,")
        && text.contains("(Expected: −, Actual: +)")
    }
  }

  @Test func unassertedStateChangeFailsWithADiff() async {
    await withKnownIssue {
      let store = TestStore(initialState: Counter.State()) { Counter() }
      await store.send(.incrementButtonTapped)
    } matching: { issue in
      let text = issue.message
      return text.contains("State was not expected to change, but a change occurred")
        && text.contains("−   count: 0,") && text.contains("+   count: 1,")
    }
  }

  @Test func unreceivedActionFails() async {
    await withKnownIssue {
      let store = TestStore(initialState: Echo.State()) { Echo() }
      await store.send(.ping) { $0.pings = 1 }
      await store.finish()
    } matching: { issue in
      issue.message.contains("received 1 unexpected action(s)")
        && issue.message.contains("Echo.Action.pong")
    }
  }

  @Test func effectStillInFlightAtTheEndFails() async {
    let clock = TestClock()
    await withKnownIssue {
      let store = TestStore(initialState: Counter.State()) {
        Counter()
      } withDependencies: {
        $0.continuousClock = clock
      }
      await store.send(.toggleTimerButtonTapped) { $0.isTimerRunning = true }
    } matching: { issue in
      issue.message.contains("An effect returned for this action is still running")
        && issue.message.contains("Counter.Action.toggleTimerButtonTapped")
    }
  }

  @Test func finishFailsForARunningEffect() async {
    let clock = TestClock()
    let store = TestStore(initialState: Counter.State()) {
      Counter()
    } withDependencies: {
      $0.continuousClock = clock
    }
    await store.send(.toggleTimerButtonTapped) { $0.isTimerRunning = true }
    await withKnownIssue {
      await store.finish(timeout: .milliseconds(50))
    } matching: { issue in
      issue.message.contains("still running")
    }
  }

  @Test func receiveThatTimesOutFails() async {
    let clock = TestClock()
    let store = TestStore(initialState: Counter.State()) {
      Counter()
    } withDependencies: {
      $0.continuousClock = clock
    }
    await store.send(.toggleTimerButtonTapped) { $0.isTimerRunning = true }
    await withKnownIssue {
      // The clock never advances, so no tick arrives.
      await store.receive(\.timerTick, timeout: .milliseconds(100)) { $0.count = 1 }
    } matching: { issue in
      issue.message.contains("Expected to receive Counter.Action.timerTick")
        && issue.message.contains("received none after")
        && issue.message.contains("− Counter.Action.timerTick")
        && issue.message.contains("+ (nothing)")
    }
    await store.send(.toggleTimerButtonTapped) { $0.isTimerRunning = false }
  }

  @Test func receivingTheWrongActionFails() async {
    await withKnownIssue {
      let store = TestStore(initialState: Echo.State()) { Echo() }
      await store.send(.ping) { $0.pings = 1 }
      await store.receive(\.ping)
    } matching: { issue in
      issue.message.contains("Received unexpected action")
        && issue.message.contains("− Echo.Action.ping")
        && issue.message.contains("+ Echo.Action.pong")
    }
  }

  @Test func sendingWithUnhandledReceivedActionsFails() async {
    await withKnownIssue {
      let store = TestStore(initialState: Echo.State()) { Echo() }
      await store.send(.ping) { $0.pings = 1 }
      while store.state.pongs == 0 { await Task.yield() }
      await store.send(.ping) { $0.pings = 2 }
      while store.state.pongs == 1 { await Task.yield() }
      await store.skipReceivedActions()
      // The second pong is in; its effect may still be ending (on a busy machine it was, and
      // the end of the test reported it as still running).
      await store.finish()
    } matching: { issue in
      issue.message.contains("Must handle 1 received action(s) before sending an action")
    }
  }

  @Test func nonExhaustiveStoreSkipsWhatIsNotAsserted() async {
    let clock = TestClock()
    let store = TestStore(initialState: Counter.State()) {
      Counter()
    } withDependencies: {
      $0.continuousClock = clock
    }
    store.exhaustivity = .off
    await store.send(.toggleTimerButtonTapped)
    await clock.tick(3)
    await store.receive(\.timerTick)
    await store.receive(\.timerTick) { $0.count = 2 }
    // The third tick and the running timer are left unasserted, which `.off` allows.
  }

  @Test func skipReceivedActionsAcceptsTheirState() async {
    let store = TestStore(initialState: Echo.State()) { Echo() }
    await store.send(.ping) { $0.pings = 1 }
    await store.skipReceivedActions()
    #expect(store.state.pongs == 1)
    await store.send(.ping) { $0.pings = 2 }
    await store.receive(\.pong) { $0.pongs = 2 }
    await store.finish()
  }
}

/// Sends `pong` back from an effect for every `ping`.
struct Echo: Reducer {
  struct State: Equatable {
    var pings = 0
    var pongs = 0
  }

  enum Action: Equatable, Sendable {
    case ping
    case pong
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .ping:
      state.pings += 1
      return .run { send in await send(.pong) }
    case .pong:
      state.pongs += 1
      return .none
    }
  }
}

// The cases reached by key path (see `Scope`).
extension Echo.Action {
  var ping: Void? {
    get { if case .ping = self { () } else { nil } }
    set { if newValue != nil { self = .ping } }
  }

  var pong: Void? {
    get { if case .pong = self { () } else { nil } }
    set { if newValue != nil { self = .pong } }
  }
}

extension Issue {
  /// The text a failure was reported with.
  var message: String {
    comments.map(\.rawValue).joined(separator: "\n") + "\n" + description
  }
}
