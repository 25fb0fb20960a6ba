import Foundation
import PostgresNIO
import SyncUpsWire
import TestSupport
import Testing

@testable import SyncUpsServer

/// The first team, made by the migration from what a server held before teams, and the team
/// and user commands with their mistakes in one line.
@Suite(
  .enabled(
    if: TestPostgres.available,
    "skipped: no PostgreSQL for the server's tests (.ci/postgres could not start one)"))
struct TeamCommandTests {
  @Test(
    "the migration puts the sync-ups and people of a server without teams, with their roles, in the first team"
  )
  func theMigrationMakesTheFirstTeam() async throws {
    let base = try TestPostgres.url.get()
    let name = TestDatabase.name()
    _ = try await TeamStore.withStore(base) { store in
      try await store.client.query(PostgresQuery(unsafeSQL: "CREATE DATABASE \(name)"))
    }
    let url = base.with(database: name)
    let syncUp = UUID()
    let teams = try #require(Schema.migrations.firstIndex { $0.contains("CREATE TABLE team (") })
    try await TeamStore.withStore(url) { store in
      // The schema as it was before teams, with people (one removed) and a sync-up.
      try await store.client.query(
        "CREATE TABLE schema_migration (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())"
      )
      for (index, sql) in Schema.migrations.prefix(teams).enumerated() {
        for statement in Schema.statements(of: sql) {
          try await store.client.query(PostgresQuery(unsafeSQL: statement))
        }
        try await store.client.query("INSERT INTO schema_migration (version) VALUES (\(index + 1))")
      }
      try await store.client.query(
        """
        INSERT INTO person (name, role, removed_at) VALUES ('Ana', 'writer', NULL),
          ('Ben', 'reader', NULL), ('Gone', 'writer', now())
        """)
      try await store.client.query(
        """
        INSERT INTO sync_up (id, title, theme, duration, deleted, document, version)
        VALUES (\(syncUp), 'Morning Sync', 'teal', 300, false, '{}', 1)
        """)
      #expect(try await store.migrate() == Schema.migrations.count - teams)
      let all = try await store.teams()
      #expect(all.map(\.name) == ["team"] && all.first?.people == 2 && all.first?.syncUps == 1)
      let people = try await store.people()
      #expect(people.map(\.name) == ["Ana", "Ben"])
      #expect(people.map { $0.memberships.map(\.team) } == [["team"], ["team"]])
      #expect(people.map { $0.memberships.map(\.role) } == [[.writer], [.reader]])
      #expect(try await store.syncUpExists(syncUp, in: all.map(\.id)))
      #expect(try await !store.syncUpExists(syncUp, in: []))
    }
  }

  @Test(
    "team and user commands: teams added and listed, people added to several, each mistake one line"
  )
  func teamAndUserCommands() async throws {
    let server = try await TestServer.make()
    let url = server.urlText
    func run(_ arguments: String...) async throws -> Run {
      try await runServer(arguments, database: url)
    }
    // One team: `user add` needs no --team, as before.
    let one = try await run("user", "add", "Cleo", "--role", "reader")
    #expect(one.status == 0, "\(one.stderr)")
    #expect(try await run("team", "add", "blue").status == 0)
    for (arguments, says) in [
      (["team", "add", "Blue"], "there is already a team 'blue'"),
      (["team", "add", "no spaces"], "a team's name is 1 to 64 letters"),
      (
        ["user", "add", "Dev", "--role", "reader"],
        "there are several teams here (blue, team); give --team TEAM"
      ),
      (
        ["user", "add", "Dev", "--role", "reader", "--team", "red"],
        "there is no team 'red' here; the teams: blue, team"
      ),
      (
        ["user", "add", "Ana", "--role", "reader", "--team", "team"], "Ana is already in team team"
      ),
      (
        ["user", "role", "Ana", "--role", "reader", "--team", "blue"],
        "Ana is not in team blue (their teams: team)"
      ),
      (["user", "remove", "Ana", "--team", "blue"], "Ana is not in team blue"),
    ] {
      let failed = try await runServer(arguments, database: url)
      #expect(failed.status != 0, "\(arguments)")
      #expect(failed.stderr.contains(says), "\(arguments): \(failed.stderr)")
      #expect(failed.stderr.split(separator: "\n").count == 1, "\(arguments): \(failed.stderr)")
    }
    #expect(try await run("user", "add", "Ana", "--role", "reader", "--team", "blue").status == 0)
    let several = try await run("user", "role", "Ana", "--role", "writer")
    #expect(
      several.status != 0 && several.stderr.contains("several teams (their teams: blue, team)"))
    #expect(try await run("user", "role", "Ana", "--role", "writer", "--team", "blue").status == 0)
    let list = try await run("user", "list")
    #expect(
      list.stdout.split(separator: "\n").map { $0.split(separator: " ").map(String.init) } == [
        ["NAME", "TEAM", "ROLE"], ["Ana", "blue", "writer"], ["Ana", "team", "writer"],
        ["Ben", "team", "reader"], ["Cleo", "team", "reader"],
      ])
    let teams = try await run("team", "list")
    #expect(
      teams.stdout.split(separator: "\n").map { $0.split(separator: " ").map(String.init) } == [
        ["TEAM", "PEOPLE", "SYNC-UPS", "WEBHOOK"], ["blue", "1", "0", "-"],
        ["team", "3", "0", "-"],
      ])
    let out = try await run("user", "remove", "Ana", "--team", "blue")
    #expect(out.status == 0 && out.stdout.contains("their teams now: team"))
    // Their token still opens their other team.
    #expect(
      try await server.store { try await $0.person(token: server.writerToken) }?.memberships.map(
        \.team) == ["team"])
  }
}
