import TestSupport
import Testing

/// The few tests that block their thread (a decoder run in-process) carry `.ownThread`, which
/// keeps them off the cooperative pool (see `OwnThread`).
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
