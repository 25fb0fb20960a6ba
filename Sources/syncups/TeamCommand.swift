import ArgumentParser
import Foundation
import SyncClient
import SyncUpsCLI
import TeamSync

/// `syncups team join|status|retry|leave`: the team server this data directory syncs with.
struct TeamCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "team",
    abstract: "Join, show or leave the team server this data directory syncs with.",
    discussion: """
      A team belongs to the data directory it syncs: its server and token are kept in \
      team.json there ($SYNCUPS_HOME, else $XDG_DATA_HOME/syncups or ~/.local/share/syncups), \
      readable only by you. Another data directory (another SYNCUPS_HOME) has joined nothing \
      until it joins. A team joined by an earlier version, kept in \
      $XDG_CONFIG_HOME/syncups/team.json (else ~/.config/syncups), moves once into the default \
      data directory, the one it synced, at the first sync or team command that uses it (said \
      in one line); a data directory SYNCUPS_HOME names never takes it.
      """,
    subcommands: [
      TeamJoinCommand.self, TeamStatusCommand.self, TeamRetryCommand.self, TeamLeaveCommand.self,
    ]
  )
}

extension TeamFile {
  /// The team this data directory joined, or nil. A team file an earlier version kept in the
  /// config folder moves into the default data directory first (said in one line when `say`:
  /// the interactive app's screen has no room for it).
  static func current(say: Bool = true) throws(CLIError) -> Contents? {
    do {
      if let former = try TeamFile.adoptFormer(), say {
        Console.error(
          "the team you joined is now kept with the data it syncs: moved \(former.url.path) to "
            + "\(TeamFile.resolve().url.path) (a data directory SYNCUPS_HOME names joins on its "
            + "own)")
      }
      return try TeamFile.resolve().read()
    } catch {
      throw CLIError(error.description)
    }
  }

  /// The team this data directory joined, or one line saying how to join one.
  static func joined() throws(CLIError) -> Contents {
    guard let contents = try current() else {
      throw CLIError(
        "this laptop is in no team: run 'syncups team join URL --token TOKEN' first")
    }
    return contents
  }
}
