import Foundation
import PostgresNIO

/// PostgreSQL lent no connection within `PostgresClient.leaseWait` while none was in use: it
/// is gone (stopped, unreachable), and the request is answered 503 at once rather than wait for
/// the pool's own minute.
struct DatabaseUnavailable: Error {}

extension PostgresClient {
  /// How long a borrowing waits for a connection while no connection of the pool is in use.
  /// A busy pool (every connection working) is waited for, as before.
  static let leaseWait: Duration = .seconds(2)

  /// `body` on a connection of the pool, borrowed by a task of its own that gives it back when
  /// `body` ends; `DatabaseUnavailable` when none comes within `leaseWait` while none is in use
  /// (the borrowing is cancelled, so the pool forgets it).
  func withLentConnection<Result: Sendable>(
    _ body: (PostgresConnection) async throws -> Result
  ) async throws -> Result {
    let handoff = Handoff()
    return try await withThrowingTaskGroup(of: Void.self) { group in
      group.addTask {
        do {
          try await self.withConnection { connection in
            guard handoff.lend(connection) else { return }
            await handoff.givenBack()
          }
        } catch {
          handoff.fail(error)
        }
      }
      group.addTask {
        var waited = Duration.zero
        while true {
          try await Task.sleep(for: .milliseconds(100))
          waited += .milliseconds(100)
          if waited >= Self.leaseWait, PoolUsage.shared.reading.inUse == 0 {
            handoff.fail(DatabaseUnavailable())
            return
          }
        }
      }
      let connection: PostgresConnection
      do {
        connection = try await handoff.connection()
      } catch {
        group.cancelAll()
        throw error
      }
      defer { handoff.giveBack() }
      // Stops the timer; the borrowing task waits for `giveBack`, which cancelling does not end.
      group.cancelAll()
      return try await body(connection)
    }
  }
}

/// A connection passed from the task that borrowed it to the one that uses it, and the word
/// that it is done with.
private final class Handoff: @unchecked Sendable {
  private let lock = NSLock()
  private var result: Result<PostgresConnection, any Error>?
  private var waiter: CheckedContinuation<PostgresConnection, any Error>?
  private var done = false
  private var returner: CheckedContinuation<Void, Never>?

  /// Offers the borrowed connection; false when the user gave up already (give it back).
  func lend(_ connection: PostgresConnection) -> Bool {
    settle(.success(connection))
  }

  func fail(_ error: any Error) { _ = settle(.failure(error)) }

  private func settle(_ value: Result<PostgresConnection, any Error>) -> Bool {
    let waiter: CheckedContinuation<PostgresConnection, any Error>? = lock.withLock {
      guard result == nil else { return nil }
      result = value
      defer { self.waiter = nil }
      return self.waiter
    }
    waiter?.resume(with: value)
    return lock.withLock {
      if case .success(let lent) = result, case .success(let offered) = value {
        return lent === offered
      }
      return false
    }
  }

  /// The connection, or why there is none.
  func connection() async throws -> PostgresConnection {
    try await withCheckedThrowingContinuation { continuation in
      let ready: Result<PostgresConnection, any Error>? = lock.withLock {
        if let result { return result }
        waiter = continuation
        return nil
      }
      if let ready { continuation.resume(with: ready) }
    }
  }

  /// Returns once `giveBack` was called (not ended by cancelling).
  func givenBack() async {
    await withCheckedContinuation { continuation in
      let over = lock.withLock {
        if done { return true }
        returner = continuation
        return false
      }
      if over { continuation.resume() }
    }
  }

  func giveBack() {
    let returner: CheckedContinuation<Void, Never>? = lock.withLock {
      done = true
      defer { self.returner = nil }
      return self.returner
    }
    returner?.resume()
  }
}
