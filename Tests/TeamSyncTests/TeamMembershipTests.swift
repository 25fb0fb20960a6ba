import Foundation
import SyncUpsTestSupport
import TestSupport
import Testing

@testable import TeamSync

/// A team belongs to the data directory it syncs (`team.json` in it): another data directory
/// has joined nothing, a team file an earlier version kept in the config folder moves once into
/// the default data directory only, and the suite never reaches the team of the machine it
/// runs on.
@Suite("Team sync: a team belongs to its data directory")
struct TeamMembershipTests {
  typealias Home = TeamCommandTests.Home

  /// `SYNCUPS_HOME=~/scratch syncups ...` on a laptop that joined a team: the scratch data is
  /// in no team, and nothing of it reaches the server.
  @Test func anotherDataDirectoryHasJoinedNothing() async throws {
    let home = try Home()
    defer { home.folder.remove() }
    let server = try HTTPTeamServer(respond: HostileTransportTests.team())
    defer { server.close() }
    #expect(try await home.run("team", "join", server.url, "--token", "t").status == 0)
    let asked = server.requests.count
    var scratch = home.environment
    scratch["SYNCUPS_HOME"] = home.folder.file("scratch").path
    let sample = samples.appendingPathComponent("hello.wav").path
    for arguments in [
      ["add", "--title", "Scratch", "--attendee", "Ana"],
      ["record", "Scratch", "--input", sample, "--fast", "--no-transcription"],
    ] {
      let run = try await runSyncups(arguments, environment: scratch)
      #expect(run.status == 0, "\(run)")
    }
    let sync = try await runSyncups(["sync"], environment: scratch)
    #expect(sync.status != 0, "\(sync)")
    #expect(sync.stderr.contains("this laptop is in no team"), "\(sync)")
    #expect(try await runSyncups(["team", "status"], environment: scratch).status != 0)
    #expect(server.requests.count == asked, "the scratch data went to the team")
    #expect(try await home.run("team", "status").status == 0)
  }

  /// `$XDG_CONFIG_HOME/syncups/team.json`, as an earlier version kept it: the default data
  /// directory takes it (said once, in one line), mode 0600; a `SYNCUPS_HOME` never does.
  @Test func aTeamFileInTheConfigFolderMovesOnceIntoTheDefaultDataDirectoryOnly() async throws {
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    let home = folder.file("home")
    let machine = [
      "HOME": home.path, "XDG_CONFIG_HOME": home.appendingPathComponent(".config").path,
      "SYNCUPS_SYNC_TIMEOUT": "1",
    ]
    let former = home.appendingPathComponent(".config/syncups/team.json")
    let moved = home.appendingPathComponent(".local/share/syncups/team.json")
    try TeamFile(url: former).write(
      .init(url: URL(string: "http://127.0.0.1:9")!, token: "secret-1", person: "ana"))
    var scratch = machine
    scratch["SYNCUPS_HOME"] = folder.file("scratch").path
    let elsewhere = try await runSyncups(["team", "status"], environment: scratch)
    #expect(elsewhere.status != 0, "\(elsewhere)")
    #expect(FileManager.default.fileExists(atPath: former.path))
    let status = try await runSyncups(["team", "status"], environment: machine)
    #expect(status.status == 0, "\(status)")
    #expect(status.stdout.contains("server: http://127.0.0.1:9\n"), "\(status)")
    #expect(
      status.stderrLines == [
        "syncups: the team you joined is now kept with the data it syncs: moved \(former.path) "
          + "to \(moved.path) (a data directory SYNCUPS_HOME names joins on its own)"
      ], "\(status)")
    #expect(!FileManager.default.fileExists(atPath: former.path))
    let attributes = try FileManager.default.attributesOfItem(atPath: moved.path)
    #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
    let again = try await runSyncups(["team", "status"], environment: machine)
    #expect(again.status == 0 && again.stderr.isEmpty, "\(again)")
  }

  /// The suite on a machine that joined a team (in its config folder, as an earlier version
  /// kept it, and in its default data directory): what the test support gives every program a
  /// test starts (`TestHome`), then what the suite runs, with and without `SYNCUPS_HOME`.
  /// Nothing reaches that team.
  @Test func theSuiteSendsNothingToTheTeamOfTheMachineItRunsOn() async throws {
    let server = try HTTPTeamServer(respond: HostileTransportTests.team())
    defer { server.close() }
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    let machine = ["HOME": folder.file("machine").path]
    let team = TeamFile.Contents(url: URL(string: server.url)!, token: "secret-1", person: "ana")
    for joined in [".config/syncups/team.json", ".local/share/syncups/team.json"] {
      try TeamFile(url: folder.file("machine/" + joined)).write(team)
    }
    func run(_ arguments: String..., data: URL?) async throws -> SyncupsRun {
      var environment = machine
      environment["SYNCUPS_HOME"] = data?.path
      return try await runSyncups(arguments, environment: TestHome.seal(environment, real: machine))
    }
    let data = folder.file("data")
    let sample = samples.appendingPathComponent("hello.wav").path
    #expect(try await run("add", "--title", "Daily", "--attendee", "Ana", data: data).status == 0)
    #expect(try await run("record", "Daily", "--input", sample, "--fast", data: data).status == 0)
    #expect(try await run("list", data: data).status == 0)
    #expect(try await run("add", "--title", "Planning", "--attendee", "Ben", data: nil).status == 0)
    // Either data directory is in no team (one that reached the machine's would sync with it).
    for data in [data, nil] {
      let sync = try await run("sync", data: data)
      #expect(sync.stderr.contains("this laptop is in no team"), "\(sync)")
      #expect(try await run("team", "status", data: data).status != 0)
    }
    #expect(server.requests.isEmpty, "\(server.requests.map(\.target))")
    #expect(try TeamFile(url: folder.file("machine/.config/syncups/team.json")).read() == team)
  }
}
