import Foundation

/// How long any wait in the tests gives up after: a safety net far above a normal run, even on
/// a loaded machine. Tests wait for the event; this only keeps a broken one from hanging forever.
public let safetyNet: Duration = .seconds(600)

/// Waits until `condition` holds (looked at every `interval`, without holding a thread in
/// between); false when it still does not after `timeout`, the safety net.
public func waitUntil(
  isolation: isolated (any Actor)? = #isolation,
  timeout: Duration = safetyNet, every interval: Duration = .milliseconds(10),
  _ condition: () async throws -> Bool
) async rethrows -> Bool {
  let deadline = ContinuousClock.now + timeout
  while ContinuousClock.now < deadline {
    if try await condition() { return true }
    try? await Task.sleep(for: interval)
  }
  return try await condition()
}

/// Something that happens once (a process exits, a pipe ends), with a value: whoever sees it
/// calls `happen`; any number of tasks `wait` for it without holding a thread.
public final class OneShot<Value: Sendable>: @unchecked Sendable {
  private let lock = NSLock()
  private var value: Value?
  private var waiting: [UUID: CheckedContinuation<Value?, Never>] = [:]
  private var expired: Set<UUID> = []

  public init() {}

  /// Its value once it happened; nil before.
  public var happened: Value? { lock.withLock { value } }

  /// It happened (the first value counts; later calls are ignored).
  public func happen(_ value: Value) {
    let waiters: [CheckedContinuation<Value?, Never>] = lock.withLock {
      guard self.value == nil else { return [] }
      self.value = value
      defer { waiting = [:] }
      return Array(waiting.values)
    }
    for waiter in waiters { waiter.resume(returning: value) }
  }

  /// Its value, as soon as it happens; nil when it has not after `timeout` (the safety net).
  public func wait(timeout: Duration = safetyNet) async -> Value? {
    let id = UUID()
    let timer = Task { [self] in
      guard (try? await Task.sleep(for: timeout)) != nil else { return }
      expire(id)
    }
    defer { timer.cancel() }
    return await withCheckedContinuation { continuation in
      let now: Value?? = lock.withLock {
        if let value { return .some(value) }
        if expired.remove(id) != nil { return .some(nil) }
        waiting[id] = continuation
        return .none
      }
      if let now { continuation.resume(returning: now) }
    }
  }

  private func expire(_ id: UUID) {
    let waiter = lock.withLock {
      let waiter = waiting.removeValue(forKey: id)
      if waiter == nil, value == nil { expired.insert(id) }
      return waiter
    }
    waiter?.resume(returning: nil)
  }
}
