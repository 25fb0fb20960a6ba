import ArgumentParser
import Foundation
import SyncClient
import SyncClientLive
import SyncUpsCLI
import SyncUpsFeatures
import TeamSync

/// `syncups sync`: pushes what changed here, pulls what changed on the team's server, and
/// says in one line what moved. When the server is down, unreachable or slow: one line, a
/// non-zero exit, nothing lost; the next sync goes on from where this one stopped.
struct SyncCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "sync",
    abstract: "Push this laptop's changes to the team server and pull the others'."
  )

  @Option(help: "Wait up to this many seconds (at most 60) for others' changes.")
  var wait = 0

  @Flag(help: "Say nothing when it works (how 'record' runs it after a meeting is saved).")
  var quiet = false

  func validate() throws {
    guard (0...60).contains(wait) else { throw ValidationError("--wait takes 0 to 60 seconds") }
  }

  func run() async throws {
    @Dependency(\.teamLearning) var teamLearning
    let team = try TeamFile.joined()
    let data = try await CommandDatabase.open()
    try data.checkWritable()
    @Dependency(\.syncClient) var client
    // What was pulled (others' meetings and corrections) teaches the sync-ups it changed.
    let sync = TeamSync(database: data.database, team: team.team, client: client) {
      try? await teamLearning.learnWordsOf($0)
    }
    do {
      // `record`'s own sync leaves when another runs; one asked for waits for it.
      let report = try await sync.run(wait: wait, waitForOthers: !quiet)
      TeamSyncStatus.recordProblem(nil, data.database)
      // The line may hold the server's words (why it refused a push): shown, never obeyed.
      if !quiet {
        try Console.out(report.line.visible + "\n")
      } else if !report.setAside.isEmpty {
        // Said once, even by a quiet sync: what the server refused for good stays here.
        Console.error(
          "the team server refuses for good, set aside here ('syncups team status' lists "
            + "them): " + report.setAside.joined(separator: "; ").visible)
      }
    } catch let error as CLIError {
      throw error
    } catch let busy as TeamSync.Busy {
      if quiet { return }
      throw CLIError(busy.description + "; try again in a moment")
    } catch {
      TeamSyncStatus.recordProblem("\(error)", data.database)
      let waiting = (try? TeamSyncStatus.read(data.database).waiting) ?? 0
      let wait = waiting == 1 ? "1 change waits" : "\(waiting) changes wait"
      throw CLIError(
        "cannot sync with \(team.url.absoluteString): \(error); nothing was lost: "
          + "\(wait) for the next sync")
    }
  }
}
