import CustomDump
import Dependencies
import IssueReporting

// Receiving: waiting for the actions effects send back and asserting them in order.
extension TestStore {
  /// Asserts that an effect sent an action in the case `actionCase` reaches next, e.g.
  /// `receive(\.delegate?.saved)` (see `Scope` for how a case is reached), and how it changed
  /// state.
  public func receive<Value>(
    _ actionCase: KeyPath<Action, Value?>,
    timeout: Duration? = nil,
    assert update: ((_ state: inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    await receive(
      matching: { $0[keyPath: actionCase] != nil },
      expected: describeExpected(actionCase, () as? Value, fileID: fileID, line: line),
      timeout: timeout, update: update,
      at: SourceLocation(fileID, filePath, line, column, action: "receive")
    )
  }

  /// Asserts that an effect sent exactly `expectedAction` next.
  public func receive(
    _ expectedAction: Action,
    timeout: Duration? = nil,
    assert update: ((_ state: inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async where Action: Equatable {
    await receive(
      matching: { $0 == expectedAction },
      expected: dump(expectedAction),
      timeout: timeout, update: update,
      at: SourceLocation(fileID, filePath, line, column, action: "receive")
    )
  }

  /// Asserts that an effect sent an action in the case `actionCase` reaches, carrying `value`,
  /// next.
  public func receive<Value: Equatable>(
    _ actionCase: KeyPath<Action, Value?>,
    _ value: Value,
    timeout: Duration? = nil,
    assert update: ((_ state: inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    await receive(
      matching: { $0[keyPath: actionCase] == value },
      expected: describeExpected(actionCase, value, fileID: fileID, line: line),
      timeout: timeout, update: update,
      at: SourceLocation(fileID, filePath, line, column, action: "receive")
    )
  }

  /// The action `receive` expects, for its failure messages. A single case (a writable key path)
  /// whose value is known is written out as the action: its setter turns any action into that
  /// case, and the last action this store handled is at hand.
  func describeExpected<Value>(
    _ actionCase: KeyPath<Action, Value?>, _ value: Value?, fileID: StaticString, line: UInt
  ) -> String {
    if let value, var action = lastAction,
      let writable = actionCase as? WritableKeyPath<Action, Value?>
    {
      action[keyPath: writable] = value
      return dump(action)
    }
    let matching = "an action matching the key path at \(fileID):\(line)"
    return value.map { "\(matching) carrying \(dump($0))" } ?? matching
  }

  func receive(
    matching matches: (Action) -> Bool,
    expected: String,
    timeout: Duration?,
    update: ((inout State) throws -> Void)?,
    at location: SourceLocation
  ) async {
    let deadline = ContinuousClock.now + (timeout ?? self.timeout)
    while true {
      guard await waitForReceivedAction(until: deadline) else {
        fail(
          """
          Expected to receive \(expected.firstLine), but received none after \(timeout ?? self.timeout). \
          \(effects.inFlight.isEmpty ? "No effect is running." : "\(effects.inFlight.count) effect(s) still running.")

          \(diffDescription(expected: expected, actual: "(nothing)"))
          """,
          at: location
        )
        return
      }
      let (action, state) = received.removeFirst()
      if matches(action) {
        expect(update, actual: state, idGenerator: nil, at: location)
        break
      }
      if exhaustivity == .off {
        assertedState = state
        continue
      }
      fail(
        """
        Received unexpected action: …

        \(diffDescription(expected: expected, actual: dump(action)))
        """,
        at: location
      )
      assertedState = state
      break
    }
    await Task.megaYield()
  }
}
