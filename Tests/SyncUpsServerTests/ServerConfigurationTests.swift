import Foundation
import SyncUpsServer
import TestSupport
import Testing

/// The server's configuration file: parsing, precedence, every mistake on its line, and
/// `syncups-server check-config` / `serve --config` through the built binary.
struct ServerConfigurationTests {
  @Test("A file of comments, blank lines and keys reads into each value with its line")
  func readsValuesWithTheirLines() {
    let file = ServerConfiguration(
      parsing: """
        # the team's server
        SYNCUPS_DATABASE_URL=postgres://app@localhost/syncups?host=/run/postgresql

          SYNCUPS_PORT = 8443
        SYNCUPS_HOST="0.0.0.0"
        SYNCUPS_TRUSTED_PROXIES=127.0.0.1, ::1
        SYNCUPS_TLS_CERT=
        """)
    #expect(file.problems == [])
    #expect(
      file.entries["SYNCUPS_DATABASE_URL"]
        == .init(value: "postgres://app@localhost/syncups?host=/run/postgresql", line: 2))
    #expect(file.entries["SYNCUPS_PORT"] == .init(value: "8443", line: 4))
    #expect(file.entries["SYNCUPS_HOST"]?.value == "0.0.0.0")
    #expect(ServerConfiguration.items("127.0.0.1, ::1") == ["127.0.0.1", "::1"])
    // An empty value is none: the default stands.
    #expect(file.value("SYNCUPS_TLS_CERT", option: nil, environment: [:]) == nil)
  }

  @Test("Each mistake is one problem on its own line, and a URL's password is never shown")
  func everyMistakeOnItsLine() {
    let file = ServerConfiguration(
      parsing: """
        SYNCUPS_DATABASE_URL=mysql://app:hunter2@db.internal/syncups
        SYNCUPS_PROT=8080
        SYNCUPS_PORT=65536
        listen on 8080
        SYNCUPS_TLS_KEY=/no/such/key.pem
        SYNCUPS_TRUSTED_PROXIES=10.0.0.1,proxy.internal
        SYNCUPS_PORT=8080
        """)
    #expect(file.problems.map(\.line) == [1, 2, 3, 4, 5, 6, 7])
    let text = file.problems.map(\.description)
    #expect(text[0].hasPrefix("line 1: SYNCUPS_DATABASE_URL is wrong"))
    #expect(text[0].contains("mysql://app:***@db.internal/syncups"))
    #expect(!text.joined().contains("hunter2"))
    #expect(text[1].contains("unknown key 'SYNCUPS_PROT'"))
    #expect(text[2] == "line 3: SYNCUPS_PORT is not a port (0-65535)")
    #expect(text[3] == "line 4: is not KEY=value")
    #expect(text[4] == "line 5: SYNCUPS_TLS_KEY /no/such/key.pem does not exist")
    #expect(text[5].contains("'proxy.internal'") && !text[5].contains("10.0.0.1"))
    #expect(text[6] == "line 7: SYNCUPS_PORT again (set on line 3)")
  }

  @Test(
    "The option wins over the environment, the environment over the file, the file over the default"
  )
  func precedence() throws {
    let file = ServerConfiguration(parsing: "SYNCUPS_PORT=9000\nSYNCUPS_HOST=::1\n")
    let environment = ["SYNCUPS_PORT": "9100"]
    #expect(try file.resolved("SYNCUPS_PORT", option: "9200", environment: environment) == "9200")
    #expect(try file.resolved("SYNCUPS_PORT", environment: environment) == "9100")
    #expect(try file.resolved("SYNCUPS_PORT", environment: [:]) == "9000")
    #expect(try file.resolved("SYNCUPS_HOST", environment: ["SYNCUPS_HOST": ""]) == "::1")
    #expect(try ServerConfiguration().resolved("SYNCUPS_PORT", environment: [:]) == "8080")
    #expect(try ServerConfiguration().resolved("SYNCUPS_TLS_CERT", environment: [:]) == nil)
    #expect(
      throws: ServerError.usage("$SYNCUPS_PORT (from the environment) is not a port (0-65535)")
    ) {
      try file.resolved("SYNCUPS_PORT", environment: ["SYNCUPS_PORT": "http"])
    }
    #expect(throws: ServerError.usage("--port is not a port (0-65535)")) {
      try file.resolved("SYNCUPS_PORT", option: "-1", environment: [:])
    }
  }

  @Test("A database URL loses only its password when shown")
  func urlWithoutPassword() {
    #expect(
      DatabaseURL.withoutPassword("postgres://app:s3:cr@t@db:5432/syncups?host=/x@y")
        == "postgres://app:***@db:5432/syncups?host=/x@y")
    #expect(
      DatabaseURL.withoutPassword("postgres://app@localhost/syncups")
        == "postgres://app@localhost/syncups")
  }

  @Test(
    "check-config lists every mistake with its line and fails; on a good file it says what serve would use"
  )
  func checkConfigThroughTheBinary() async throws {
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    let bad = folder.file("bad.conf")
    try Data(
      "SYNCUPS_DATABASE_URL=postgres://app:hunter2@db/\nSYNCUPS_PORT=x\nSYNCUPS_NOPE=1\n".utf8
    )
    .write(to: bad)
    let clean: [String: String?] = [
      "SYNCUPS_DATABASE_URL": nil, "SYNCUPS_PORT": nil, "SYNCUPS_HOST": nil, "SYNCUPS_CONFIG": nil,
    ]
    let refused = try await runProgram(
      serverBinary, ["check-config", "--config", bad.path], environment: clean)
    #expect(refused.status != 0)
    let lines = refused.stderr.split(separator: "\n").map(String.init)
    #expect(lines.count == 4, "\(refused.stderr)")
    #expect(lines[0].hasPrefix("\(bad.path), line 1: SYNCUPS_DATABASE_URL is wrong"))
    #expect(lines[1] == "\(bad.path), line 2: SYNCUPS_PORT is not a port (0-65535)")
    #expect(lines[2].hasPrefix("\(bad.path), line 3: unknown key 'SYNCUPS_NOPE'"))
    #expect(!refused.stderr.contains("hunter2"))

    let good = folder.file("good.conf")
    try Data(
      "# ours\nSYNCUPS_DATABASE_URL=postgres://app:hunter2@db/syncups\nSYNCUPS_PORT=9000\n".utf8
    )
    .write(to: good)
    var environment = clean
    environment["SYNCUPS_CONFIG"] = good.path
    environment["SYNCUPS_HOST"] = "::"
    let checked = try await runProgram(serverBinary, ["check-config"], environment: environment)
    #expect(checked.status == 0, "\(checked.stderr)")
    let used = checked.stdout.split(separator: "\n").map {
      $0.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
    }
    #expect(used.contains("SYNCUPS_DATABASE_URL postgres://app:***@db/syncups (line 2)"))
    #expect(used.contains("SYNCUPS_PORT 9000 (line 3)"))
    #expect(used.contains("SYNCUPS_HOST :: (the environment)"))
    #expect(!checked.stdout.contains("hunter2"))

    // serve stops at the first mistake, in one line, before it looks for the database.
    let serve = try await runProgram(
      serverBinary, ["serve", "--config", bad.path], environment: clean)
    #expect(serve.status != 0)
    #expect(serve.stderr.contains("\(bad.path), line 1: SYNCUPS_DATABASE_URL is wrong"))
  }
}

@Suite(
  .enabled(
    if: TestPostgres.available,
    "skipped: no PostgreSQL for the server's tests (.ci/postgres could not start one)"))
struct ServeConfigurationFileTests {
  @Test("serve takes the database and the port from its configuration file")
  func serveReadsTheFile() async throws {
    let server = try await TestServer.make()
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    let conf = folder.file("syncups-server.conf")
    try Data("SYNCUPS_DATABASE_URL=\(server.urlText)\nSYNCUPS_PORT=0\n".utf8).write(to: conf)
    var environment = ProcessInfo.processInfo.environment
    environment["SYNCUPS_DATABASE_URL"] = nil
    environment["SYNCUPS_PORT"] = nil
    let child = try ChildProcess(
      serverBinary, ["serve", "--config", conf.path],
      environment: environment)
    let listening = await waitUntil {
      child.stdout.contains("listening on http://127.0.0.1:") || !child.isRunning
    }
    child.signal(SIGKILL)
    await child.waitUntilExit()
    #expect(listening && child.stdout.contains("listening on"), "\(child.stderr)")
  }
}
