import Foundation
import GRDB
import SyncUpsTestSupport
import TestSupport
import Testing

@testable import TeamSync

#if canImport(Glibc)
  import Glibc
#endif

/// `syncups team` and `syncups sync` without a server, or with one that is down or too slow:
/// one line each, a non-zero exit, nothing lost.
@Suite("Team sync: the commands when the server is not there")
struct TeamCommandTests {
  struct Home {
    let folder: TemporaryDirectory
    /// Seconds a request waits for the server (`SYNCUPS_SYNC_TIMEOUT`).
    var timeout = 1
    var environment: [String: String] {
      [
        "SYNCUPS_HOME": data.path,
        "XDG_CONFIG_HOME": folder.url.appendingPathComponent("config").path,
        "SYNCUPS_SYNC_TIMEOUT": String(timeout),
      ]
    }
    var data: URL { folder.url.appendingPathComponent("data") }
    /// The team file lives with the data it syncs.
    var teamFile: URL { data.appendingPathComponent("team.json") }

    init() throws { folder = try TemporaryDirectory() }

    func run(_ arguments: String...) async throws -> SyncupsRun {
      try await runSyncups(arguments, environment: environment)
    }

    /// A team file as `team join` writes it, for a server at `url`.
    func joined(_ url: String, token: String = "secret-token-1") throws {
      try TeamFile(url: teamFile).write(.init(url: URL(string: url)!, token: token, person: "ana"))
    }
  }

  @Test func syncWithoutATeamSaysHowToJoinOne() async throws {
    let home = try Home()
    defer { home.folder.remove() }
    let run = try await home.run("sync")
    #expect(run.status != 0)
    #expect(
      run.stderrLines == [
        "syncups: this laptop is in no team: run 'syncups team join URL --token TOKEN' first"
      ])
    #expect(try await home.run("team", "status").status != 0)
    #expect(try await home.run("team", "leave").status != 0)
  }

  @Test(arguments: [
    ["team", "join", "ftp://example.com", "--token", "abc"],
    ["team", "join", "not a url", "--token", "abc"],
    ["team", "join", "http://localhost:1", "--token", "has space"],
  ])
  func badInputToJoinIsOneLineAndWritesNothing(_ arguments: [String]) async throws {
    let home = try Home()
    defer { home.folder.remove() }
    let run = try await runSyncups(arguments, environment: home.environment)
    #expect(run.status != 0)
    #expect(run.stderrLines.count == 1, "\(run)")
    #expect(!FileManager.default.fileExists(atPath: home.teamFile.path))
  }

  @Test func joiningAServerThatIsDownWritesNothing() async throws {
    let home = try Home()
    defer { home.folder.remove() }
    let port = try closedPort()
    let run = try await home.run("team", "join", "http://127.0.0.1:\(port)", "--token", "abc")
    #expect(run.status != 0)
    #expect(run.stderrLines.count == 1, "\(run)")
    #expect(run.stderr.contains("cannot join"), "\(run)")
    #expect(!FileManager.default.fileExists(atPath: home.teamFile.path))
  }

  /// A server that is down, or one that accepts but never answers: one line, a non-zero exit,
  /// the changes still waiting, and the token never printed.
  @Test(arguments: ["down", "slow"])
  func aSyncThatCannotReachTheServerLosesNothing(_ kind: String) async throws {
    let home = try Home()
    defer { home.folder.remove() }
    let listener = kind == "slow" ? try SilentListener() : nil
    defer { listener?.close() }
    let port = try listener?.port ?? closedPort()
    try home.joined("http://127.0.0.1:\(port)")
    #expect(try await home.run("add", "--title", "Daily", "--attendee", "Ana").status == 0)
    let run = try await home.run("sync")
    #expect(run.status != 0)
    #expect(run.stderrLines.count == 1, "\(run)")
    #expect(run.stderr.contains("nothing was lost: 1 change waits"), "\(run)")
    if kind == "slow" { #expect(run.stderr.contains("did not answer within 1 s"), "\(run)") }
    let status = try await home.run("team", "status")
    #expect(status.status == 0, "\(status)")
    #expect(status.stdout.contains("changes waiting: 1"), "\(status)")
    #expect(status.stdout.contains("person: ana"), "\(status)")
    #expect(status.stdout.contains("last sync failed:"), "\(status)")
    #expect(!status.stdout.contains("secret-token-1") && !run.stderr.contains("secret-token-1"))
    // Every command still works offline.
    #expect(try await home.run("list").status == 0)
  }

  @Test func theTeamFileIsReadableOnlyByItsOwnerAndLeaveRemovesIt() async throws {
    let home = try Home()
    defer { home.folder.remove() }
    try home.joined("http://127.0.0.1:9")
    let attributes = try FileManager.default.attributesOfItem(atPath: home.teamFile.path)
    #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
    let left = try await home.run("team", "leave")
    #expect(left.status == 0, "\(left)")
    #expect(!FileManager.default.fileExists(atPath: home.teamFile.path))
    #expect(!left.stdout.contains("secret-token-1"))
  }

  @Test func searchTeamWithoutATeamIsOneLine() async throws {
    let home = try Home()
    defer { home.folder.remove() }
    let run = try await home.run("search", "--team", "staging")
    #expect(run.status != 0)
    #expect(run.stderrLines.count == 1, "\(run)")
  }
}

