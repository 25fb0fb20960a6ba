import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import SyncUpsWire
import Testing

@testable import SyncUpsServer

/// The stand-up digest on the meeting's page, and the team's blockers page with closing a
/// blocker by hand, through the router (WebDigestBrowserTests drives them in Chromium).
@Suite(
  .enabled(
    if: TestPostgres.available,
    "skipped: no PostgreSQL for the server's tests (.ci/postgres could not start one)"))
struct DigestPageTests {
  @Test(
    "the meeting page opens with the digest, each item linking to its moment, and follows a correction at once"
  )
  func theMeetingPageOpensWithTheDigest() async throws {
    let server = try await TestServer.make()
    let syncUp = Fixture.syncUp()
    let meeting = Fixture.meeting(in: syncUp.id, said: Fixture.standUp)
    let silent = Fixture.meeting(in: syncUp.id, said: [])
    let idle = Fixture.meeting(in: syncUp.id, said: [("Ben", "good morning everyone")])
    try await server.test { http, _ in
      let push = Push(
        device: UUID(), pushID: UUID(), syncUps: [syncUp], meetings: [meeting, silent, idle])
      #expect(try await http.push(push, token: server.writerToken).status == .ok)
      let path = "/meetings/\(meeting.id)"
      let page = try await http.send(.get, path, token: server.readerToken)
      #expect(page.status == .ok)
      let html = page.text
      // First in the page's content: before the downloads and the transcript.
      let digest = try #require(html.range(of: "<section class=\"digest card\" id=\"digest\""))
      let downloads = try #require(html.range(of: "<nav class=\"downloads\""))
      #expect(digest.lowerBound < downloads.lowerBound)
      #expect(html.range(of: "</h1>")!.lowerBound < digest.lowerBound)
      let ana: [String] = [
        "<h3>Ana</h3>\n<dl><dt>Yesterday</dt>",
        #"<dd><a class="moment" href="?t=5.00#s1" data-start="5.00">fixed the staging server</a>"#,
        #" <span class="meta">0:05</span></dd><dt>Today</dt>"#,
        #"<dd><a class="moment" href="?t=5.00#s1" data-start="5.00">write the runbook</a>"#,
        #" <span class="meta">0:05</span></dd><dt>Blockers</dt>"#,
        #"<dd class="none">Nothing said.</dd></dl>"#,
      ]
      #expect(html.contains(ana.joined()))
      #expect(
        html.contains(
          #"<dt>Blockers</dt><dd><a class="moment" href="?t=10.00#s2" data-start="10.00">"#
            + #"waiting for ana to review my pull request</a> <span class="meta">0:10 · "#
            + "needs Ana</span></dd>"))
      // The segment a link names is the one said then.
      #expect(html.contains(#"<li class="segment" id="s2"><p class="who"><strong>Ben</strong>"#))
      let tag = try #require(page.headers[.eTag])
      let again = try await http.send(
        .get, path, token: server.readerToken, headers: [.ifNoneMatch: tag])
      #expect(again.status == .notModified)

      let corrected = try await http.send(
        .post, "/meetings/\(meeting.id)/segments/2", token: server.writerToken,
        headers: [.origin: TestServer.origin, .contentType: "application/json"],
        body: try JSONSerialization.data(withJSONObject: [
          "speaker": "Ana", "text": "yesterday i fixed the grafana alerts",
        ]))
      #expect(corrected.status == .ok)
      let after = try await http.send(
        .get, path, token: server.readerToken, headers: [.ifNoneMatch: tag])
      #expect(after.status == .ok)
      #expect(after.text.contains(">fixed the grafana alerts</a>"))
      #expect(!after.text.contains(">fixed the staging server</a>"))
      #expect(!after.text.contains(">write the runbook</a>"))

      let none = try await http.send(.get, "/meetings/\(silent.id)", token: server.readerToken)
      #expect(none.text.contains("Nothing was said in this meeting, so it has no digest."))
      let nothing = try await http.send(.get, "/meetings/\(idle.id)", token: server.readerToken)
      #expect(nothing.text.contains("Nobody said here what they did, what they will do"))
    }
  }

  @Test(
    "the digest follows the sync-up's attendees: a new attendee named in a blocker shows at once"
  )
  func theDigestFollowsTheAttendees() async throws {
    let server = try await TestServer.make()
    let syncUp = Fixture.syncUp()
    let meeting = Fixture.meeting(
      in: syncUp.id, said: [("Ben", "i am waiting for cy to review my pull request")])
    var joined = syncUp
    joined.attendees = Stamped(
      syncUp.attendees.value + [.init(id: UUID(), name: "Cy")], at: Fixture.clock(5))
    let cyJoined = joined
    try await server.test { http, _ in
      let push = Push(device: UUID(), pushID: UUID(), syncUps: [syncUp], meetings: [meeting])
      #expect(try await http.push(push, token: server.writerToken).status == .ok)
      let path = "/meetings/\(meeting.id)"
      let before = try await http.send(.get, path, token: server.readerToken)
      #expect(before.text.contains(">waiting for cy to review my pull request</a>"))
      #expect(!before.text.contains("needs Cy"))
      let tag = try #require(before.headers[.eTag])
      let again = Push(device: UUID(), pushID: UUID(), syncUps: [cyJoined], meetings: [])
      #expect(try await http.push(again, token: server.writerToken).status == .ok)
      // The transcript kept for this version of the meeting, the digest made anew.
      let after = try await http.send(
        .get, path, token: server.readerToken, headers: [.ifNoneMatch: tag])
      #expect(after.status == .ok)
      #expect(after.text.contains("0:00 · needs Cy</span>"))
    }
  }

  @Test func theCacheKeepsADigestOnlyForItsVersionAndAttendees() {
    let cache = MeetingPageCache(limit: 4000)
    let meeting = UUID()
    let transcript: Markup = "<ol class=\"transcript\"></ol>"
    let digest: Markup = "<section id=\"digest\">Ana</section>"
    cache.keep(transcript, digest: digest, attendees: ["Ana"], of: meeting, at: 3)
    #expect(cache.digest(of: meeting, at: 3, attendees: ["Ana"]) == digest)
    #expect(cache.digest(of: meeting, at: 3, attendees: ["Ana", "Cy"]) == nil)
    #expect(cache.digest(of: meeting, at: 4, attendees: ["Ana"]) == nil)
    let other: Markup = "<section id=\"digest\">Ana, Cy</section>"
    cache.keep(digest: other, attendees: ["Ana", "Cy"], of: meeting, at: 3)
    #expect(cache.digest(of: meeting, at: 3, attendees: ["Ana", "Cy"]) == other)
    #expect(cache.transcript(of: meeting, at: 3) == transcript)
    #expect(cache.bytes == transcript.bytes.count + other.bytes.count)
    // Only beside a transcript kept at that version.
    cache.keep(digest: digest, attendees: ["Ana"], of: meeting, at: 4)
    #expect(cache.digest(of: meeting, at: 4, attendees: ["Ana"]) == nil)
  }

  @Test(
    "a reader's blockers page lists their teams' open blockers newest first, a resolved one closed, never another team's"
  )
  func theBlockersPage() async throws {
    let teams = try await BlockerTeams.make()
    let server = teams.server
    try await server.test { http, _ in
      let page = try await http.send(.get, "/blockers", token: server.readerToken)
      #expect(page.status == .ok)
      let html = page.text
      let open = try #require(html.range(of: #"aria-label="Open blockers""#))
      let closed = try #require(html.range(of: #"aria-label="Closed blockers""#))
      let terms = try #require(html.range(of: ">waiting on legal to approve the new terms</a>"))
      let icons = try #require(html.range(of: ">waiting on ben for the new icons</a>"))
      let tax = try #require(html.range(of: "the tax rules</a>"))
      // Newest first: the terms (yesterday) before the icons (two days ago); the tax rules,
      // resolved yesterday by their owner, closed.
      #expect(open.lowerBound < terms.lowerBound && terms.lowerBound < icons.lowerBound)
      #expect(icons.lowerBound < closed.lowerBound && closed.lowerBound < tax.lowerBound)
      #expect(html.contains("2 open blockers in the meetings since"))
      #expect(html.contains("Resolved by Ben on <time"))
      #expect(html.contains("“i finally got the tax rules from finance”"))
      let link = "/meetings/\(teams.second.id.uuidString.lowercased())?t=5.00#s1"
      #expect(html.contains(#"<a href="\#(link)">waiting on legal"#))
      #expect(html.contains("<strong>Ana</strong> · Morning Sync · <time"))
      #expect(html.contains("needs Ben"))
      // Ben reads but does not write: no button; nothing of the other team.
      #expect(!html.contains("/blockers/close"))
      #expect(!html.contains("giraffe"))
      #expect(html.contains(#"<a href="/blockers">Blockers</a>"#))

      let writer = try await http.send(.get, "/blockers", token: server.writerToken)
      #expect(writer.text.components(separatedBy: #"action="/blockers/close""#).count == 3)
      let theirs = try await http.send(.get, "/blockers?since=2w", token: teams.dee)
      #expect(theirs.status == .ok)
      #expect(theirs.text.contains(">blocked on the giraffe paint</a>"))
      #expect(!theirs.text.contains("legal") && !theirs.text.contains("tax rules"))
      // A window that ends before them lists none.
      let today = HTML.day(Date().addingTimeInterval(86_400))
      let later = try await http.send(.get, "/blockers?since=\(today)", token: server.readerToken)
      #expect(later.text.contains("No open blockers in the meetings since \(today)"))
    }
  }

  @Test("the blockers page reads at most so many meetings, holding at most so many segments")
  func theBlockersPageReadsABoundedWindow() async throws {
    let teams = try await BlockerTeams.make()
    let week = Date().addingTimeInterval(-7 * 86_400)
    try await teams.server.store { store in
      let every = try await store.everyTeam()
      let all = try await store.blockerMeetings(in: every, since: week)
      #expect(all.meetings.count == 3 && !all.more)
      // Oldest first, as BlockerLog reads them.
      #expect(all.meetings.first?.id == teams.first.id)
      let one = try await store.blockerMeetings(in: every, since: week, limit: 1)
      #expect(one.meetings.count == 1 && one.more)
      // The newest meeting always counts, however many segments it holds.
      let few = try await store.blockerMeetings(in: every, since: week, segments: 1)
      #expect(few.meetings.count == 1 && few.more)
      let three = try await store.blockerMeetings(in: every, since: week, segments: 3)
      #expect(three.meetings.count == 2 && three.more)
    }
  }

  @Test("a blocker is closed by hand only by a writer of its team, from this server's page")
  func closingABlockerByHand() async throws {
    let teams = try await BlockerTeams.make()
    let server = teams.server
    let meeting = teams.second.id.uuidString.lowercased()
    let key = BlockerClosure.key(of: "waiting on legal to approve the new terms")
    let form = "meeting=\(meeting)&segment=2&key=\(key)&since=7d"
    func close(_ body: String, token: String, origin: String? = TestServer.origin) async throws
      -> TestResponse
    {
      var fields: HTTPFields = [.contentType: "application/x-www-form-urlencoded"]
      if let origin { fields[.origin] = origin }
      let headers = fields
      return try await server.test { http, _ in
        try await http.send(
          .post, "/blockers/close", token: token, headers: headers, body: Data(body.utf8))
      }
    }
    func openBlockers() async throws -> String {
      try await server.test { http, _ in
        try await http.send(.get, "/blockers", token: server.readerToken).text
      }
    }
    let unsaid = try await close(form, token: server.writerToken, origin: nil)
    #expect(unsaid.status == .forbidden)
    #expect(unsaid.text.contains("did not say which page sent it"))
    let elsewhere = try await close(form, token: server.writerToken, origin: "https://evil.example")
    #expect(elsewhere.status == .forbidden && elsewhere.text.contains("from another site"))
    let reader = try await close(form, token: server.readerToken)
    #expect(reader.status == .forbidden)
    #expect(
      reader.text.contains("Only a writer of this meeting&#39;s team can close its blockers."))
    let stranger = try await close(form, token: teams.cy)
    #expect(stranger.status == .notFound && !stranger.text.contains("legal"))
    let wrongKey = form.replacingOccurrences(of: key, with: String(repeating: "0", count: 16))
    #expect(try await close(wrongKey, token: server.writerToken).status == .notFound)
    for bad in ["meeting=x&segment=2&key=\(key)", "meeting=\(meeting)&segment=-1&key=\(key)"] {
      #expect(try await close(bad, token: server.writerToken).status == .badRequest)
    }
    #expect(try await openBlockers().contains("2 open blockers"))

    let closed = try await close(form, token: server.writerToken)
    #expect(closed.status == .seeOther)
    #expect(closed.headers[.location] == "/blockers?since=7d")
    let after = try await openBlockers()
    #expect(after.contains("1 open blocker in"))
    #expect(after.contains("Closed by hand by Ana on <time"))
    let closedList = try #require(after.range(of: #"aria-label="Closed blockers""#))
    let terms = try #require(after.range(of: ">waiting on legal to approve the new terms</a>"))
    #expect(closedList.lowerBound < terms.lowerBound)
    // Closing it again changes nothing.
    #expect(try await close(form, token: server.writerToken).status == .seeOther)
  }

  @Test("a since the blockers page does not take is a 400 in words")
  func aBadSinceIsRefusedInWords() async throws {
    let server = try await TestServer.make()
    try await server.test { http, _ in
      for since in [
        "abc", "-1d", "367d", "53w", "99999999999999999999d", "2026-02-30", "7x", "", "1e3d",
      ] {
        let page = try await http.send(
          .get, "/blockers?since=\(HTML.queryValue(since))", token: server.readerToken)
        #expect(page.status == .badRequest, "\(since)")
        #expect(page.text.contains("takes days or weeks back (7d, 2w; at most 366d)"), "\(since)")
      }
      for since in ["0d", "2w", "366d", "2026-11-20"] {
        let page = try await http.send(.get, "/blockers?since=\(since)", token: server.readerToken)
        #expect(page.status == .ok, "\(since)")
      }
    }
  }
}

