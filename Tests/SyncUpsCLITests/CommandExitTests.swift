import Foundation
import GRDB
import SyncUpsFeatures
import SyncUpsTestSupport
import Testing

/// How every command ends: the database closed with its log emptied, so no command pays for
/// another's; and a stdout that cannot be written is one line saying whether the change was
/// saved, never a crash.
@Suite("syncups: how a command ends")
struct CommandExitTests {
  /// `syncups ARGUMENTS` with its stdout on `/dev/full` (every write fails with ENOSPC).
  func runToAFullDisk(_ home: Home, _ arguments: [String]) async throws -> Run {
    try await runSyncups(
      arguments, environment: ["SYNCUPS_HOME": home.url.path],
      launcher: ["/bin/sh", "-c", #"exec "$0" "$@" >/dev/full"#])
  }

  @Test func addToAFullStdoutSaysTheSyncUpWasSavedInOneLine() async throws {
    let home = try Home()
    let run = try await runToAFullDisk(home, ["add", "--title", "Closed", "--attendee", "A"])
    expectOneLineFailure(
      run, containing: ["sync-up 'Closed' (", "was saved", "the disk is full"])
    #expect(run.status == 1, "\(run)")
    #expect(try home.load().map(\.title) == ["Closed"])
    // Said once, saved once: nothing to run again.
    #expect(
      try await home.run("list", "--json").stdout.components(separatedBy: "Closed").count == 2)
  }

  /// `record >/dev/full`: the meeting is saved once and the last line
  /// says so; the exit status says the output was lost.
  @Test func recordToAFullStdoutSaysTheMeetingWasSaved() async throws {
    let home = try Home()
    let id = try await home.add("Full")
    let run = try await runToAFullDisk(
      home,
      ["record", id, "--input", samples.appendingPathComponent("hello.wav").path, "--fast"])
    #expect(run.status == 1, "\(run)")
    let last = try #require(run.stderrLines.last, "\(run)")
    #expect(last.hasPrefix("syncups: meeting "), "\(run)")
    #expect(last.contains("was saved, but its output could not be written"), "\(run)")
    for internals in ["Fatal error", "Backtrace", "NSCocoaErrorDomain"] {
      #expect(!run.stderr.contains(internals), "\(run)")
    }
    #expect(try await home.meetings(id).count == 1)
  }

  @Test(arguments: [["list"], ["list", "--json"], ["show", "daily"], ["meetings", "daily"]])
  func aReadToAFullStdoutIsOneLine(_ arguments: [String]) async throws {
    let home = try Home()
    try home.update { $0 = [DatabaseCommandTests.daily] }
    let before = try home.load()
    let run = try await runToAFullDisk(home, arguments)
    expectOneLineFailure(run, containing: ["cannot write the output (the disk is full)"])
    #expect(!run.stderr.contains("was saved"), "\(run)")
    #expect(try home.load() == before)
  }

  /// After any command what its log held is in the database file and the log starts over (an
  /// import's was tens of megabytes), so the next command does not read it again.
  @Test func everyCommandLeavesNoLogBehind() async throws {
    let home = try Home()
    try DatabaseCommandTests.formatOneFile([DatabaseCommandTests.daily]).write(to: home.dataFile)
    let log = home.dataDirectory.databaseFile.path + "-wal"
    for arguments in [
      ["list"], ["add", "--title", "Weekly", "--attendee", "Ana"], ["show", "daily"],
      ["edit", "weekly", "--add-attendee", "Ben"], ["meetings", "daily"],
      ["transcript", "daily"], ["search", "the"], ["export"], ["delete", "weekly", "--yes"],
    ] {
      let run = try await home.run(arguments)
      #expect(run.status == 0 || arguments[0] == "search", "\(arguments): \(run)")
      // What a checkpoint finds in the log: the one page the closing command wrote.
      let queue = try DatabaseQueue(path: home.dataDirectory.databaseFile.path)
      let frames = try await queue.writeWithoutTransaction { db in try db.checkpoint().walFrameCount
      }
      try queue.close()
      #expect(frames <= 1, "\(arguments) left \(frames) pages in the log")
      let size = (try? FileManager.default.attributesOfItem(atPath: log)[.size] as? Int) ?? 0
      #expect(size <= 4 * 1024 * 1024 + 65536, "\(arguments) left a \(size)-byte log")
    }
  }
}
