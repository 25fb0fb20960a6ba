import ArgumentParser
import Foundation
import SyncUpsCLI
import SyncUpsFeatures

// `list`, `show`, `add`, `edit`, `delete`: every one opens the database through `SyncUpsStore`,
// so a database that cannot be opened is one line, and a failed write is said, never claimed.

struct ListCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "list", abstract: "List the sync-ups."
  )

  @Flag(
    help: "Print JSON: an array of {id, title, theme, duration (seconds), attendees, meetings}.")
  var json = false

  @MainActor func run() async throws {
    let data = try await SyncUpsStore.open()
    let syncUps = data.syncUps.wrappedValue
    output(json ? Listing.listJSON(syncUps) : Listing.list(syncUps))
  }
}

struct ShowCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "show", abstract: "Show one sync-up: attendees, durations, meetings."
  )

  @Argument(help: "The sync-up: the start of its id, or its title (any case).")
  var ref: String

  @Flag(help: "Print JSON.")
  var json = false

  @MainActor func run() async throws {
    let syncUp = try await SyncUpsStore.open().resolve(ref).wrappedValue
    output(json ? Listing.showJSON(syncUp) : Listing.show(syncUp))
  }
}

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

  @Option(help: "How long the meeting lasts: 5m, 90s, 1m30s or seconds (default 5m).")
  var duration: String?

  @Option(help: "The colour theme (default bubblegum), any case: \(themeNames).")
  var theme: String?

  @MainActor func run() async throws {
    let duration = try duration.map { (text) throws(CLIError) in try Parse.duration(text) }
    let theme = try theme.map { (text) throws(CLIError) in try Parse.theme(text) }
    let data = try await SyncUpsStore.open()
    let syncUp = try Editing.add(
      title: title, attendees: attendees, duration: duration, theme: theme, in: data
    )
    output(syncUp.fullID + "\n")
  }
}

struct EditCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "edit", abstract: "Change a sync-up's title, attendees, duration or theme."
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

  @Option(help: "A new duration: 5m, 90s, 1m30s or seconds.")
  var duration: String?

  @Option(help: "A new theme: \(themeNames).")
  var theme: String?

  @MainActor func run() async throws {
    let changes = Editing.Changes(
      title: title,
      addAttendees: addAttendee,
      removeAttendees: removeAttendee,
      duration: try duration.map { (text) throws(CLIError) in try Parse.duration(text) },
      theme: try theme.map { (text) throws(CLIError) in try Parse.theme(text) }
    )
    let data = try await SyncUpsStore.open()
    let edited = try Editing.edit(try data.resolve(ref), changes, in: data)
    output(Listing.show(edited))
  }
}

struct DeleteCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "delete", abstract: "Delete a sync-up and all its meetings."
  )

  @Argument(help: "The sync-up: the start of its id, or its title (any case).")
  var ref: String

  @Flag(help: "Do not ask for confirmation (needed when there is no terminal to ask on).")
  var yes = false

  @MainActor func run() async throws {
    let data = try await SyncUpsStore.open()
    let syncUp = try data.resolve(ref)
    let label = syncUp.wrappedValue.label
    let meetings = syncUp.wrappedValue.meetings.count
    if !yes {
      guard isatty(STDIN_FILENO) == 1 else {
        throw CLIError(
          "not deleting \(label) without confirmation: there is no terminal to ask on; add --yes")
      }
      let what =
        meetings == 0 ? "" : meetings == 1 ? " and its meeting" : " and its \(meetings) meetings"
      FileHandle.standardError.write(Data("Delete \(label)\(what)? [y/N] ".utf8))
      let answer = readLine()?.trimmingCharacters(in: .whitespaces).lowercased() ?? ""
      guard answer == "y" || answer == "yes" else {
        throw CLIError("not deleted: \(label) is unchanged")
      }
    }
    try await Editing.delete(syncUp, in: data)
    output("Deleted \(label).\n")
  }
}

let themeNames = Theme.allCases.map(\.rawValue).joined(separator: ", ")

/// Everything a command prints for the user goes to stdout in one write.
func output(_ text: String) {
  FileHandle.standardOutput.write(Data(text.utf8))
}
