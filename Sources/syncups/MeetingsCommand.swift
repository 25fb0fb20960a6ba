import ArgumentParser
import Foundation
import SyncUpsCLI
import SyncUpsFeatures

struct MeetingsCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "meetings", abstract: "List a sync-up's meetings, newest (1) first."
  )

  @Argument(help: "The sync-up: the start of its id, or its title (any case).")
  var ref: String

  // Unconditional: "--limit -3" is a wrong number (said as such), not a missing value.
  @Option(parsing: .unconditional, help: "At most this many, newest first (default: 20).")
  var limit: Int?

  @Flag(help: "Every meeting (a year of daily meetings is some 250).")
  var all = false

  @Flag(help: "Print JSON: an array of {index, id, date, length, segments, firstWords}.")
  var json = false

  @MainActor func run() async throws {
    let limit = try limit.map { value throws(CLIError) in try Parse.limit(value) }
    if all, limit != nil { throw CLIError("--all and --limit do not go together: give one") }
    let data = try await CommandDatabase.open()
    let syncUp = try data.syncUp(ref)
    let meetings = try data.read(
      MeetingSummariesRequest(syncUpID: syncUp.id, limit: all ? nil : limit ?? 20),
      "the meetings")
    try Console.out(json ? Listing.meetingsJSON(meetings) : Listing.meetings(syncUp, meetings))
    // The list holds every finished meeting's id: the count costs no query.
    let total = max(syncUp.meetings.count, meetings.count)
    if meetings.count < total {
      Console.error(
        "showing the newest \(meetings.count) of \(total) meetings; "
          + "--all lists every one, --limit N the newest N")
    }
  }
}
