import Foundation
import SyncUpsTestSupport
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The team's scenarios end to end: the real `syncups-server` on the private PostgreSQL of
/// `.ci/postgres` (`SYNCUPS_TEST_DATABASE_URL`), and two laptops, each a data directory and a
/// config folder of its own, running the real `syncups`.
@Suite("Team sync end to end: syncups-server, PostgreSQL, two laptops", .serialized)
struct TeamEndToEndTests {
  @Test func aMeetingRecordedOnAIsReadSearchedAndExportedTheSameOnB() async throws {
    let team = try await TeamFixture.start()
    defer { team.stop() }
    let a = try team.laptop()
    let b = try team.laptop()
    try await a.expect("team", "join", team.url, "--token", team.writerToken)
    try await a.expect("add", "--title", "Morning Sync", "--attendee", "Ana", "--attendee", "Ben")
    let sample = repositoryRoot.appendingPathComponent("Samples/hello.wav").path
    try await a.expect("record", "Morning Sync", "--input", sample, "--fast")
    // `record` synced by itself, in the background.
    let synced = await waitUntil {
      a.value("SELECT count(*) FROM syncOutbox") == 0
        && a.value("SELECT count(*) FROM syncState WHERE key = 'lastSync'") == 1
    }
    #expect(synced, "record's own sync did not push the meeting")
    try await b.expect("team", "join", team.url, "--token", team.writerToken)
    let pulled = try await b.expect("sync")
    // A's recording taught A the voice of the one person speaking: B learns it too.
    #expect(
      pulled.stdout
        == "pulled 1 sync-up and 1 meeting (1 audio file); pulled what is learned of 1 attendee\n",
      "\(pulled)")
    let onA = try await a.expect("transcript", "Morning Sync")
    let onB = try await b.expect("transcript", "Morning Sync")
    #expect(onA.stdout == onB.stdout)
    #expect(!onB.stdout.isEmpty)
    #expect(try await a.expect("sync").stdout == "up to date: nothing to push or pull\n")
    #expect(try await a.expect("export").stdout == (try await b.expect("export")).stdout)
    // B can hear it: the same audio, byte for byte.
    let audio = try FileManager.default.contentsOfDirectory(
      atPath: a.data.appendingPathComponent("audio").path)
    #expect(audio.count == 1)
    #expect(
      try Data(contentsOf: a.data.appendingPathComponent("audio/\(audio[0])"))
        == Data(contentsOf: b.data.appendingPathComponent("audio/\(audio[0])")))
    // Search on the server finds what the laptop's search finds, printed the same way.
    for query in ["speech", "short test", "\"the speech\"", "recogn*"] {
      let local = try await b.run("search", "--json", query)
      let remote = try await b.run("search", "--team", "--json", query)
      #expect(remote.status == local.status, "\(query): \(remote)")
      #expect(remote.stdout == local.stdout, "\(query)")
    }
    let line = try await b.run("search", "--team", "speech")
    #expect(line.stdout.hasPrefix("Morning Sync · "), "\(line)")
  }

  /// Edits on B come back to A; a deletion on A deletes everywhere.
  @Test func editsAndDeletionsFollow() async throws {
    let team = try await TeamFixture.start()
    defer { team.stop() }
    let a = try team.laptop()
    let b = try team.laptop()
    for laptop in [a, b] {
      try await laptop.expect("team", "join", team.url, "--token", team.writerToken)
    }
    try await a.expect("add", "--title", "Design Review", "--attendee", "Cleo")
    try await a.expect("sync")
    try await b.expect("sync")
    try await b.expect("edit", "Design Review", "--add-attendee", "Dev", "--title", "Design Crit")
    try await b.expect("sync")
    let back = try await a.expect("sync")
    #expect(back.stdout == "pulled 1 sync-up\n", "\(back)")
    #expect(try await a.expect("list").stdout.contains("Design Crit"))
    #expect(try await a.expect("export").stdout == (try await b.expect("export")).stdout)
    try await a.expect("delete", "Design Crit", "--yes")
    try await a.expect("sync")
    try await b.expect("sync")
    #expect(try await b.expect("export").stdout == (try await a.expect("export")).stdout)
    #expect(!(try await b.expect("list").stdout.contains("Design Crit")))
  }

  /// The push's answer never came (the server stopped, then went on): the next sync resends
  /// the same push, and the server keeps one copy. Also with the laptop killed mid-push.
  @Test(arguments: ["answer lost", "laptop killed"])
  func aPushThatDiedIsFinishedOnceByTheNextSync(_ fault: String) async throws {
    let team = try await TeamFixture.start()
    defer { team.stop() }
    let a = try team.laptop(timeout: 2)
    try await a.expect("team", "join", team.url, "--token", team.writerToken)
    try await a.expect("add", "--title", "Retro", "--attendee", "Ana")
    team.server.signal(SIGSTOP)
    let sync = try ChildProcess(syncupsBinary, ["sync"], environment: a.environment)
    if fault == "laptop killed" {
      _ = await waitUntil {
        a.value("SELECT count(*) FROM syncPendingPush") == 1 || !sync.isRunning
      }
      sync.signal(SIGKILL)
    }
    let first = await sync.finished()
    #expect(first.status != 0)
    team.server.signal(SIGCONT)
    let retry = try await a.expect("sync")
    #expect(retry.stdout.hasPrefix("pushed 1 sync-up"), "\(retry)")
    #expect(try await team.psql("SELECT count(*) FROM push_receipt") == "1")
    #expect(try await team.psql("SELECT count(*) FROM sync_up") == "1")
    #expect(try await a.expect("team", "status").stdout.contains("changes waiting: 0"))
  }

  /// `team join` and `team status` name the token's person, as `GET /api/v1/me` says.
  @Test func joinAndStatusNameThePerson() async throws {
    let team = try await TeamFixture.start()
    defer { team.stop() }
    let a = try team.laptop()
    let joined = try await a.expect("team", "join", team.url, "--token", team.writerToken)
    #expect(joined.stdout.hasPrefix("Joined \(team.url) as ana (writer);"), "\(joined)")
    let status = try await a.expect("team", "status")
    #expect(status.stdout.contains("person: ana (writer)\n"), "\(status)")
    #expect(!status.stdout.contains(team.writerToken))
  }

  /// B's interactive app, left on its list, shows a sync-up and meeting saved on A: it syncs in
  /// the background and redraws when their rows arrive. Then it quits as ever.
  @Test func theInteractiveAppOnBShowsWhatASaved() async throws {
    let team = try await TeamFixture.start()
    defer { team.stop() }
    let a = try team.laptop()
    let b = try team.laptop()
    try await a.expect("team", "join", team.url, "--token", team.writerToken)
    try await b.expect("team", "join", team.url, "--token", team.writerToken)
    let terminal = Tmux(prefix: "syncups-team")
    let variables = ["SYNCUPS_HOME", "XDG_CONFIG_HOME", "SYNCUPS_SYNC_TIMEOUT", "TZ"]
      .map { "\($0)='\(b.environment[$0] ?? "")'" }.joined(separator: " ")
    try terminal.start(
      "\(variables) '\(syncupsBinary.path)'; echo EXIT=$?; sleep 60", columns: 100, rows: 30)
    defer { terminal.kill() }
    #expect(
      try await terminal.waitForScreen { $0.contains("a add") }, "\((try? terminal.screen()) ?? "")"
    )

    try await a.expect("add", "--title", "Planning", "--attendee", "Ana")
    let sample = repositoryRoot.appendingPathComponent("Samples/hello.wav").path
    try await a.expect("record", "Planning", "--input", sample, "--fast")
    #expect(
      try await terminal.waitForScreen { $0.contains("Planning") && $0.contains("1 meeting") },
      "\((try? terminal.screen()) ?? "")")
    try terminal.keys("q")
    #expect(
      try await terminal.waitForScreen { $0.contains("EXIT=0") },
      "\((try? terminal.screen()) ?? "")")
    #expect(b.value("SELECT count(*) FROM meeting") == 1)
  }

  /// What `make install` takes from both programs: each answers `--version` and writes its
  /// bash, zsh and fish completions.
  @Test func bothProgramsAnswerVersionAndCompletions() async throws {
    for program in [syncupsBinary, TeamFixture.serverBinary] {
      let name = program.lastPathComponent
      let version = try await TeamFixture.tool(program.path, ["--version"])
      #expect(!version.isEmpty && version.split(separator: "\n").count == 1, "\(name): \(version)")
      for shell in ["bash", "zsh", "fish"] {
        let script = try await TeamFixture.tool(
          program.path, ["--generate-completion-script", shell])
        #expect(script.contains(name), "\(name) \(shell)")
        #expect(script.count > 500, "\(name) \(shell): \(script.prefix(200))")
      }
    }
  }

  /// A reader's laptop pulls what others push; its own changes are refused (403), said in its
  /// one line, and stay on the laptop, waiting; the server keeps nothing of them.
  @Test func aReaderPullsButItsOwnChangesStayOnItsLaptop() async throws {
    let team = try await TeamFixture.start()
    defer { team.stop() }
    try await team.serverCommand("user", "add", "ben", "--role", "reader")
    let created = try await TeamFixture.tool(
      TeamFixture.serverBinary.path, ["token", "create", "ben"],
      environment: ["SYNCUPS_DATABASE_URL": team.databaseURL])
    let readerToken = String(created.split(separator: "\n").last ?? "")
    let a = try team.laptop()
    let b = try team.laptop()
    try await a.expect("team", "join", team.url, "--token", team.writerToken)
    try await b.expect("team", "join", team.url, "--token", readerToken)
    try await a.expect("add", "--title", "Retro", "--attendee", "Ana")
    try await a.expect("sync")
    try await b.expect("add", "--title", "Notes", "--attendee", "Ben")
    let synced = try await b.run("sync")
    #expect(synced.status == 0, "\(synced)")
    #expect(synced.stdout.split(separator: "\n").count == 1, "\(synced)")
    #expect(synced.stdout.hasPrefix("pulled 1 sync-up; "), "\(synced)")
    #expect(synced.stdout.contains("ben may read but not push"), "\(synced)")
    #expect(try await team.psql("SELECT count(*) FROM sync_up") == "1")
    #expect(try await b.expect("team", "status").stdout.contains("changes waiting: 1"))
  }

  /// A wrong token, then a revoked one: one line each, nothing lost.
  @Test func aWrongOrRevokedTokenIsOneLine() async throws {
    let team = try await TeamFixture.start()
    defer { team.stop() }
    let a = try team.laptop()
    let wrong = try await a.run("team", "join", team.url, "--token", "not-the-token")
    #expect(wrong.status != 0)
    #expect(wrong.stderrLines.count == 1, "\(wrong)")
    #expect(wrong.stderr.contains("refused the token"), "\(wrong)")
    try await a.expect("team", "join", team.url, "--token", team.writerToken)
    try await a.expect("add", "--title", "Planning", "--attendee", "Ana")
    try await team.serverCommand("token", "revoke", "1")
    let revoked = try await a.run("sync")
    #expect(revoked.status != 0)
    #expect(revoked.stderrLines.count == 1, "\(revoked)")
    #expect(revoked.stderr.contains("refused the token"), "\(revoked)")
    #expect(revoked.stderr.contains("1 change waits"), "\(revoked)")
    #expect(!revoked.stderr.contains(team.writerToken))
  }

  /// The server down, then back: one line, then the next sync pushes everything.
  @Test func aServerThatIsDownIsOneLineAndTheNextSyncCatchesUp() async throws {
    var team = try await TeamFixture.start()
    defer { team.stop() }
    let a = try team.laptop()
    try await a.expect("team", "join", team.url, "--token", team.writerToken)
    team.server.signal(SIGKILL)
    _ = await team.server.finished()
    try await a.expect("add", "--title", "Offline", "--attendee", "Ana")
    let down = try await a.run("sync")
    #expect(down.status != 0)
    #expect(down.stderrLines.count == 1, "\(down)")
    try await team.restart()
    let back = try await a.expect("sync")
    #expect(back.stdout.hasPrefix("pushed 1 sync-up"), "\(back)")
  }
}
