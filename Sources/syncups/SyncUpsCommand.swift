import ArgumentParser
import Foundation
import SyncUpsCLI

/// `syncups`: the root command. Later features add their subcommands to the list.
@main
struct SyncUpsCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "syncups",
    abstract: "Stand-up meetings with real speech transcription.",
    subcommands: [
      TranscribeCommand.self,
      RecordCommand.self,
    ]
  )

  /// Every failure is one line on stderr, "syncups: what is wrong; what to do", and exit 1.
  static func main() async {
    do {
      var command = try parseAsRoot()
      if var command = command as? any AsyncParsableCommand {
        try await command.run()
      } else {
        try command.run()
      }
    } catch let error as CLIError {
      FileHandle.standardError.write(Data("syncups: \(error.message)\n".utf8))
      Self.exit(withError: ExitCode.failure)
    } catch {
      exit(withError: error)
    }
  }
}
