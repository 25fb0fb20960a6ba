import ArgumentParser
import Foundation
import SyncUpsCLI
import SyncUpsFeatures

struct ListCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "list", abstract: "List the sync-ups."
  )

  @Flag(
    help: "Print JSON: an array of {id, title, theme, duration (seconds), attendees, meetings}.")
  var json = false

  @MainActor func run() async throws {
    let syncUps = try await CommandDatabase.open().syncUps()
    try Console.out(json ? Listing.listJSON(syncUps) : Listing.list(syncUps))
  }
}
