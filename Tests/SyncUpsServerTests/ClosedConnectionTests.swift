import PostgresNIO
import Testing

@testable import SyncUpsServer

/// PostgresNIO never fails a query written to a connection whose socket has closed; the server's
/// queries refuse such a connection instead of waiting forever (see Transaction.swift).
@Suite(.enabled(if: TestPostgres.available, "skipped: no PostgreSQL for the server's tests"))
struct ClosedConnectionTests {
  @Test func aStatementOnAConnectionPostgreSQLClosedFailsAtOnce() async throws {
    let server = try await TestServer.make()
    try await server.store { store in
      try await store.client.withConnection { connection in
        let pid = try await connection.run("SELECT pg_backend_pid()", logger: store.logger)
          .collect().all(Int32.self)
        try #require(pid.count == 1)
        // Another connection of the pool ends this one's backend, as a restart would.
        try await store.run("SELECT pg_terminate_backend(\(pid[0]))", logger: store.logger)
        try? await connection.closeFuture.get()
        await #expect(throws: ConnectionClosed.self) {
          try await connection.run("SELECT 1", logger: store.logger)
        }
      }
      // The pool carries on with connections that are open.
      #expect(try await store.run("SELECT 1", logger: store.logger).all(Int32.self) == [1])
    }
  }
}
