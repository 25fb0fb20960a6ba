import Foundation

/// A flag one task sets and another polls (e.g. "stop playing into the microphone").
public final class Flag: @unchecked Sendable {
  private let lock = NSLock()
  private var value = false
  public init() {}
  public var isSet: Bool { lock.withLock { value } }
  public func set() { lock.withLock { value = true } }
}
