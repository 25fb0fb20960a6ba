import Logging
import PostgresNIO

extension PostgresClient {
  /// `body` in one transaction on one connection: committed when it returns, rolled back when
  /// it throws. Unlike PostgresNIO's `withTransaction`, it sends no ROLLBACK on a connection that
  /// has closed (PostgreSQL stopped or crashed mid-transaction, which rolls it back anyway):
  /// PostgresNIO 1.33 writes a query to a closed connection without ever failing it, so that
  /// ROLLBACK never returned and the request hung (found by `RestartTests`).
  func inTransaction<Result: Sendable>(
    logger: Logger, _ body: (PostgresConnection) async throws -> Result
  ) async throws -> Result {
    try await withConnection { connection in
      try await connection.query("BEGIN", logger: logger)
      let value: Result
      do {
        value = try await body(connection)
      } catch {
        if !connection.isClosed { _ = try? await connection.query("ROLLBACK", logger: logger) }
        throw error
      }
      try await connection.query("COMMIT", logger: logger)
      return value
    }
  }
}
