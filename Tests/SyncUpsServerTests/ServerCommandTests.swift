import Foundation
import SyncUpsServer
import TestSupport
import Testing

/// The built `syncups-server` binary (beside this test program).
let serverBinary = BuiltProgram.url("syncups-server") ?? URL(fileURLWithPath: "syncups-server")

struct Run {
  var status: Int32
  var stdout: String
  var stderr: String
}

/// Runs the server binary.
func runServer(_ arguments: [String], database: String?, stdin: String? = nil) async throws -> Run {
  try await runProgram(
    serverBinary, arguments, environment: ["SYNCUPS_DATABASE_URL": database], stdin: stdin)
}

/// Runs a program to its end (awaited, not waited for on a thread: `ChildProcess`);
/// `environment` adds to this process's (nil removes a variable).
func runProgram(
  _ program: URL, _ arguments: [String], environment changes: [String: String?] = [:],
  stdin: String? = nil
) async throws -> Run {
  var environment = ProcessInfo.processInfo.environment
  for (name, value) in changes { environment[name] = value }
  let child = try ChildProcess(
    program, arguments, environment: environment, input: stdin.map { Data($0.utf8) })
  let finished = await child.finished()
  return Run(status: finished.status ?? -1, stdout: finished.stdout, stderr: finished.stderr)
}

@Suite(
  .enabled(
    if: TestPostgres.available,
    "skipped: no PostgreSQL for the server's tests (.ci/postgres could not start one)"))
struct ServerCommandTests {
  /// A database that cannot be used is one line naming it and why, in PostgreSQL's or the
  /// system's words (never a library's type), and a non-zero exit.
  @Test func aDatabaseThatCannotBeUsedIsOneLineSayingWhy() async throws {
    let server = try await TestServer.make()
    let empty = try await server.newDatabase()
    let socket = server.url.socketDirectory ?? ""
    let cases: [(String, String)] = [
      (empty.urlText, "has no SyncUps tables yet: run syncups-server migrate on it first"),
      (
        "postgres://syncups@localhost/syncups_nowhere?host=\(socket)",
        #"database "syncups_nowhere" does not exist"#
      ),
      (
        "postgres://nobody_here@localhost/postgres?host=\(socket)",
        #"role "nobody_here" does not exist"#
      ),
      ("postgres://syncups@localhost/gone?host=/nonexistent-folder", "no such file or directory"),
    ]
    for (url, reason) in cases {
      let run = try await runServer(["user", "list"], database: url)
      #expect(run.status == 1, "\(url): \(run.stderr)")
      #expect(
        run.stderr.contains("cannot use the database") && run.stderr.contains(reason),
        "\(url): \(run.stderr)")
      #expect(run.stderr.split(separator: "\n").count == 1, "\(url): \(run.stderr)")
      #expect(!run.stderr.contains("PSQLError") && !run.stderr.contains("Unavailable"))
    }
  }

  @Test func peopleAndTokensFromTheCommandLine() async throws {
    let server = try await TestServer.make()
    let url = try #require(
      "postgres://\(server.url.username)@localhost/\(server.url.database)?host=\(server.url.socketDirectory ?? "")"
    )
    #expect(try await runServer(["migrate"], database: url).stdout == "The schema is up to date.\n")
    let added = try await runServer(["user", "add", "Cleo", "--role", "writer"], database: url)
    #expect(added.status == 0, "\(added.stderr)")
    let twice = try await runServer(["user", "add", "cleo", "--role", "reader"], database: url)
    #expect(twice.status != 0)
    #expect(twice.stderr.contains("already a person here"))
    let badRole = try await runServer(["user", "add", "Dev", "--role", "admin"], database: url)
    #expect(badRole.status != 0 && badRole.stderr.contains("reader or writer"))
    let list = try await runServer(["user", "list"], database: url)
    #expect(
      list.stdout.split(separator: "\n").dropFirst().map {
        $0.split(separator: " ").map(String.init)
      } == [["Ana", "writer"], ["Ben", "reader"], ["Cleo", "writer"]])

    let created = try await runServer(["token", "create", "Cleo"], database: url)
    #expect(created.status == 0, "\(created.stderr)")
    let token = try #require(created.stdout.split(separator: "\n").last.map(String.init))
    #expect(token.hasPrefix("sut_") && token.count == 68)
    let cleo = try await server.store { try await $0.person(token: token) }
    #expect(cleo?.name == "Cleo")
    let tokens = try await runServer(["token", "list"], database: url)
    #expect(!tokens.stdout.contains(token))
    let id = try #require(
      tokens.stdout.split(separator: "\n").last?.split(separator: " ").first.map(String.init))
    #expect(try await runServer(["token", "revoke", id], database: url).status == 0)
    #expect(try await server.store { try await $0.person(token: token) } == nil)
    let unknownToken = try await runServer(["token", "revoke", "999999"], database: url)
    #expect(unknownToken.status != 0 && unknownToken.stderr.contains("no token 999999"))

    let password = try await runServer(
      ["user", "password", "Cleo"], database: url, stdin: "correct horse\n")
    #expect(password.status == 0, "\(password.stderr)")

    let noDatabase = try await runServer(["user", "list"], database: nil)
    #expect(noDatabase.status != 0 && noDatabase.stderr.contains("SYNCUPS_DATABASE_URL"))
    let version = try await runServer(["--version"], database: nil)
    #expect(version.status == 0 && !version.stdout.isEmpty)
  }
}
