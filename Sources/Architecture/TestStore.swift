import CustomDump
import Dependencies
import IssueReporting
import Sharing

/// A store for tests that asserts, by default exhaustively, how every action changes state,
/// which actions effects send back, and that all effects have finished by the end of the test.
///
/// Failures are reported through IssueReporting (so swift-testing records them) with a
/// custom-dump diff: expected lines start with −, actual lines with +.
@MainActor
public final class TestStore<State: Equatable, Action> {
  public enum Exhaustivity: Equatable, Sendable {
    /// Every state change, received action and running effect must be asserted.
    case on
    /// Only what a test asserts is checked; the rest is skipped.
    case off
  }

  public var exhaustivity: Exhaustivity = .on
  /// How long `receive` and `finish` wait for effects at most. Tests wait for events, so this is
  /// only a safety net far above any normal run, even on a loaded machine; a test that expects an
  /// action never to come passes a short `timeout` of its own.
  public var timeout: Duration = .seconds(600)
  /// The dependencies reducers and effects run with; can be changed between sends.
  public var dependencies: DependencyValues
  /// True once the feature under test called `@Dependency(\.dismiss)`.
  public private(set) var isDismissed = false

  /// The current state, including changes made by received actions not yet asserted.
  public var state: State { currentState }

  var currentState: State
  var assertedState: State
  let reducer: any Reducer<State, Action>
  var effects: EffectRunner!
  var received: [(action: Action, state: State)] = []
  /// The last action sent or received.
  var lastAction: Action?
  var effectOrigins: [Int: SourceLocation] = [:]
  let tracker = SharedChangeTracker()
  let location: SourceLocation

  public init<R: Reducer<State, Action>>(
    initialState: @autoclosure () -> State,
    @ReducerBuilder<State, Action> reducer: () -> R,
    withDependencies prepareDependencies: (inout DependencyValues) -> Void = { _ in },
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    let (state, dependencies) = withDependencies {
      $0.stackElementID = StackElementIDGenerator()
      prepareDependencies(&$0)
    } operation: {
      (initialState(), DependencyValues._current)
    }
    self.dependencies = dependencies
    self.currentState = state
    self.assertedState = state
    self.reducer = reducer()
    self.location = SourceLocation(fileID, filePath, line, column, action: "TestStore.init")
    self.effects = EffectRunner { [weak self] in
      await MainActor.run { self?.isDismissed = true }
    }
  }

  // Not an `isolated deinit`: those run without task-local values, so swift-testing could not
  // attribute the end-of-test failures to the test. A TestStore is only released on the main
  // actor (its effects hold it weakly), where this runs synchronously.
  deinit {
    MainActor.assumeIsolated {
      checkCompleted(at: location)
      effects.cancelAll()
    }
  }

  // MARK: Sending and receiving

