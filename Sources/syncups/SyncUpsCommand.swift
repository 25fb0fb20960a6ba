import ArgumentParser

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
}
