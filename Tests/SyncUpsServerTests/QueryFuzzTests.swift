import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import PostgresNIO
import SyncUpsWire
import Testing

@testable import SyncUpsServer

/// Every route's query string with values at the edges of what numbers, dates and cursors
/// hold, over stored values at their edges too: no answer is a 5xx, and the process stays up.
@Suite(.enabled(if: TestPostgres.available, "needs PostgreSQL (.ci/postgres)"))
struct QueryFuzzTests {
  static let values = [
    "", "-1", "0", "1", "nan", "inf", "-inf", "1e308", "-1e308", "4.9e-324",
    "-9223372036854775808", "9223372036854775807", "99999999999999999999",
    "-9223372036854775808.00000000-0000-0000-0000-000000000000",
    "9223372036854775807.ffffffff-ffff-ffff-ffff-ffffffffffff", "0.x", ".", "..",
    "0000-01-01", "9999-12-31T23:59:59Z", "-0001-01-01", "294277-01-01T00:00:00Z",
    "%00", "%FF%FE", "%E2%80%AE", "a%22b", String(repeating: "9", count: 5000),
  ]
  static let parameters = ["before", "limit", "since", "q", "syncUp", "speaker", "t", "wait"]

  @Test func everyRouteAnswersEveryQueryWithoutA5xx() async throws {
    let server = try await TestServer.make(limits: Limits(longestWait: .milliseconds(10)))
    try await server.test { http, store in
      let syncUp = Fixture.syncUp()
      let meeting = Fixture.meeting(in: syncUp.id, said: [("Ana", "hello there")])
      let pushed = try await http.push(
        Push(device: UUID(), pushID: UUID(), syncUps: [syncUp], meetings: [meeting]),
        token: server.writerToken)
      #expect(pushed.status == .ok)
      // Stored values at their edges: PostgreSQL's last instant, a counter at its largest.
      let clock = HybridClock(
        milliseconds: HybridClock.largestMilliseconds - 1, counter: HybridClock.largestCounter,
        device: "zz")
      try await store.client.query(
        "UPDATE meeting SET date = '294276-12-31 23:59:59+00', clock = \(clock.description)")
      let routes = [
        "/api/v1/sync-ups", "/api/v1/sync-ups/\(syncUp.id)/meetings",
        "/api/v1/meetings/\(meeting.id)", "/api/v1/search", "/api/v1/sync/changes",
        "/api/v1/me", "/", "/sync-ups/\(syncUp.id)", "/meetings/\(meeting.id)",
        "/meetings/\(meeting.id)/transcript.srt", "/search", "/audio/\(meeting.id)", "/healthz",
      ]
      var answered = 0
      var failures: [String] = []
      for route in routes {
        for name in Self.parameters {
          for value in Self.values {
            let path = "\(route)?\(name)=\(value)" + (name == "q" ? "" : "&q=hello")
            let answer = try await http.send(.get, path, token: server.readerToken)
            answered += 1
            if answer.status.code >= 500 {
              failures.append("\(answer.status.code) \(path.prefix(120))")
            }
          }
        }
      }
      print("query fuzz: \(answered) requests, \(failures.count) answered 5xx")
      #expect(failures.isEmpty, "\(failures.prefix(20))")
    }
  }
}
