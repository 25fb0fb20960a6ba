import Foundation
import PostgresNIO

/// PostgreSQL cannot be reached (stopped, unreachable): the request is answered 503 at once
/// rather than wait for the pool's own minute. `reason`: why the connection failed, in words
/// (`DatabaseProblem`), when one was tried.
struct DatabaseUnavailable: Error {
  var reason: String? = nil
}

extension PostgresClient {
  /// How long a borrowing waits for the pool before it looks around it
  /// (`DirectConnections.stepIn`): PostgreSQL gone is then a 503, and PostgreSQL back (while the
  /// pool still waits out its reconnect backoff) serves the request at once.
  static let leaseWait: Duration = .seconds(2)

  /// `body` on a connection of the pool, borrowed by a task of its own that gives it back when
  /// `body` ends; when the pool lends none within `leaseWait` (or refuses at once, its circuit
  /// breaker open), on a connection of its own, or `DatabaseUnavailable` when PostgreSQL cannot
  /// be reached (the borrowing is cancelled, so the pool forgets it).
  func withLentConnection<Result: Sendable>(
    _ body: (PostgresConnection) async throws -> Result
  ) async throws -> Result {
    let handoff = Handoff()
    return try await withThrowingTaskGroup(of: Void.self) { group in
      group.addTask {
        do {
          try await self.withConnection { connection in
            DirectConnections.shared.poolLent(self)
            guard handoff.lend(.pool(connection)) else { return }
            await handoff.givenBack()
          }
        } catch {
          await DirectConnections.shared.stepIn(for: self, handoff)
        }
      }
      group.addTask {
        try await Task.sleep(for: DirectConnections.shared.patience(for: self))
        await DirectConnections.shared.stepIn(for: self, handoff)
      }
      let connection: PostgresConnection
      do {
        connection = try await handoff.connection()
      } catch {
        group.cancelAll()
        throw error
      }
      defer { handoff.giveBack() }
      // Stops the other task; the borrowing task waits for `giveBack`, which cancelling does
      // not end.
      group.cancelAll()
      return try await body(connection)
    }
  }
}

/// A connection passed from the task that got it (from the pool, or opened around it) to the
/// one that uses it, and the word that it is done with.
final class Handoff: @unchecked Sendable {
  /// Where a connection came from: the pool takes its own back; one opened around it is closed.
  enum Lent {
    case pool(PostgresConnection)
    case direct(PostgresConnection)

    var connection: PostgresConnection {
      switch self {
      case .pool(let connection), .direct(let connection): connection
      }
    }
  }

  private let lock = NSLock()
  private var result: Result<Lent, any Error>?
  private var waiter: CheckedContinuation<PostgresConnection, any Error>?
  private var done = false
  private var returner: CheckedContinuation<Void, Never>?

  /// Whether a connection (or why there is none) was given already.
  var isSettled: Bool { lock.withLock { result != nil } }

  /// Offers a connection; false when another was given first or the user gave up (then it is
  /// the offerer's to give back).
  func lend(_ lent: Lent) -> Bool {
    settle(.success(lent))
  }

  func fail(_ error: any Error) { _ = settle(.failure(error)) }

  private func settle(_ value: Result<Lent, any Error>) -> Bool {
    let waiter: CheckedContinuation<PostgresConnection, any Error>?? = lock.withLock {
      guard result == nil else { return .none }
      result = value
      defer { self.waiter = nil }
      return .some(self.waiter)
    }
    guard let waiter else { return false }
    waiter?.resume(with: value.map(\.connection))
    return true
  }

  /// The connection, or why there is none.
  func connection() async throws -> PostgresConnection {
    try await withCheckedThrowingContinuation { continuation in
      let ready: Result<Lent, any Error>? = lock.withLock {
        if let result { return result }
        waiter = continuation
        return nil
      }
      if let ready { continuation.resume(with: ready.map(\.connection)) }
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

  /// The user is done: the pool's connection goes back, one opened around it is closed.
  func giveBack() {
    let (returner, lent): (CheckedContinuation<Void, Never>?, Result<Lent, any Error>?) =
      lock.withLock {
        done = true
        defer { self.returner = nil }
        return (self.returner, result)
      }
    returner?.resume()
    if case .success(.direct(let connection)) = lent {
      DirectConnections.shared.close(connection)
    }
  }
}