/// Two teams (`TeamIsolationTests.TwoTeams`) whose meetings raise blockers: in `team`'s Morning
/// Sync, two days ago Ben is blocked on the tax rules and Ana waits on Ben for the icons;
/// yesterday Ben got the tax rules and Ana waits on legal. In `blue`, Cy is blocked on paint.
struct BlockerTeams {
  let server: TestServer
  let cy: String
  let dee: String
  let first: MeetingDocument
  let second: MeetingDocument

  static func make() async throws -> BlockerTeams {
    let teams = try await TeamIsolationTests.TwoTeams.make()
    let server = teams.server
    let syncUp = Fixture.syncUp()
    let now = Date()
    let first = Fixture.meeting(
      in: syncUp.id,
      said: [
        ("Ben", "i am blocked on the finance team they still haven't sent the tax rules"),
        ("Ana", "i am waiting on ben for the new icons"),
      ], date: now.addingTimeInterval(-2 * 86_400))
    let second = Fixture.meeting(
      in: syncUp.id,
      said: [
        ("Ben", "i finally got the tax rules from finance"),
        ("Ana", "i am waiting on legal to approve the new terms"),
      ], date: now.addingTimeInterval(-86_400))
    let blue = Fixture.syncUp(title: "Blue Standup")
    let theirs = Fixture.meeting(
      in: blue.id, said: [("Cy", "i am blocked on the giraffe paint")],
      date: now.addingTimeInterval(-86_400))
    try await server.test { http, _ in
      let ours = Push(
        device: UUID(), pushID: UUID(), syncUps: [syncUp], meetings: [first, second])
      let pushed = try await http.send(
        .post, "/api/v1/sync/push", token: server.writerToken,
        headers: [TeamIsolationTests.header: "team"], body: WireJSON.encoder().encode(ours))
      #expect(pushed.status == .ok, "\(pushed.text)")
      let blues = Push(device: UUID(), pushID: UUID(), syncUps: [blue], meetings: [theirs])
      #expect(try await http.push(blues, token: teams.cy).status == .ok)
    }
    return BlockerTeams(server: server, cy: teams.cy, dee: teams.dee, first: first, second: second)
  }
}
