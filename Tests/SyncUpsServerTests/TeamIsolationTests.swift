import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import SyncUpsWire
import Testing

@testable import SyncUpsServer

/// Two teams on one server: `team` (Ana writer, Ben reader, as `TestServer` makes it) and
/// `blue` (Cy writer, Dee reader; Ana is a reader there too). Each sees only its own sync-ups,
/// meetings, words and recordings: another team's is 404, as if it were not here.
@Suite(
  .enabled(
    if: TestPostgres.available,
    "skipped: no PostgreSQL for the server's tests (.ci/postgres could not start one)"))
struct TeamIsolationTests {
  /// The server with both teams, a token each for Cy and Dee, and one sync-up and meeting
  /// (with audio) pushed into each team.
  struct TwoTeams {
    let server: TestServer
    let cy: String
    let dee: String
    let ours: (syncUp: SyncUpDocument, meeting: MeetingDocument)
    let theirs: (syncUp: SyncUpDocument, meeting: MeetingDocument)

    static func make() async throws -> TwoTeams {
      let server = try await TestServer.make()
      let (cy, dee) = try await server.store { store in
        _ = try await store.addTeam(name: "blue")
        _ = try await store.addPerson(name: "Cy", role: .writer, team: "blue")
        _ = try await store.addPerson(name: "Dee", role: .reader, team: "blue")
        _ = try await store.addPerson(name: "Ana", role: .reader, team: "blue")
        return (
          try await store.createToken(for: "Cy").token,
          try await store.createToken(for: "Dee").token
        )
      }
      let ours = try await server.push(
        "Morning Sync", said: "the kubernetes migration is done", token: server.writerToken,
        team: "team")
      let theirs = try await server.push(
        "Blue Standup", said: "the giraffe enclosure needs paint", token: cy, team: nil)
      return TwoTeams(server: server, cy: cy, dee: dee, ours: ours, theirs: theirs)
    }
  }

