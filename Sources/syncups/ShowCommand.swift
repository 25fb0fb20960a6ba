import ArgumentParser
import Foundation
import SyncUpsCLI
import SyncUpsFeatures

struct ShowCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "show", abstract: "Show one sync-up: attendees, durations, meetings."
  )

  @Argument(help: "The sync-up: the start of its id, or its title (any case).")
  var ref: String

  @Flag(help: "Print JSON.")
  var json = false

  @MainActor func run() async throws {
    let syncUp = try await CommandDatabase.open().syncUp(ref)
    try Console.out(json ? Listing.showJSON(syncUp) : Listing.show(syncUp))
  }
}
