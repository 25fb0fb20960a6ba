import ArgumentParser
import Foundation
import SyncClient
import SyncUpsCLI
import TeamSync

/// `syncups team join|status|leave`: the team server this laptop syncs with.
struct TeamCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "team",
    abstract: "Join, show or leave the team server this laptop syncs with.",
    subcommands: [TeamJoinCommand.self, TeamStatusCommand.self, TeamLeaveCommand.self]
  )
}

extension TeamFile {
  /// The team this laptop joined, or one line saying how to join one.
  static func joined() throws(CLIError) -> Contents {
    let file = TeamFile.resolve()
    let contents: Contents?
    do {
      contents = try file.read()
    } catch {
      throw CLIError(error.description)
    }
    guard let contents else {
      throw CLIError(
        "this laptop is in no team: run 'syncups team join URL --token TOKEN' first")
    }
    return contents
  }
}
