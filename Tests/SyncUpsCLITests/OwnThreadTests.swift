import TestThreads
import Testing

/// The suites that run `syncups` and wait for it block their thread: `.ownThread` keeps them
/// off the cooperative pool (see `OwnThread`).
@Suite(.ownThread)
struct OwnThreadTests {
  @Test func aBlockingTestRunsOnAThreadOfItsOwn() {
    #expect(isOnOwnTestThread, "\(currentThreadName())")
  }

  @Test func anAsyncTestComesBackToItsThreadAfterAwaiting() async throws {
    try await Task.sleep(for: .milliseconds(10))
    #expect(isOnOwnTestThread, "\(currentThreadName())")
  }
}
