import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import SyncUpsWire
import Testing

@testable import SyncUpsServer

/// Blockers closed by hand in the sync: a push's closings are kept once, by the pusher, for the
/// push's team only and never for a deleted meeting; the changes feed serves them and the
/// blockers page's closings, each with a version; a closing that breaks the rules is refused.
@Suite(
  .enabled(
    if: TestPostgres.available,
    "skipped: no PostgreSQL for the server's tests (.ci/postgres could not start one)"))
struct BlockerSyncTests {
  static let team: HTTPFields = [TeamIsolationTests.header: "team"]

  static func closure(_ meeting: MeetingDocument, segment: Int, _ text: String) -> BlockerClosure {
    BlockerClosure(
      meetingID: meeting.id, segment: segment, key: BlockerClosure.key(of: text), closedAt: Date())
  }

  static func push(_ blockers: [BlockerClosure], meetings: [MeetingDocument] = [])
    -> Data
  {
    try! WireJSON.encoder().encode(
      Push(device: UUID(), pushID: UUID(), meetings: meetings, blockers: blockers))
  }

  /// The team's changes after `since`.
  static func changes(_ http: some TestClientProtocol, since: Int64, token: String)
    async throws -> ChangesPage
  {
    let answer = try await http.send(
      .get, "/api/v1/sync/changes?since=\(since)", token: token, headers: team)
    #expect(answer.status == .ok, "\(answer.text)")
    return try answer.decode(ChangesPage.self)
  }

  @Test("a pushed closing is kept once, by the pusher, for its team, and pulled by the others")
  func pushedClosings() async throws {
    let teams = try await BlockerTeams.make()
    let server = teams.server
    let terms = Self.closure(teams.second, segment: 2, "waiting on legal to approve the new terms")
    try await server.test { http, _ in
      let before = try await Self.changes(http, since: 0, token: server.writerToken)
      #expect(before.blockers.isEmpty)
      // Cy writes another team: a closing of this team's meeting is passed over.
      let foreign = try await http.send(
        .post, "/api/v1/sync/push", token: teams.cy, body: Self.push([terms]))
      #expect(foreign.status == .ok, "\(foreign.text)")
      #expect(
        try await Self.changes(http, since: before.version, token: server.writerToken)
          .blockers.isEmpty)
      // What breaks the rules is refused whole, in words.
      var bad = terms
      bad.key = "ZZ"
      let refused = try await http.send(
        .post, "/api/v1/sync/push", token: server.writerToken, headers: Self.team,
        body: Self.push([Self.closure(teams.second, segment: 1, "x"), bad]))
      #expect(refused.status == .unprocessableContent)
      #expect(refused.errorMessage?.contains("16 lowercase hex digits") == true)
      for segment in [0, Rules.mostSegments + 1] {
        var far = terms
        far.segment = segment
        let answer = try await http.send(
          .post, "/api/v1/sync/push", token: server.writerToken, headers: Self.team,
          body: Self.push([far]))
        #expect(answer.status == .unprocessableContent, "\(segment)")
      }

      let pushed = try await http.send(
        .post, "/api/v1/sync/push", token: server.writerToken, headers: Self.team,
        body: Self.push([terms, terms, Self.closure(UUIDMeeting.absent, segment: 1, "gone")]))
      #expect(pushed.status == .ok, "\(pushed.text)")
      let page = try await Self.changes(http, since: before.version, token: server.writerToken)
      #expect(page.blockers.map(\.key) == [terms.key])
      #expect(page.blockers.first?.closedBy == "Ana")
      #expect(page.blockers.first?.meetingID == teams.second.id)
      // Pushed again (another push): nothing new.
      let again = try await http.send(
        .post, "/api/v1/sync/push", token: server.writerToken, headers: Self.team,
        body: Self.push([terms]))
      #expect(again.status == .ok)
      #expect(
        try await Self.changes(http, since: page.version, token: server.writerToken)
          .blockers.isEmpty)
      // The other team's feed has none of it.
      let theirs = try await http.send(.get, "/api/v1/sync/changes?since=0", token: teams.cy)
      #expect(try theirs.decode(ChangesPage.self).blockers.isEmpty)
    }
    let closed = try await server.store { store in
      try await store.closedBlockers(of: [teams.second.id])
    }
    #expect(closed.count == 1 && closed.values.first?.by == "Ana")
  }

  @Test("a closing on the blockers page gets a version; a deleted meeting's are served no more")
  func pageClosingsAndDeletions() async throws {
    let teams = try await BlockerTeams.make()
    let server = teams.server
    let tax = "blocked on the finance team they still haven't sent the tax rules"
    try await server.test { http, _ in
      let before = try await Self.changes(http, since: 0, token: server.writerToken)
      let form =
        "meeting=\(teams.first.id.uuidString.lowercased())&segment=1&key=\(BlockerClosure.key(of: tax))"
      let closed = try await http.send(
        .post, "/blockers/close", token: server.writerToken,
        headers: [.origin: TestServer.origin, .contentType: "application/x-www-form-urlencoded"],
        body: Data(form.utf8))
      #expect(closed.status == .seeOther)
      let page = try await Self.changes(http, since: before.version, token: server.writerToken)
      #expect(page.blockers.map(\.segment) == [1] && page.blockers.first?.closedBy == "Ana")
      #expect(page.version > before.version)

      // The meeting deleted: its closing is served no more, and a pushed one is passed over.
      var gone = teams.first
      gone.deleted = true
      gone.clock = gone.clock.successor
      let deleted = try await http.send(
        .post, "/api/v1/sync/push", token: server.writerToken, headers: Self.team,
        body: Self.push(
          [Self.closure(teams.first, segment: 2, "waiting on ben for the new icons")],
          meetings: [gone]))
      #expect(deleted.status == .ok, "\(deleted.text)")
      let after = try await Self.changes(http, since: 0, token: server.writerToken)
      #expect(after.blockers.isEmpty)
      // Brought back by a later write: its closing is served again, after it.
      var back = teams.first
      back.clock = gone.clock.successor
      let brought = try await http.send(
        .post, "/api/v1/sync/push", token: server.writerToken, headers: Self.team,
        body: Self.push([], meetings: [back]))
      #expect(brought.status == .ok, "\(brought.text)")
      let again = try await Self.changes(http, since: after.version, token: server.writerToken)
      #expect(again.meetings.map(\.id) == [teams.first.id])
      #expect(again.blockers.map(\.segment) == [1])
    }
    let kept = try await server.store { store in
      try await store.closedBlockers(of: [teams.first.id])
    }
    #expect(kept.count == 1)
  }
}

