import ArgumentParser
import Foundation
import SyncUpsCLI
import SyncUpsFeatures

struct EditCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "edit",
    abstract: "Change a sync-up's title, attendees, duration, theme or vocabulary."
  )

  @Argument(help: "The sync-up: the start of its id, or its title (any case).")
  var ref: String

  @Option(help: "A new title.")
  var title: String?

  @Option(help: ArgumentHelp("Add an attendee (repeatable).", valueName: "name"))
  var addAttendee: [String] = []

  @Option(
    help: ArgumentHelp("Remove an attendee by name, any case (repeatable).", valueName: "name"))
  var removeAttendee: [String] = []

  @Option(parsing: .unconditional, help: "A new duration: 5m, 90s, 1m30s or seconds.")
  var duration: String?

  @Option(help: "A new theme: \(themeNames).")
  var theme: String?

  @Option(
    help: ArgumentHelp(
      "Add a word or phrase the team uses, for transcription (repeatable).", valueName: "term"))
  var addWord: [String] = []

  @Option(
    help: ArgumentHelp("Remove a vocabulary word, any case (repeatable).", valueName: "term"))
  var removeWord: [String] = []

  @MainActor func run() async throws {
    let changes = Editing.Changes(
      title: title,
      addAttendees: addAttendee,
      removeAttendees: removeAttendee,
      duration: try duration.map { (text) throws(CLIError) in try Parse.duration(text) },
      theme: try theme.map { (text) throws(CLIError) in try Parse.theme(text) },
      addWords: addWord,
      removeWords: removeWord
    )
    let data = try await EditableSyncUps.open()
    let edited = try Editing.edit(try data.resolve(ref), changes, in: data)
    try Console.out(Listing.show(edited), saved: "the change to \(edited.label)")
  }
}