/// A port nothing listens on (bound, then closed).
func closedPort() throws -> Int {
  let listener = try SilentListener()
  let port = listener.port
  listener.close()
  return port
}

/// A TCP socket on 127.0.0.1 that accepts connections into its backlog and never answers: a
/// server that is too slow.
final class SilentListener: @unchecked Sendable {
  let fd: Int32
  let port: Int

  init() throws {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
    }
    guard bound == 0, listen(fd, 16) == 0 else { throw POSIXError(.EADDRINUSE) }
    _ = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
    }
    self.fd = fd
    port = Int(UInt16(bigEndian: address.sin_port))
  }

  func close() { Glibc.close(fd) }
}

/// `record` syncs by itself once the meeting is saved, without waiting for it: with the server
/// down the save works as ever, and the sync's failure is kept for `team status`.
@Suite("Team sync: record syncs by itself")
struct RecordSyncTests {
  @Test func recordSavesAsEverAndSyncsInTheBackground() async throws {
    let home = try TeamCommandTests.Home()
    defer { home.folder.remove() }
    try home.joined("http://127.0.0.1:\(try closedPort())")
    #expect(try await home.run("add", "--title", "Daily", "--attendee", "Ana").status == 0)
    let recorded = try await home.run(
      "record", "Daily", "--input", samples.appendingPathComponent("hello.wav").path, "--fast",
      "--no-transcription")
    #expect(recorded.status == 0, "\(recorded)")
    #expect(recorded.stdout.contains("Saved meeting"), "\(recorded)")
    #expect(recorded.stderr.isEmpty, "\(recorded)")
    var configuration = Configuration()
    configuration.readonly = true
    // The background sync writes this file meanwhile: opening it waits for its lock, as
    // `syncups` itself does, instead of failing with "database is locked".
    configuration.busyMode = .timeout(30)
    let database = try DatabaseQueue(
      path: home.folder.url.appendingPathComponent("data/syncups.sqlite").path,
      configuration: configuration)
    let failed = await waitUntil {
      let problem = try? database.read { db in
        try String.fetchOne(db, sql: "SELECT value FROM syncState WHERE key = 'lastProblem'")
      }
      return problem != nil
    }
    try database.close()
    #expect(failed, "record did not start a sync")
    let status = try await home.run("team", "status")
    #expect(status.stdout.contains("changes waiting: 2"), "\(status)")
    #expect(status.stdout.contains("last sync failed: cannot reach the team server"), "\(status)")
  }
}