  /// Sends an action and asserts how it changes state: `update` mutates the previous state into
  /// the expected one. Omit `update` when the state must not change.
  @discardableResult
  public func send(
    _ action: Action,
    assert update: ((_ state: inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async -> TestStoreTask {
    let location = SourceLocation(fileID, filePath, line, column, action: describe(action))
    if !received.isEmpty {
      if exhaustivity == .on {
        fail(
          """
          Must handle \(received.count) received action(s) before sending an action: …

          Unhandled actions: \(dump(received.map(\.action)))
          """,
          at: location
        )
      }
      assertedState = received.last!.state
      received.removeAll()
    }
    let idGenerator = dependencies.stackElementID.copy()
    let (keys, actual) = process(action, isReceived: false, origin: location)
    expect(update, actual: actual, idGenerator: idGenerator, at: location)
    await Task.megaYield()
    return TestStoreTask(keys: keys, store: self)
  }

  /// Asserts the current state without sending an action, e.g. after an effect changed shared
  /// state.
  public func assert(
    _ update: (_ state: inout State) throws -> Void,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    withoutActuallyEscaping(update) { update in
      expect(
        update, actual: currentState, idGenerator: nil,
        at: SourceLocation(fileID, filePath, line, column, action: "assert")
      )
    }
  }

  // MARK: Finishing

  /// Waits for every in-flight effect to finish; fails for those still running after `timeout`.
  /// (Received actions and shared-state changes left unasserted fail at the end of the test, so
  /// they can still be asserted after `finish`.)
  public func finish(
    timeout: Duration? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    let location = SourceLocation(fileID, filePath, line, column, action: "finish")
    let deadline = ContinuousClock.now + (timeout ?? self.timeout)
    await waitUntil(deadline) { effects.inFlight.isEmpty }
    guard exhaustivity == .on else { return effects.cancelAll() }
    for key in effects.inFlight.keys.sorted() {
      reportStillRunning(key, at: effectOrigins[key] ?? location)
    }
  }

  /// Drops the received actions not asserted yet (and accepts the state they produced).
  /// When strict and none has arrived yet while effects run (a busy machine), it waits for one,
  /// up to `timeout`, or for the effects to end.
  public func skipReceivedActions(strict: Bool = true) async {
    if strict {
      await waitUntil(ContinuousClock.now + timeout) {
        !received.isEmpty || effects.inFlight.isEmpty
      }
    } else {
      await Task.megaYield()
    }
    if received.isEmpty {
      if strict { reportIssue("There were no received actions to skip.") }
      return
    }
    received.removeAll()
    assertedState = currentState
    tracker.reset()
  }

  /// Cancels every effect still running, so the test can end without waiting for them.
  public func skipInFlightEffects(strict: Bool = true) async {
    await Task.megaYield()
    if effects.inFlight.isEmpty, strict {
      reportIssue("There were no in-flight effects to skip.")
    }
    effects.cancelAll()
  }

  // MARK: Internals

  struct SourceLocation {
    let fileID: StaticString
    let filePath: StaticString
    let line: UInt
    let column: UInt
    let action: String

    init(
      _ fileID: StaticString, _ filePath: StaticString, _ line: UInt, _ column: UInt,
      action: String
    ) {
      self.fileID = fileID
      self.filePath = filePath
      self.line = line
      self.column = column
      self.action = action
    }
  }

  /// Runs the reducer for `action` (tracking shared state), then starts its effects. Actions sent
  /// back by effects are recorded, with the state they produced, for `receive`. Returns the
  /// started effects and the state right after this action's reducer.
  @discardableResult
  func process(
    _ action: Action, isReceived: Bool, origin: SourceLocation
  ) -> (keys: [Int], state: State) {
    lastAction = action
    return tracker.track {
      let effect = withDependencies {
        $0 = dependencies
      } operation: {
        reducer.reduce(into: &currentState, action: action)
      }
      let state = currentState
      if isReceived { received.append((action, state)) }
      let send = Send<Action> { [weak self] in self?.process($0, isReceived: true, origin: origin) }
      let keys = effects.start(effect, send: send) { process($0, isReceived: true, origin: origin) }
      for key in keys { effectOrigins[key] = origin }
      return (keys, state)
    }
  }

  /// Compares the expected state (the last asserted state changed by `update`) with `actual`.
  func expect(
    _ update: ((inout State) throws -> Void)?,
    actual: State,
    idGenerator: StackElementIDGenerator?,
    at location: SourceLocation
  ) {
    defer {
      assertedState = actual
      tracker.reset()
    }
    var expected = assertedState
    if exhaustivity == .off {
      tracker.reset()
      expected = actual
    }
    do {
      try tracker.assert {
        try withDependencies {
          $0 = dependencies
          if let idGenerator { $0.stackElementID = idGenerator }
        } operation: {
          try update?(&expected)
        }
      }
    } catch {
      fail("Threw error while asserting state: \(error)", at: location)
      return
    }
    guard expected != actual else { return }
    let message =
      update == nil
      ? "State was not expected to change, but a change occurred: …"
      : "A state change does not match expectation: …"
    fail(
      """
      \(message)

      \((diff(expected, actual, format: .proportional) ?? "(no visible difference)").indented)

      (Expected: −, Actual: +)
      """,
      at: location
    )
  }

  func checkCompleted(at location: SourceLocation) {
    guard exhaustivity == .on else { return }
    if !received.isEmpty {
      fail(
        """
        The store received \(received.count) unexpected action(s) by the end of this test: …

        Unhandled actions: \(dump(received.map(\.action)))
        """,
        at: location
      )
      received.removeAll()
    }
    for key in effects.inFlight.keys.sorted() {
      reportStillRunning(key, at: effectOrigins[key] ?? location)
    }
    if tracker.hasChanges {
      for description in tracker.changeDescriptions() {
        fail(
          """
          \(description)

          Assert it with "store.assert { … }" after the effect that changed it.
          """,
          at: location
        )
      }
      tracker.reset()
    }
  }

  /// Fails for an effect that is still running, at the action that started it, and cancels it.
  func reportStillRunning(_ key: Int, at origin: SourceLocation) {
    fail(
      """
      An effect returned for this action is still running. It must complete before the end of \
      the test: …

      Action: \(origin.action)

      Cancel it (e.g. with a cancel action or by dismissing its feature), await it with \
      "store.finish()", or skip it with "store.skipInFlightEffects()".
      """,
      at: origin
    )
    effects.cancel(key: key)
  }

  func waitForReceivedAction(until deadline: ContinuousClock.Instant) async -> Bool {
    await waitUntil(deadline) { !received.isEmpty }
    return !received.isEmpty
  }

  /// Polls `condition`, letting effects run, until it holds or `deadline` passes.
  func waitUntil(_ deadline: ContinuousClock.Instant, _ condition: () -> Bool) async {
    await Task.megaYield()
    while !condition(), ContinuousClock.now < deadline {
      try? await Task.sleep(for: .milliseconds(1))
      await Task.megaYield(count: 5)
    }
  }

  func fail(_ message: String, at location: SourceLocation) {
    reportIssue(
      message,
      fileID: location.fileID, filePath: location.filePath,
      line: location.line, column: location.column
    )
  }

  func isInFlight(_ key: Int) -> Bool { effects.inFlight[key] != nil }
  func cancel(key: Int) { effects.cancel(key: key) }
}
