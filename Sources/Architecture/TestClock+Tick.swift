import Clocks
import Foundation

extension TestClock where Duration == Swift.Duration {
  /// Advances the clock `count` times by `interval`, each time only once something sleeps on it.
  ///
  /// A plain `advance` right after `send` can pass a deadline unseen on a loaded machine: the
  /// effect that will sleep may not have reached its sleep yet. `tick` waits for that event (with
  /// `timeout` as a safety net only), so a test of a timer is deterministic under any load.
  public func tick(
    _ count: Int = 1, every interval: Swift.Duration = .seconds(1),
    timeout: Swift.Duration = .seconds(120)
  ) async {
    for _ in 0..<count {
      let deadline = ContinuousClock.now + timeout
      // `checkSuspension` throws when some task is suspended on this clock.
      while (try? await checkSuspension()) != nil, ContinuousClock.now < deadline {
        try? await Task.sleep(for: .milliseconds(1))
      }
      await advance(by: interval)
    }
  }
}
