// TEMPORARY stub with the agreed API, replaced by the Sharing module's real tracker at merge.
public final class SharedChangeTracker: @unchecked Sendable {
  public init() {}
  public func track<R>(_ operation: () throws -> R) rethrows -> R { try operation() }
  public func track<R>(
    isolation: isolated (any Actor)? = #isolation, _ operation: () async throws -> R
  ) async rethrows -> R { try await operation() }
  public func assert<R>(_ operation: () throws -> R) rethrows -> R { try operation() }
  public var hasChanges: Bool { false }
  public func changeDescriptions() -> [String] { [] }
  public func reset() {}
}
