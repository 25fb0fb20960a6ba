import Foundation
import SyncUpsWire
import Testing

@testable import SyncUpsServer

/// Search ranks the newest meetings' matches first, so its cost does not grow with history, and
/// looks further back when they cannot fill the page.
@Suite(.enabled(if: TestPostgres.available, "skipped: no PostgreSQL for the server's tests"))
struct SearchWindowTests {
  @Test func theNewestMeetingsFillThePageAndOlderOnesAreFoundWhenTheyCannot() async throws {
    let server = try await TestServer.make()
    let window = TeamStore.searchWindow
    try await server.test { http, store in
      let syncUp = Fixture.syncUp()
      let day = 86_400.0
      let first = Date(timeIntervalSince1970: 1_764_144_000)
      // The oldest meeting holds the best match for "build" and the only "kubernetes".
      var meetings = [
        Fixture.meeting(
          in: syncUp.id, said: [("Ana", "build build build"), ("Ben", "kubernetes is fine")],
          date: first)
      ]
      for index in 1...(window + 10) {
        meetings.append(
          Fixture.meeting(
            in: syncUp.id, said: [("Ana", "the build is green")],
            date: first + Double(index) * day))
      }
      let pushed = try await http.push(
        Push(device: UUID(), pushID: UUID(), syncUps: [syncUp], meetings: meetings),
        token: server.writerToken)
      #expect(pushed.status == .ok, "\(pushed.text)")
      let newestFirst = meetings.sorted { $0.date > $1.date }.map(\.id)

      // Twenty matches among the newest meetings fill a page of twenty: newest first.
      let page = try await store.search(
        TeamSearchQuery(text: "build", limit: 20))
      #expect(page.map(\.meeting) == newestFirst.prefix(20).map { $0.uuidString.lowercased() })

      // A page larger than the newest meetings' matches ranks every match: the best is first.
      let all = try await store.search(TeamSearchQuery(text: "build", limit: 100))
      #expect(all.count == window + 11)
      #expect(all.first?.text == "build build build")

      // A word only an old meeting holds is found.
      let old = try await store.search(TeamSearchQuery(text: "kubernetes"))
      #expect(old.map(\.text) == ["kubernetes is fine"])
    }
  }
}
