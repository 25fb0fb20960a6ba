import Foundation
import SyncUpsTestSupport
import TestSupport
import Testing

/// Two teams on one real server, one person in both, a laptop joined to each: each laptop gets
/// only its own team's sync-ups, and the server keeps each in its team.
@Suite("Teams end to end: a laptop of each team gets only its own", .serialized)
struct TeamsEndToEndTests {
  @Test("a laptop of each team pushes into its team and pulls only its team's sync-ups")
  func aLaptopOfEachTeamGetsOnlyItsOwn() async throws {
    let team = try await TeamFixture.start()
    defer { team.stop() }
    try await team.serverCommand("team", "add", "blue")
    try await team.serverCommand("user", "add", "ana", "--team", "blue", "--role", "writer")
    let a = try team.laptop()
    let b = try team.laptop()
    let bare = try await a.run("team", "join", team.url, "--token", team.writerToken)
    #expect(bare.status != 0 && bare.stderr.contains("(blue, team)"), "\(bare)")
    try await a.expect("team", "join", team.url, "--token", team.writerToken, "--team", "team")
    try await b.expect("team", "join", team.url, "--token", team.writerToken, "--team", "blue")
    try await a.expect("add", "--title", "Morning Sync", "--attendee", "Ana")
    try await a.expect("sync")
    try await b.expect("add", "--title", "Blue Standup", "--attendee", "Ana")
    try await b.expect("sync")
    #expect(try await a.expect("sync").stdout == "up to date: nothing to push or pull\n")
    #expect(a.value("SELECT count(*) FROM syncUp") == 1)
    #expect(b.value("SELECT count(*) FROM syncUp") == 1)
    // A second laptop of the first team pulls its one sync-up, not blue's.
    let c = try team.laptop()
    try await c.expect("team", "join", team.url, "--token", team.writerToken, "--team", "team")
    let pulled = try await c.expect("sync")
    #expect(pulled.stdout == "pulled 1 sync-up\n", "\(pulled)")
    #expect(try await c.expect("list").stdout.contains("Morning Sync"))
    #expect(
      try await team.psql(
        "SELECT string_agg(t.name || ':' || s.title, ',' ORDER BY s.title) FROM sync_up s "
          + "JOIN team t ON t.id = s.team_id") == "blue:Blue Standup,team:Morning Sync")
  }
}
