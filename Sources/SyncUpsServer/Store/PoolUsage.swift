import Foundation
import PostgresNIO

/// How the server's work uses PostgreSQL connections, as seen from this side of the pool (the
/// pool itself says nothing): each borrowing through `withOpenConnection` waits, then holds a
/// connection. One count for the process, which runs one server and so one pool.
public final class PoolUsage: @unchecked Sendable {
  public static let shared = PoolUsage()

  private let lock = NSLock()
  private var waiting = 0
  private var inUse = 0

  public struct Reading: Sendable {
    public var waiting: Int
    public var inUse: Int
    public var maximum: Int
  }

  public var reading: Reading {
    lock.withLock {
      Reading(
        waiting: waiting, inUse: inUse,
        maximum: PostgresClient.Configuration.Options().maximumConnections)
    }
  }

  /// A borrowing begins: it waits until `lent()`, and holds its connection until `end()`.
  func request() -> Lease {
    lock.withLock { waiting += 1 }
    return Lease(usage: self)
  }

  /// One borrowing: waiting, then holding a connection, then over.
  final class Lease: @unchecked Sendable {
    private let usage: PoolUsage
    private var state = 0  // 0 waiting, 1 holding, 2 over

    fileprivate init(usage: PoolUsage) { self.usage = usage }

    func lent() {
      usage.lock.withLock {
        guard state == 0 else { return }
        state = 1
        usage.waiting -= 1
        usage.inUse += 1
      }
    }

    func end() {
      usage.lock.withLock {
        if state == 0 { usage.waiting -= 1 } else if state == 1 { usage.inUse -= 1 }
        state = 2
      }
    }
  }
}
