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

  /// Break 3: a sync-up deleted at counter 9999, then a meeting pushed into it: the sync-up
  /// comes back at a valid clock (the counter carries), and every pull and push still answers.
  @Test func bringingBackASyncUpAtTheLargestCounterKeepsEveryPull() async throws {
    let server = try await TestServer.make()
    try await server.test { http, _ in
      let now = Int64(Date().timeIntervalSince1970 * 1000)
      var syncUp = Fixture.syncUp(at: now - 5000)
      syncUp.deleted = Stamped(
        true,
        at: HybridClock(
          milliseconds: now - 1000, counter: HybridClock.largestCounter, device: Fixture.device))
      let deleted = try await http.push(
        Push(device: UUID(), pushID: UUID(), syncUps: [syncUp]), token: server.writerToken)
      #expect(deleted.status == .ok, "\(deleted.text)")
      let meeting = Fixture.meeting(in: syncUp.id, said: [("Ana", "hi")], at: now - 3000)
      let recorded = try await http.push(
        Push(device: UUID(), pushID: UUID(), meetings: [meeting]), token: server.writerToken)
      #expect(recorded.status == .ok, "\(recorded.text)")
      let pull = try await http.send(
        .get, "/api/v1/sync/changes?since=0", token: server.readerToken)
      #expect(pull.status == .ok, "\(pull.text)")
      let page = try pull.decode(ChangesPage.self)
      let back = try #require(page.syncUps.first)
      #expect(back.deleted.value == false)
      #expect(back.deleted.clock > syncUp.deleted.clock)
      #expect(HybridClock(back.deleted.clock.description) == back.deleted.clock)
      let again = try await http.push(
        Push(device: UUID(), pushID: UUID(), syncUps: [syncUp]), token: server.writerToken)
      #expect(again.status == .ok, "\(again.text)")
    }
  }

  /// Break 4 (server): a correction goes through the rules a push is kept by: direction marks
  /// and words longer than a word are refused in words, and nothing is written.
  @Test func aCorrectionThePushRulesRefuseIsRefused() async throws {
    try await CorrectionRouteTests.withMeeting { server, http, meeting in
      let path = "/api/v1/meetings/\(meeting.id)/segments/1"
      for text in [
        "x \u{202E} y", "x \u{2066}y", String(repeating: "w", count: Rules.longestSpokenWord + 1),
      ] {
        let answer = try await http.send(
          .post, path, token: server.writerToken, headers: CorrectionRouteTests.json,
          body: CorrectionRouteTests.body(["speaker": "Ana", "text": text]))
        #expect(answer.status == .unprocessableContent, "\(text.prefix(10)): \(answer.text)")
        #expect(answer.errorMessage != nil)
      }
      let stored = try await CorrectionRouteTests.stored(http, server, meeting.id)
      #expect(stored.segments[0].text == meeting.segments[0].text)
      let fine = try await http.send(
        .post, path, token: server.writerToken, headers: CorrectionRouteTests.json,
        body: CorrectionRouteTests.body(["speaker": "Ana", "text": "the staging box is down"]))
      #expect(fine.status == .ok, "\(fine.text)")
    }
  }

  /// Break 5: the web corrects segment 2, a laptop's offline correction of segment 1 merges in
  /// (the meeting's clock stays the web's): the JSON's tag and the page change with it.
  @Test func aPerSegmentMergeChangesTheTagAndThePage() async throws {
    try await CorrectionRouteTests.withMeeting { server, http, meeting in
      let web = try await http.send(
        .post, "/api/v1/meetings/\(meeting.id)/segments/2", token: server.writerToken,
        headers: CorrectionRouteTests.json,
        body: CorrectionRouteTests.body(["speaker": "Ben", "text": "thanks zanzibar"]))
      #expect(web.status == .ok, "\(web.text)")
      let path = "/api/v1/meetings/\(meeting.id)"
      let before = try await http.send(.get, path, token: server.readerToken)
      let tag = try #require(before.headers[.eTag])
      let pageBefore = try await http.send(
        .get, "/meetings/\(meeting.id)", token: server.readerToken)
      #expect(pageBefore.text.contains("zanzibar"))
      #expect(!pageBefore.text.contains("grafana"))

      var laptop = meeting
      laptop.segments[0] = meeting.segments[0].corrected(
        SegmentCorrection(text: "the grafana server is down"))
      laptop.segments[0].clock = Fixture.clock(3)
      laptop.clock = Fixture.clock(3)
      let pushed = try await http.push(
        Push(device: UUID(), pushID: UUID(), meetings: [laptop]), token: server.writerToken)
      #expect(pushed.status == .ok, "\(pushed.text)")

      let after = try await http.send(
        .get, path, token: server.readerToken, headers: [.ifNoneMatch: tag])
      #expect(after.status == .ok)
      #expect(after.headers[.eTag] != tag)
      let merged = try after.decode(MeetingDocument.self)
      #expect(merged.segments[0].text == "the grafana server is down")
      #expect(merged.segments[1].text == "thanks zanzibar")
      let pageAfter = try await http.send(
        .get, "/meetings/\(meeting.id)", token: server.readerToken)
      #expect(pageAfter.text.contains("grafana"))
      #expect(pageAfter.headers[.eTag] != pageBefore.headers[.eTag])
    }
  }

  /// Break 8: behind a trusted proxy, an `X-Forwarded-For` entry that is not a plain address
  /// is an untrusted client, never the proxy: `/metrics` stays closed to it.
  @Test func oddForwardedForEntriesAreNeverTheProxy() async throws {
    let server = try await TestServer.make()
    try await server.withMetrics(from: ["127.0.0.1"], proxies: ["127.0.0.1"]) { http in
      for forwarded in [
        "203.0.113.9", "203.0.113.9:443", "unknown", "203.0.113.9, garbage", ",", "",
        "[::1]:80", "127.0.0.1:9", String(repeating: "1", count: 5000),
      ] {
        let scrape = try await http.send(
          .get, "/metrics", token: nil, headers: [.forwardedFor: forwarded])
        #expect(scrape.status == .forbidden, "X-Forwarded-For: \(forwarded.prefix(40))")
      }
      let proxyItself = try await http.send(.get, "/metrics", token: nil)
      #expect(proxyItself.status == .ok)
    }
  }

  /// Break 2: Ana writes in `team` and only reads `blue`. She takes an attendee's id from
  /// blue's pull and pushes a new sync-up of her team with it, and what is learned of it: 409
  /// in words, nothing kept. Blue's laptop forgetting that attendee is taken, and pulled.
  @Test func anAttendeeIdOfAnotherTeamIsRefusedAndNeverBlocksThatTeam() async throws {
    let teams = try await TeamIsolationTests.TwoTeams.make()
    let blue = teams.theirs.syncUp
    let stolen = blue.attendees.value[0].id
    try await teams.server.test { http, store in
      var red = Fixture.syncUp(title: "Red Sync")
      red.attendees.value[0].id = stolen
      let learned = Self.forgotten(stolen, in: red.id, at: 9)
      let attack = try await http.send(
        .post, "/api/v1/sync/push", token: teams.server.writerToken,
        headers: [TeamIsolationTests.header: "team"],
        body: WireJSON.encoder().encode(
          Push(device: UUID(), pushID: UUID(), syncUps: [red], people: [learned])))
      #expect(attack.status == .conflict, "\(attack.text)")
      #expect(attack.errorMessage?.contains("which is another team's") == true)
      #expect(try await store.syncUpExists(red.id) == false)
      let forget = Self.forgotten(stolen, in: blue.id, at: 10)
      let mine = try await http.push(
        Push(device: UUID(), pushID: UUID(), people: [forget]), token: teams.cy)
      #expect(mine.status == .ok, "\(mine.text)")
      let pull = try await http.send(.get, "/api/v1/sync/changes?since=0", token: teams.dee)
      #expect(try pull.decode(ChangesPage.self).people == [forget])
    }
  }

  /// Break 2, stored before the fix: blue's attendee id under a sync-up of `team`, with what is
  /// learned of it (written here straight into PostgreSQL). Blue's laptop that forgets the
  /// attendee is still taken, and `team`'s row stays `team`'s.
  @Test func anAttendeeIdTakenBeforeTheFixNeverBlocksItsTeam() async throws {
    let teams = try await TeamIsolationTests.TwoTeams.make()
    let blue = teams.theirs.syncUp
    let stolen = blue.attendees.value[0].id
    let red = teams.ours.syncUp
    try await teams.server.test { http, store in
      let poison = try WireJSON.encoder().encode(Self.forgotten(stolen, in: red.id, at: 9))
      try await store.client.query(
        """
        UPDATE attendee SET id = \(stolen) WHERE sync_up_id = \(red.id) AND position = 0
        """)
      try await store.client.query(
        """
        INSERT INTO learned_person (attendee_id, sync_up_id, clock, document, version)
        VALUES (\(stolen), \(red.id), \(Fixture.clock(9).description),
          \(ByteBuffer(data: poison)), nextval('change_version'))
        """)
      let forget = Self.forgotten(stolen, in: blue.id, at: 10)
      let mine = try await http.push(
        Push(device: UUID(), pushID: UUID(), people: [forget]), token: teams.cy)
      #expect(mine.status == .ok, "\(mine.text)")
      let pull = try await http.send(.get, "/api/v1/sync/changes?since=0", token: teams.dee)
      #expect(try pull.decode(ChangesPage.self).people == [forget])
    }
  }

  static func forgotten(_ attendee: UUID, in syncUp: UUID, at time: Int64) -> PersonDocument {
    PersonDocument(
      attendeeID: attendee, syncUpID: syncUp, voice: nil, adaptation: nil,
      forgotten: Date(timeIntervalSince1970: 1_764_144_000), clock: Fixture.clock(time))
  }
}
