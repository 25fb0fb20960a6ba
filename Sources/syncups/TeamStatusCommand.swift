import ArgumentParser
import Foundation
import SyncUpsCLI
import SyncUpsFeatures
import TeamSync

/// `syncups team status`: the server, the person, the last sync and the changes waiting, from
/// this laptop alone (it never waits on the server).
struct TeamStatusCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "status",
    abstract: "Show the team server, who you are there, the last sync and what waits."
  )

  func run() async throws {
    let team = try TeamFile.joined()
    let data = try await CommandDatabase.open()
    let status: TeamSyncStatus
    do {
      status = try TeamSyncStatus.read(data.database)
    } catch {
      throw CLIError("cannot read the sync's state: \(error)")
    }
    let person =
      team.person.map { $0 + (team.role.map { " (\($0))" } ?? "") }
      ?? "not told by this server (the token is checked)"
    var lines = [
      "server: \(team.url.absoluteString)",
      "person: \(person)",
    ]
    if let name = team.teamName { lines.append("team: \(name)") }
    lines += [
      "last sync: \(status.lastSync.map(Format.date) ?? "never")",
      "changes waiting: \(status.waiting)",
    ]
    if let problem = status.lastProblem { lines.append("last sync failed: \(problem)") }
    if let skipped = status.lastSkipped {
      lines.append("left out from the server (breaks the rules): \(skipped)")
    }
    if !status.setAside.isEmpty {
      lines.append(
        "set aside, refused by the team server for good and kept here (change one, or run "
          + "'syncups team retry', to try again):")
      lines += status.setAside.map { "  \($0.what): \($0.reason)" }
    }
    // The person, role and problem are the server's words: shown, never obeyed.
    try Console.out(lines.map(\.visible).joined(separator: "\n") + "\n")
  }
}
