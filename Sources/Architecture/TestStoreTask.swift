import CustomDump
import IssueReporting

/// The effects started by one `TestStore.send`.
@MainActor
public struct TestStoreTask {
  let keys: [Int]
  weak var store: AnyObject?
  private let isInFlight: (Int) -> Bool
  private let cancelKey: (Int) -> Void

  init<State, Action>(keys: [Int], store: TestStore<State, Action>) {
    self.keys = keys
    self.store = store
    self.isInFlight = { [weak store] in store?.isInFlight($0) ?? false }
    self.cancelKey = { [weak store] in store?.cancel(key: $0) }
  }

  /// Cancels these effects.
  public func cancel() async {
    keys.forEach(cancelKey)
    await Task.megaYield()
  }

  /// Waits for these effects to finish; fails if they are still running after `timeout`.
  public func finish(
    timeout: Duration = .seconds(1),
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    let deadline = ContinuousClock.now + timeout
    while isRunning, ContinuousClock.now < deadline {
      await Task.megaYield()
      try? await Task.sleep(for: .milliseconds(1))
    }
    if isRunning {
      reportIssue(
        "Expected effects to finish, but they are still running after \(timeout).",
        fileID: fileID, filePath: filePath, line: line, column: column
      )
    }
  }

  /// Whether any of these effects is still running.
  public var isRunning: Bool { keys.contains(where: isInFlight) }
}

extension Task where Success == Never, Failure == Never {
  /// Gives effects a chance to start and reach their first suspension point.
  static func megaYield(count: Int = 20) async {
    for _ in 0..<count {
      await Task<Void, Never>.detached(priority: .background) { await Task.yield() }.value
    }
  }
}