  @Test(
    "a reader of one team gets 404 for another team's sync-up, meeting and audio, and no search hits, in the API and the pages"
  )
  func anotherTeamsThingsAreNotThere() async throws {
    let teams = try await TwoTeams.make()
    let (syncUp, meeting) = (teams.ours.syncUp.id, teams.ours.meeting.id)
    try await teams.server.test { http, _ in
      for path in [
        "/api/v1/sync-ups/\(syncUp)/meetings", "/api/v1/meetings/\(meeting)", "/audio/\(meeting)",
        "/sync-ups/\(syncUp)", "/meetings/\(meeting)", "/meetings/\(meeting)/transcript.txt",
      ] {
        let answer = try await http.send(.get, path, token: teams.dee)
        #expect(answer.status == .notFound, "\(path)")
        #expect(!answer.text.contains("Morning Sync") && !answer.text.contains("kubernetes"))
      }
      let list = try await http.send(.get, "/api/v1/sync-ups", token: teams.dee)
      #expect(try list.decode([SyncUpSummary].self).map(\.title) == ["Blue Standup"])
      let search = try await http.send(.get, "/api/v1/search?q=kubernetes", token: teams.dee)
      #expect(try search.decode([SearchHit].self).isEmpty)
      let page = try await http.send(.get, "/search?q=kubernetes", token: teams.dee)
      #expect(page.status == .ok && page.text.contains("Nothing matches"))
      let home = try await http.send(.get, "/", token: teams.dee)
      #expect(home.text.contains("Blue Standup") && !home.text.contains("Morning Sync"))
      // Their own team's are there, for the same reader.
      let own = try await http.send(
        .get, "/api/v1/meetings/\(teams.theirs.meeting.id)", token: teams.dee)
      #expect(own.status == .ok)
      #expect(
        try await http.send(.get, "/audio/\(teams.theirs.meeting.id)", token: teams.dee).status
          == .ok)
    }
  }

  @Test("a pull carries only its team's changes")
  func aPullSeesOnlyItsTeam() async throws {
    let teams = try await TwoTeams.make()
    try await teams.server.test { http, _ in
      let blue = try await http.send(.get, "/api/v1/sync/changes?since=0", token: teams.dee)
      let bluePage = try blue.decode(ChangesPage.self)
      #expect(bluePage.syncUps.map(\.id) == [teams.theirs.syncUp.id])
      #expect(bluePage.meetings.map(\.id) == [teams.theirs.meeting.id])
      let ours = try await http.send(
        .get, "/api/v1/sync/changes?since=0", token: teams.server.readerToken)
      let ourPage = try ours.decode(ChangesPage.self)
      #expect(ourPage.syncUps.map(\.id) == [teams.ours.syncUp.id])
      #expect(ourPage.meetings.map(\.id) == [teams.ours.meeting.id])
    }
  }

  @Test("a push into another team's sync-up or meeting is refused with a 409 and writes nothing")
  func aPushIntoAnotherTeamIsRefused() async throws {
    let teams = try await TwoTeams.make()
    let ours = teams.ours
    try await teams.server.test { http, store in
      let version = try await store.currentVersion()
      let pushes = [
        Push(
          device: UUID(), pushID: UUID(), syncUps: [Fixture.syncUp(ours.syncUp.id, at: 99)]),
        Push(
          device: UUID(), pushID: UUID(),
          meetings: [Fixture.meeting(in: ours.syncUp.id, said: [("Cy", "mine now")], at: 99)]),
        Push(
          device: UUID(), pushID: UUID(),
          meetings: [
            Fixture.meeting(
              ours.meeting.id, in: teams.theirs.syncUp.id, said: [("Cy", "moved")], at: 99)
          ]),
      ]
      for push in pushes {
        let answer = try await http.push(push, token: teams.cy)
        #expect(answer.status == .conflict, "\(answer.text)")
        #expect(answer.errorMessage?.contains("another team's") == true, "\(answer.text)")
      }
      #expect(try await store.currentVersion() == version)
      let title = try await store.client.query(
        "SELECT title FROM sync_up WHERE id = \(ours.syncUp.id)"
      ).all(String.self)
      #expect(title == ["Morning Sync"])
    }
  }

  @Test("a person in two teams sees both on the web, and a laptop of each team gets only its own")
  func aPersonInTwoTeams() async throws {
    let teams = try await TwoTeams.make()
    try await teams.server.store {
      try await $0.setPassword(name: "Ana", password: "correct horse")
    }
    try await teams.server.test { http, _ in
      let session = try await http.session("Ana", "correct horse")
      let home = try await http.send(.get, "/", token: nil, headers: [.cookie: session])
      #expect(home.text.contains("Morning Sync") && home.text.contains("Blue Standup"))
      #expect(home.text.contains("team blue") && home.text.contains("team team"))
      for word in ["kubernetes", "giraffe"] {
        let page = try await http.send(
          .get, "/search?q=\(word)", token: nil, headers: [.cookie: session])
        #expect(page.text.contains("1 match"), "\(word)")
      }
      let ana = teams.server.writerToken
      for (team, own) in [("team", teams.ours), ("Blue", teams.theirs)] {
        let pull = try await http.send(
          .get, "/api/v1/sync/changes?since=0", token: ana, headers: [Self.header: team])
        let page = try pull.decode(ChangesPage.self)
        #expect(page.syncUps.map(\.id) == [own.syncUp.id] && page.meetings.count == 1, "\(team)")
      }
      // Without the header a sync has no team; one not theirs is refused, whether it exists.
      let none = try await http.send(.get, "/api/v1/sync/changes?since=0", token: ana)
      #expect(none.status == .badRequest)
      #expect(none.errorMessage?.contains("several teams (blue, team)") == true)
      for name in ["red", "nope"] {
        let other = try await http.send(
          .get, "/api/v1/sync/changes?since=0", token: ana, headers: [Self.header: name])
        #expect(other.status == .forbidden && other.errorMessage?.contains("their teams") == true)
      }
      // A reader in blue: no push there, though a writer in the other team.
      let push = Push(device: UUID(), pushID: UUID(), syncUps: [Fixture.syncUp()])
      let refused = try await http.send(
        .post, "/api/v1/sync/push", token: ana, headers: [Self.header: "blue"],
        body: WireJSON.encoder().encode(push))
      #expect(refused.status == .forbidden)
      let me = try await http.send(.get, "/api/v1/me", token: ana)
      #expect(
        try me.decode(Me.self)
          == Me(
            name: "Ana", role: nil,
            teams: [.init(name: "blue", role: "reader"), .init(name: "team", role: "writer")]))
    }
  }

  static let header = HTTPField.Name(TeamHeader.name)!
}

extension TestServer {
  /// Pushes a sync-up titled `title` with one meeting that says `said` and has audio, as the
  /// token's person, into `team` (nil: no header).
  func push(_ title: String, said: String, token: String, team: String?) async throws
    -> (syncUp: SyncUpDocument, meeting: MeetingDocument)
  {
    try await test { http, _ in
      let headers: HTTPFields = team.map { [TeamIsolationTests.header: $0] } ?? [:]
      let audio = Data((title + said).utf8)
      let sha = SHA256.hash(data: audio).map { String(format: "%02x", $0) }.joined()
      let upload = try await http.send(
        .put, "/api/v1/audio/\(sha)", token: token, headers: headers, body: audio)
      #expect(upload.status == .created, "\(upload.text)")
      let syncUp = Fixture.syncUp(title: title)
      let meeting = Fixture.meeting(
        in: syncUp.id, said: [("Ana", said)],
        audio: .init(sha256: sha, size: Int64(audio.count), type: "audio/flac"))
      let pushed = try await http.send(
        .post, "/api/v1/sync/push", token: token, headers: headers,
        body: WireJSON.encoder().encode(
          Push(device: UUID(), pushID: UUID(), syncUps: [syncUp], meetings: [meeting])))
      #expect(pushed.status == .ok, "\(pushed.text)")
      return (syncUp, meeting)
    }
  }
}
