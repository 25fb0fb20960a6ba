import ArgumentParser
import Foundation
import SyncUpsCLI
import SyncUpsFeatures

struct AddCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "add", abstract: "Add a sync-up; prints its id."
  )

  @Option(help: "The title.")
  var title: String

  @Option(
    name: .customLong("attendee"),
    help: ArgumentHelp("An attendee's name (repeat for each).", valueName: "name"))
  var attendees: [String] = []

  // Unconditional: "--duration -1" is a wrong duration (said as such), not a missing value.
  @Option(
    parsing: .unconditional,
    help: "How long the meeting lasts: 5m, 90s, 1m30s or seconds (default 5m).")
  var duration: String?

  @Option(help: "The colour theme (default bubblegum), any case: \(themeNames).")
  var theme: String?

  @Option(
    name: .customLong("word"),
    help: ArgumentHelp(
      "A word or phrase the team uses, for transcription (repeatable).", valueName: "term"))
  var words: [String] = []

  @MainActor func run() async throws {
    let duration = try duration.map { (text) throws(CLIError) in try Parse.duration(text) }
    let theme = try theme.map { (text) throws(CLIError) in try Parse.theme(text) }
    let data = try await CommandDatabase.open()
    let syncUp = try Editing.add(
      title: title, attendees: attendees, duration: duration, theme: theme, words: words,
      in: data
    )
    try Console.out(syncUp.id.full + "\n", saved: "sync-up \(syncUp.label)")
  }
}

let themeNames = Theme.allCases.map(\.rawValue).joined(separator: ", ")
