import Foundation
import SyncClient
import SyncUpsTestSupport
import SyncUpsWire
import TestSupport
import Testing

@testable import TeamSync

/// A laptop joins one team of a server: `--team NAME` when its person is in several (one line
/// listing them when it is missing or wrong), none when in one; every request then names that
/// team in the `SyncUps-Team` header.
@Suite("Team sync: a laptop joins one of its person's teams")
struct TeamChoiceTests {
  typealias Home = TeamCommandTests.Home

  /// A server whose `/me` says ana is in `teams` (name, role).
  static func server(_ teams: [(String, String)]) throws -> HTTPTeamServer {
    try HTTPTeamServer(
      respond: HostileTransportTests.team { request in
        guard request.path == "/api/v1/me" else { return nil }
        return .json(
          TeamMember(
            name: "ana", role: teams.count == 1 ? teams[0].1 : nil,
            teams: teams.map { TeamMember.Membership(name: $0.0, role: $0.1) }))
      })
  }

  @Test("a person in several teams must name one; a wrong one is one line listing theirs")
  func severalTeamsNeedTeam() async throws {
    let home = try Home()
    defer { home.folder.remove() }
    let server = try Self.server([("blue", "reader"), ("team", "writer")])
    defer { server.close() }
    for (extra, says) in [
      ([], "you are in several teams on \(server.url) (blue, team); say which with --team NAME"),
      (
        ["--team", "red"],
        "you are not in a team called 'red' on \(server.url); your teams there: blue, team"
      ),
    ] {
      let run = try await runSyncups(
        ["team", "join", server.url, "--token", "t"] + extra, environment: home.environment)
      #expect(run.status != 0)
      #expect(run.stderr.contains(says), "\(run)")
      #expect(run.stderrLines.count == 1, "\(run)")
      #expect(!FileManager.default.fileExists(atPath: home.teamFile.path))
    }
    let joined = try await home.run("team", "join", server.url, "--token", "t", "--team", "Blue")
    #expect(joined.status == 0, "\(joined)")
    #expect(joined.stdout.contains("as ana (reader), team blue"), "\(joined)")
    let file = try #require(try TeamFile(url: home.teamFile).read())
    #expect(file.teamName == "blue" && file.role == "reader")
    let asked = server.requests.count
    _ = try await home.run("sync")
    let sent = server.requests.dropFirst(asked)
    #expect(!sent.isEmpty)
    #expect(sent.allSatisfy { $0.headers["syncups-team"] == "blue" }, "\(sent.map(\.headers))")
    #expect(try await home.run("team", "status").stdout.contains("team: blue"))
  }

  @Test("a person in one team needs no --team, and a server without teams takes none")
  func oneTeamNeedsNoTeam() async throws {
    let home = try Home()
    defer { home.folder.remove() }
    let server = try Self.server([("team", "writer")])
    defer { server.close() }
    let joined = try await home.run("team", "join", server.url, "--token", "t")
    #expect(joined.status == 0, "\(joined)")
    #expect(try TeamFile(url: home.teamFile).read()?.teamName == "team")
    // A server from before teams: its `/me` names no teams.
    let old = try HTTPTeamServer(respond: HostileTransportTests.team())
    defer { old.close() }
    let plain = try await home.run("team", "join", old.url, "--token", "t")
    #expect(plain.status == 0, "\(plain)")
    #expect(try TeamFile(url: home.teamFile).read()?.teamName == nil)
    let named = try await home.run("team", "join", old.url, "--token", "t", "--team", "blue")
    #expect(named.status != 0 && named.stderr.contains("has no teams; join without --team"))
  }
}
