import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import PostgresNIO
import SyncUpsWire
import Testing

@testable import SyncUpsServer

/// The breaks of the server's second round (issue 43), each as it was found: a request that
/// trapped the process, a clock no read takes, a correction the push rules refuse, a stale
/// tag after a per-segment merge, and a proxy's odd `X-Forwarded-For`.
@Suite(.enabled(if: TestPostgres.available, "needs PostgreSQL (.ci/postgres)"))
struct RoundTwoTests {
  /// Break 1: a paging cursor at Int64's edges trapped the process (PostgresNIO's date
  /// overflowed); now it is refused in words, on the API and on the page, and the server goes on.
  @Test func aPagingCursorAtInt64sEdgesIsRefusedInWords() async throws {
    let server = try await TestServer.make()
    try await server.test { http, _ in
      let syncUp = Fixture.syncUp()
      let meeting = Fixture.meeting(in: syncUp.id, said: [("Ana", "hello there")])
      let pushed = try await http.push(
        Push(device: UUID(), pushID: UUID(), syncUps: [syncUp], meetings: [meeting]),
        token: server.writerToken)
      #expect(pushed.status == .ok)
      let id = "00000000-0000-0000-0000-000000000000"
      for micros in [
        "-9223372036854775808", "9223372036854775807", "-62135596801000000",
        "253402300800000000", "99999999999999999999",
      ] {
        for path in ["/api/v1/sync-ups/\(syncUp.id)/meetings", "/sync-ups/\(syncUp.id)"] {
          let page = try await http.send(
            .get, "\(path)?before=\(micros).\(id)", token: server.readerToken)
          #expect(page.status == .badRequest, "\(path) \(micros)")
          let words = path.hasPrefix("/api/") ? "?before= takes" : "page link is not right"
          #expect(page.text.contains(words), "\(path) \(micros): \(page.text)")
        }
      }
      for since in ["-9999-01-01", "99999-01-01", "+275760-09-13T00:00:00Z"] {
        let search = try await http.send(
          .get, "/api/v1/search?q=hello&since=\(since)", token: server.readerToken)
        #expect(search.status == .badRequest, "\(since)")
      }
      let fine = try await http.send(
        .get, "/api/v1/sync-ups/\(syncUp.id)/meetings", token: server.readerToken)
      #expect(fine.status == .ok)
    }
  }
}
