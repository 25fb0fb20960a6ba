import Foundation
import HummingbirdTesting
import SyncUpsServer
import SyncUpsWire
import Testing

/// A page of `sync/changes` is bounded in bytes whatever `limit` asks for: a reader's first
/// pull of a large team once answered hundreds of megabytes at once.
@Suite(.enabled(if: TestPostgres.available, "skipped: no PostgreSQL for the server's tests"))
struct PullPageTests {
  /// A sync-up and six meetings of about 10 KB each.
  static func pushed() -> (SyncUpDocument, [MeetingDocument]) {
    let syncUp = Fixture.syncUp()
    let said = (0..<20).map { ("Ana", "part \($0) of a long stand-up about the staging server") }
    let meetings = (0..<6).map { Fixture.meeting(in: syncUp.id, said: said, at: Int64(2 + $0)) }
    return (syncUp, meetings)
  }

  /// Every page from `since=0` with `limit=1000`, as answered.
  static func pull(_ http: any TestClientProtocol, token: String) async throws
    -> [(bytes: Int, page: ChangesPage)]
  {
    var pages: [(bytes: Int, page: ChangesPage)] = []
    var since: Int64 = 0
    repeat {
      let response = try await http.send(
        .get, "/api/v1/sync/changes?since=\(since)&limit=1000", token: token)
      try #require(response.status == .ok, "\(response.text)")
      let page = try response.decode(ChangesPage.self)
      pages.append((response.body.readableBytes, page))
      since = page.version
    } while pages.last?.page.more == true && pages.count < 100
    return pages
  }

  @Test func aPageStopsOnceItPassesItsByteBudget() async throws {
    let budget = 25_000
    let server = try await TestServer.make(limits: Limits(pageBytes: budget))
    try await server.test { http, _ in
      let (syncUp, meetings) = Self.pushed()
      let pushed = try await http.push(
        Push(device: UUID(), pushID: UUID(), syncUps: [syncUp], meetings: meetings),
        token: server.writerToken)
      try #require(pushed.status == .ok, "\(pushed.text)")
      let size = try WireJSON.bytes(of: meetings[0]).count
      try #require(size > budget / 4 && size < budget / 2, "each meeting \(size) bytes")

      let pages = try await Self.pull(http, token: server.readerToken)
      #expect(pages.count > 1)
      for (index, (bytes, page)) in pages.enumerated() {
        // Under the budget until its last document, which may pass it.
        let last = try page.meetings.last.map { try WireJSON.bytes(of: $0).count } ?? 0
        #expect(bytes - last < budget, "page \(index): \(bytes) bytes")
        #expect(page.more == (index < pages.count - 1))
        // The same bytes the whole page written at once would be.
        let response = try await http.send(
          .get,
          "/api/v1/sync/changes?since=\(index == 0 ? 0 : pages[index - 1].page.version)"
            + "&limit=1000", token: server.readerToken)
        #expect(Array(response.body.readableBytesView) == (try WireJSON.bytes(of: page)))
      }
      #expect(pages.flatMap(\.page.syncUps) == [syncUp])
      #expect(pages.flatMap(\.page.meetings).map(\.id) == meetings.map(\.id))
      #expect(pages.last?.page.version == 7)
    }
  }

  @Test func aDocumentLargerThanTheBudgetIsAPageOfItsOwn() async throws {
    let server = try await TestServer.make(limits: Limits(pageBytes: 1))
    try await server.test { http, _ in
      let (syncUp, meetings) = Self.pushed()
      let pushed = try await http.push(
        Push(device: UUID(), pushID: UUID(), syncUps: [syncUp], meetings: meetings),
        token: server.writerToken)
      try #require(pushed.status == .ok, "\(pushed.text)")

      // One document a page, and the cursor moves on each time.
      let pages = try await Self.pull(http, token: server.readerToken)
      #expect(
        pages.map { $0.page.syncUps.count + $0.page.meetings.count }
          == Array(repeating: 1, count: 7))
      #expect(pages.map(\.page.version) == Array(1...7))
      #expect(pages.map(\.page.more) == Array(repeating: true, count: 6) + [false])
    }
  }
}
