import Architecture
import Testing

/// A feature whose actions exercise each kind of effect.
private struct Effects: Reducer {
  struct State: Equatable {
    var log: [String] = []
  }

  enum Action: Equatable, Sendable {
    case startTwice
    case startOnce
    case cancelTimer
    case merged
    case sendNow
    case failing
    case failingUnhandled
    case readDependency
    case logged(String)
  }

  enum CancelID { case timer }

  @Dependency(\.continuousClock) var clock
  @Dependency(\.uuid) var uuid

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .startTwice:
      return .merge(timer(), timer())
    case .startOnce:
      return timer()
    case .cancelTimer:
      return .cancel(id: CancelID.timer)
    case .merged:
      return .merge(.send(.logged("a")), .run { send in await send(.logged("b")) })
    case .sendNow:
      return .send(.logged("now"))
    case .failing:
      struct Failure: Error {}
      return .run { _ in
        throw Failure()
      } catch: { _, send in
        await send(.logged("caught"))
      }
    case .failingUnhandled:
      struct Failure: Error {}
      return .run { _ in throw Failure() }
    case .readDependency:
      return .run { send in
        // Runs later, in a task, yet sees the dependencies of the store that created it.
        @Dependency(\.uuid) var uuid
        await send(.logged(uuid().uuidString))
      }
    case .logged(let entry):
      state.log.append(entry)
      return .none
    }
  }

  private func timer() -> Effect<Action> {
    .run { [clock] send in
      for await _ in clock.timer(interval: .seconds(1)) {
        await send(.logged("tick"))
      }
    }
    .cancellable(id: CancelID.timer, cancelInFlight: true)
  }
}

// The cases reached by key path (see `Scope`).
extension Effects.Action {
  fileprivate var logged: String? {
    get { if case .logged(let value) = self { value } else { nil } }
    set { if let newValue { self = .logged(newValue) } }
  }
}

@MainActor
struct EffectTests {
  @Test func cancelInFlightEffectStartedTwiceRunsOnce() async {
    let clock = TestClock()
    let store = TestStore(initialState: Effects.State()) {
      Effects()
    } withDependencies: {
      $0.continuousClock = clock
    }
    await store.send(.startTwice)
    await clock.tick()
    await store.receive(\.logged, "tick") { $0.log = ["tick"] }
    // Sending it again also replaces the running timer instead of adding a second one.
    await store.send(.startOnce)
    await clock.tick()
    await store.receive(\.logged, "tick") { $0.log = ["tick", "tick"] }
    await store.send(.cancelTimer)
    await clock.advance(by: .seconds(10))
  }

  @Test func cancelStopsARunningTimer() async {
    let clock = TestClock()
    let store = TestStore(initialState: Effects.State()) {
      Effects()
    } withDependencies: {
      $0.continuousClock = clock
    }
    let task = await store.send(.startOnce)
    #expect(task.isRunning)
    await store.send(.cancelTimer)
    #expect(!task.isRunning)
    await clock.advance(by: .seconds(5))
    await store.finish()
  }

  @Test func mergeRunsAllAndSendIsReceived() async {
    let store = TestStore(initialState: Effects.State()) { Effects() }
    await store.send(.merged)
    await store.receive(\.logged, "a") { $0.log = ["a"] }
    await store.receive(\.logged, "b") { $0.log = ["a", "b"] }
    await store.send(.sendNow)
    await store.receive(\.logged, "now") { $0.log = ["a", "b", "now"] }
    await store.finish()
  }

  @Test func errorsGoToTheCatchHandler() async {
    let store = TestStore(initialState: Effects.State()) { Effects() }
    await store.send(.failing)
    await store.receive(\.logged, "caught") { $0.log = ["caught"] }
    await store.finish()
  }

  @Test func unhandledErrorsAreReported() async {
    let store = TestStore(initialState: Effects.State()) { Effects() }
    await withKnownIssue {
      await store.send(.failingUnhandled)
      await store.finish()
    } matching: { issue in
      issue.message.contains("threw an unhandled error")
    }
  }

  @Test func effectsRunWithTheDependenciesTheyWereCreatedWith() async {
    let store = TestStore(initialState: Effects.State()) {
      Effects()
    } withDependencies: {
      $0.uuid = .incrementing
    }
    await store.send(.readDependency)
    await store.receive(\.logged) { $0.log = ["00000000-0000-0000-0000-000000000000"] }
    await store.finish()
  }

  @Test func effectCancelledWithItsSendTaskStops() async {
    let clock = TestClock()
    let store = TestStore(initialState: Effects.State()) {
      Effects()
    } withDependencies: {
      $0.continuousClock = clock
    }
    let task = await store.send(.startOnce)
    await task.cancel()
    await clock.advance(by: .seconds(3))
    await task.finish()
  }
}
