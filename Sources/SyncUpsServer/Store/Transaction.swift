import Logging
import PostgresNIO

/// PostgresNIO 1.33 writes a query to a connection whose socket has already closed without ever
/// failing it, so the caller waits forever. That happens when PostgreSQL stops or restarts: the
/// pool can lend a connection in the instant between its socket closing and the pool hearing of
/// it (found by `RestartTests`). Every query here goes through `run`, which refuses a closed
/// connection before writing anything, so nothing was sent and trying again is always safe.
struct ConnectionClosed: Error {}

extension PostgresConnection {
  /// `query`, refused at once on a connection that has closed.
  @discardableResult
  func run(_ query: PostgresQuery, logger: Logger) async throws -> PostgresRowSequence {
    guard !isClosed else { throw ConnectionClosed() }
    return try await self.query(query, logger: logger)
  }
}

extension PostgresClient {
  /// `body` on a connection of the pool, lent again (up to three times) when the pool lent one
  /// that had just closed: a statement refused by `run` was never sent, and a transaction whose
  /// connection closed was never committed, so running `body` again saves nothing twice.
  func withOpenConnection<Result: Sendable>(
    _ body: (PostgresConnection) async throws -> Result
  ) async throws -> Result {
    var tries = 0
    while true {
      do {
        let lease = PoolUsage.shared.request()
        defer { lease.end() }
        return try await withLentConnection { connection in
          lease.lent()
          return try await body(connection)
        }
      } catch is ConnectionClosed where tries < 3 {
        tries += 1
      }
    }
  }

  /// `body` in one transaction on one connection: committed when it returns, rolled back when
  /// it throws (no ROLLBACK on a connection that has closed: PostgreSQL rolled it back).
  func inTransaction<Result: Sendable>(
    logger: Logger, _ body: (PostgresConnection) async throws -> Result
  ) async throws -> Result {
    try await withOpenConnection { connection in
      try await connection.run("BEGIN", logger: logger)
      let value: Result
      do {
        value = try await body(connection)
      } catch {
        _ = try? await connection.run("ROLLBACK", logger: logger)
        throw error
      }
      try await connection.run("COMMIT", logger: logger)
      return value
    }
  }
}

extension TeamStore {
  /// One statement on a connection of the pool; its rows, all read.
  @discardableResult
  func run(_ query: PostgresQuery, logger: Logger) async throws -> [PostgresRow] {
    try await client.withOpenConnection { connection in
      try await connection.run(query, logger: logger).collect()
    }
  }
}

extension [PostgresRow] {
  /// Every row's columns, decoded.
  func decode<each Column: PostgresDecodable>(
    _ columns: (repeat each Column).Type
  ) throws -> [(repeat each Column)] {
    try map { try $0.decode(columns) }
  }

  /// Every row's only column, decoded.
  func all<T: PostgresDecodable>(_ type: T.Type) throws -> [T] {
    try map { try $0.decode(T.self) }
  }
}
