import Synchronization

/// At most `count` holders at a time; the others wait in the order they came, without holding
/// a thread.
public final class Turns: Sendable {
  private let state: Mutex<(free: Int, waiting: [CheckedContinuation<Void, Never>])>

  public init(_ count: Int) {
    state = Mutex((count, []))
  }

  /// Waits for a turn; give it back with `end()`.
  public func begin() async {
    await withCheckedContinuation { continuation in
      let now = state.withLock { state in
        guard state.free > 0 else {
          state.waiting.append(continuation)
          return false
        }
        state.free -= 1
        return true
      }
      if now { continuation.resume() }
    }
  }

  /// Gives a turn back: to the first who waits, if anyone does.
  public func end() {
    let next = state.withLock { state in
      guard !state.waiting.isEmpty else {
        state.free += 1
        return nil as CheckedContinuation<Void, Never>?
      }
      return state.waiting.removeFirst()
    }
    next?.resume()
  }

  /// How many wait for a turn now.
  public var waiting: Int { state.withLock { $0.waiting.count } }
}
