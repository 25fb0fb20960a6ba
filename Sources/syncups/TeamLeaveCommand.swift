import ArgumentParser
import Foundation
import SyncUpsCLI
import TeamSync

/// `syncups team leave`: forgets the server and its token; this laptop's data stays.
struct TeamLeaveCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "leave",
    abstract: "Forget the team server and its token (your sync-ups and meetings stay here)."
  )

  func run() async throws {
    let team = try TeamFile.joined()
    do {
      _ = try TeamFile.resolve().remove()
    } catch {
      throw CLIError(error.description)
    }
    try Console.out(
      "Left \(team.url.absoluteString.visible); your sync-ups and meetings stay on this "
        + "laptop\n")
  }
}
