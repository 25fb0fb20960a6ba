import ArgumentParser
import Foundation
import SyncUpsCLI
import SyncUpsFeatures

struct ShowCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "show",
    abstract: "Show one sync-up: attendees, what is known of them and of their words, meetings."
  )

  @Argument(help: "The sync-up: the start of its id, or its title (any case).")
  var ref: String

  @Flag(help: "Print JSON.")
  var json = false

  @MainActor func run() async throws {
    let database = try await CommandDatabase.open()
    let syncUp = try database.syncUp(ref)
    guard !json else { return try Console.out(Listing.showJSON(syncUp)) }
    let learned = try database.read(LearnedRequest(syncUpID: syncUp.id), "what is known")
    try Console.out(Listing.show(syncUp, learned: learned))
  }
}
