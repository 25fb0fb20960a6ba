import Foundation

/// Records the value each shared reference had before its first unasserted change, so a
/// TestStore can compare "expected" with "actual" although `Shared` is a reference.
///
/// While a tracker is current (`track`), every mutation through any `Shared` stores, in the
/// reference's root, a snapshot of the root value as it was before its first change since the
/// last `reset`, and registers the root here. A registered root keeps recording changes made
/// outside `track` too (a detached task, another thread), until the tracker is gone.
public final class SharedChangeTracker: @unchecked Sendable {
  @TaskLocal static var current: SharedChangeTracker?
  @TaskLocal static var assertingTracker: SharedChangeTracker?

  private let lock = NSLock()
  private var roots: [ObjectIdentifier: SharedRootBase] = [:]
  private var order: [ObjectIdentifier] = []

  public init() {}

  func register(_ root: SharedRootBase) {
    lock.withLock {
      let id = ObjectIdentifier(root)
      if roots.updateValue(root, forKey: id) == nil { order.append(id) }
    }
  }

  private var registeredRoots: [SharedRootBase] {
    lock.withLock { order.compactMap { roots[$0] } }
  }

  /// Runs `operation` with this tracker current (a task-local, so tasks created inside inherit it).
  public func track<R>(_ operation: () throws -> R) rethrows -> R {
    try Self.$current.withValue(self, operation: operation)
  }

  public func track<R>(
    isolation: isolated (any Actor)? = #isolation,
    _ operation: () async throws -> R
  ) async rethrows -> R {
    try await Self.$current.withValue(self, operation: operation, isolation: isolation)
  }

  /// Assertion mode: inside `operation`, reading a `Shared` whose root has a snapshot returns the
  /// snapshot (the "expected" value) and `withLock` writes into the snapshot (creating it from
  /// the current value if absent): never into the real value, never persisted.
  public func assert<R>(_ operation: () throws -> R) rethrows -> R {
    try Self.$assertingTracker.withValue(self, operation: operation)
  }

  /// True when some registered root has a snapshot that differs from its current value.
  public var hasChanges: Bool {
    registeredRoots.contains { $0.snapshotDiffersFromValue }
  }

  /// One message per registered root whose snapshot differs from its current value, naming the
  /// reference and showing a diff (− before, + after).
  public func changeDescriptions() -> [String] {
    registeredRoots.compactMap { $0.changeDescription() }
  }

  /// Accepts the current values: drops every registered root's snapshot.
  public func reset() {
    for root in registeredRoots { root.dropSnapshot() }
  }
}
