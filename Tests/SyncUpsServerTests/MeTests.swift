import Foundation
import HummingbirdTesting
import SyncUpsServer
import SyncUpsWire
import Testing

@Suite(
  .enabled(
    if: TestPostgres.available,
    "skipped: no PostgreSQL for the server's tests (.ci/postgres could not start one)"))
struct MeTests {
  /// `GET /api/v1/me` names the token's person and role; without a good token it is a 401.
  @Test func meNamesTheTokensPerson() async throws {
    let server = try await TestServer.make()
    try await server.test { http, store in
      let writer = try await http.send(.get, "/api/v1/me", token: server.writerToken)
      #expect(writer.status == .ok)
      #expect(
        try writer.decode(Me.self)
          == Me(name: "Ana", role: "writer", teams: [.init(name: "team", role: "writer")]))
      let reader = try await http.send(.get, "/api/v1/me", token: server.readerToken)
      #expect(try reader.decode(Me.self).name == "Ben")
      #expect(try reader.decode(Me.self).role == "reader")
      // The person's id stays on the server.
      #expect(!reader.text.contains("\"id\""))
      let missing = try await http.send(.get, "/api/v1/me", token: nil)
      #expect(missing.status == .unauthorized)
      #expect(missing.errorMessage != nil)
      let (id, token) = try await store.createToken(for: "Ben")
      try await store.revokeToken(id: id)
      #expect(try await http.send(.get, "/api/v1/me", token: token).status == .unauthorized)
    }
  }
}
