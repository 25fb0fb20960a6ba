import ArgumentParser
import AudioCaptureClient
import AudioCaptureClientLive
import AudioFilesClientLive
import Foundation
import Sharing
import SyncUpsCLI
import SyncUpsFeatures
import SyncUpsVersion
import TranscriptionClientLive

/// `syncups`: the root command. Later features add their subcommands to the list.
@main
struct SyncUpsCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "syncups",
    abstract: "Stand-up meetings with real speech transcription.",
    discussion: "Run without arguments on a terminal for the interactive app.",
    version: SyncUpsVersion.current,
    subcommands: [
      ListCommand.self,
      ShowCommand.self,
      AddCommand.self,
      EditCommand.self,
      DeleteCommand.self,
      ForgetCommand.self,
      MeetingsCommand.self,
      TranscriptCommand.self,
      CorrectCommand.self,
      RecordCommand.self,
      SourcesCommand.self,
      TranscribeCommand.self,
      SearchCommand.self,
      ExportCommand.self,
      ImportCommand.self,
      SentencesCommand.self,
      TeamCommand.self,
      SyncCommand.self,
      DigestCommand.self,
      BlockersCommand.self,
    ]
  )

  /// Runs the command with the live dependencies (even when started by a test runner, whose
  /// environment would otherwise select test values), and ends every failure the same way:
  /// one line on stderr, a non-zero exit. Commands that drive features' stores run their
  /// `run()` on the main actor. The database a command opened is closed before it exits.
  static func main() async {
    // SIGHUP (the terminal closed) and SIGQUIT end a command as Ctrl-C does: what it records is
    // saved, its temporary files go, and nothing dumps core.
    Termination.installHandlers()
    do {
      try await withDependencies {
        $0.context = .live
        $0.dataDirectory = .resolve()
        $0.audioCapture = .liveValue
      } operation: {
        // No arguments on a terminal: the interactive app. Without a terminal: the help, as before.
        if CommandLine.arguments.count == 1, Terminal.isInteractive {
          try await runInteractiveApp()
          return
        }
        var command = try parseAsRoot()
        if var asyncCommand = command as? any AsyncParsableCommand {
          try await asyncCommand.run()
        } else {
          try command.run()
        }
      }
    } catch {
      exit(reporting: error)
    }
    CommandDatabase.closeOpened()
  }

  @MainActor
  private static func runInteractiveApp() async throws {
    let app = try InteractiveApp()
    // Others' meetings arrive while it runs (when this laptop joined a team): see AppSync.
    let sync = AppSync.start()
    defer { sync?.cancel() }
    try await app.run()
  }

  /// Help and --version go to stdout with status 0; errors are one line on stderr.
  static func exit(reporting error: any Error) -> Never {
    CommandDatabase.closeOpened()
    let code = exitCode(for: error)
    if let error = error as? CLIError {
      Console.error(error.message)
      Foundation.exit(EXIT_FAILURE)
    }
    if code == .success, let misread = misreadAsHelp() {
      let words = CommandLine.arguments.dropFirst().prefix { !$0.hasPrefix("-") }
      Console.error(
        "unknown option '\(misread)'; a value that starts with '-' goes after '--' "
          + "(syncups \((words + ["--", misread]).joined(separator: " ")))" + usageHint(for: error))
      Foundation.exit(ExitCode.validationFailure.rawValue)
    }
    if code == .success {
      try? Console.out(fullMessage(for: error) + "\n")
      Foundation.exit(0)
    }
    let text = message(for: error)
    if !text.isEmpty {
      let first = text.split(separator: "\n").first.map(String.init) ?? text
      Console.error(first + usageHint(for: error))
    }
    Foundation.exit(code.rawValue)
  }

  /// The argument the parser took for a group of short flags with `-h` in it (`search -hello`
  /// is `-h -e -l -l -o`: the help) when nobody asked for help: it is a mistake, not a request.
  private static func misreadAsHelp() -> String? {
    let arguments = CommandLine.arguments.dropFirst().prefix { $0 != "--" }
    guard !arguments.contains(where: { ["-h", "--help", "help"].contains($0) }) else { return nil }
    return arguments.first { $0.hasPrefix("-") && !$0.hasPrefix("--") && $0.count > 2 }
  }

  /// Where to read more, for mistakes in the command line itself.
  private static func usageHint(for error: any Error) -> String {
    guard error is ExitCode == false else { return "" }
    let words = CommandLine.arguments.dropFirst().prefix { !$0.hasPrefix("-") }
    guard let name = words.first,
      configuration.subcommands.contains(where: { $0._commandName == name })
    else { return " (see 'syncups --help')" }
    return " (see 'syncups \(name) --help')"
  }
}
