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
    let database = try await CommandDatabase.open()
    let syncUp = try database.syncUp(ref)
    guard !json else { return try Console.out(Listing.showJSON(syncUp)) }
    let voices = try database.read(VoiceSummariesRequest(syncUpID: syncUp.id), "the voices known")
    try Console.out(Listing.show(syncUp, voices: voices))
  }
}