extension BlockerSyncTests {
  @Test("a push of the most closings there may be is saved whole and pulled page by page")
  func theMostClosingsInAPush() async throws {
    let teams = try await BlockerTeams.make()
    let server = teams.server
    let most = (1...Rules.mostClosingsInAPush).map { segment in
      BlockerClosure(
        meetingID: teams.second.id, segment: segment, key: BlockerClosure.key(of: "\(segment)"),
        closedAt: Date())
    }
    try await server.test { http, _ in
      let before = try await Self.changes(http, since: 0, token: server.writerToken)
      let started = ContinuousClock.now
      let pushed = try await http.send(
        .post, "/api/v1/sync/push", token: server.writerToken, headers: Self.team,
        body: Self.push(most))
      print(
        "BlockerSyncTests: a push of \(most.count) closings took \(ContinuousClock.now - started)")
      #expect(pushed.status == .ok, "\(pushed.text)")
      var since = before.version
      var pulled: [BlockerClosure] = []
      var pages = 0
      while pages < 100 {
        let page = try await Self.changes(http, since: since, token: server.writerToken)
        pulled += page.blockers
        pages += 1
        since = page.version
        if !page.more { break }
      }
      #expect(Set(pulled.map(\.segment)) == Set(1...Rules.mostClosingsInAPush))
      #expect(pages > 1)
    }
  }
}

/// A meeting no server has.
private enum UUIDMeeting {
  static let absent = MeetingDocument(
    id: UUID(), syncUpID: UUID(), date: Date(), length: 1, segments: [], audio: nil,
    clock: HybridClock(milliseconds: 1_795_000_000_000, device: "x"))
}
