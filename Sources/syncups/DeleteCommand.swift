import ArgumentParser
import Foundation
import SyncUpsCLI
import SyncUpsFeatures

struct DeleteCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "delete", abstract: "Delete a sync-up and all its meetings."
  )

  @Argument(help: "The sync-up: the start of its id, or its title (any case).")
  var ref: String

  @Flag(help: "Do not ask for confirmation (needed when there is no terminal to ask on).")
  var yes = false

  @MainActor func run() async throws {
    let data = try await EditableSyncUps.open()
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
      Console.raw("Delete \(label)\(what)? [y/N] ")
      let answer = readLine()?.trimmingCharacters(in: .whitespaces).lowercased() ?? ""
      guard answer == "y" || answer == "yes" else {
        throw CLIError("not deleted: \(label) is unchanged")
      }
    }
    try await Editing.delete(syncUp, in: data)
    try Console.out("Deleted \(label).\n", saved: "the deletion of \(label)")
  }
}
