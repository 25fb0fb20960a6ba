import ArgumentParser
import AudioCaptureClient
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
    let store = try await SyncUpsStore.open()
    let syncUp = try store.resolve(ref).wrappedValue
    let request = MeetingSummariesRequest(syncUpID: syncUp.id, limit: all ? nil : limit ?? 20)
    let meetings: [MeetingSummary]
    do {
      meetings = try await store.database.writer.read { db in try request.fetch(db) }
    } catch {
      throw CLIError("cannot read the meetings: \(error)")
    }
    output(json ? Listing.meetingsJSON(meetings) : Listing.meetings(syncUp, meetings))
    // The list holds every finished meeting's id: the count costs no query.
    let total = max(syncUp.meetings.count, meetings.count)
    if meetings.count < total {
      printError(
        "syncups: showing the newest \(meetings.count) of \(total) meetings; "
          + "--all lists every one, --limit N the newest N")
    }
  }
}

struct TranscriptCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "transcript",
    abstract: "Print a meeting's transcript, labelled by speaker with times."
  )

  @Argument(help: "The sync-up: the start of its id, or its title (any case).")
  var ref: String

  @Option(
    help:
      "The meeting: its number in 'syncups meetings' (1 = newest) or the start of its id (default: the newest)."
  )
  var meeting: String?

  @Option(help: "txt, md, json ({syncUp, meeting, date, text, segments}), srt or vtt.")
  var format = "txt"

  @MainActor func run() async throws {
    let format = try MeetingTranscriptFormat.named(format)
    let syncUp = try await SyncUpsStore.open().resolve(ref).wrappedValue
    let summary = try syncUp.meeting(meeting)
    // The list holds summaries: the transcript is read now, for this meeting only.
    @SharedReader(.meetingTranscript(summary.id)) var transcript
    if let error = $transcript.loadError {
      throw CLIError("cannot read the transcript: \(error)")
    }
    guard let transcript else {
      throw CLIError("meeting \(summary.shortID) of \(syncUp.label) was deleted meanwhile")
    }
    output(format.render(transcript, of: syncUp))
  }
}

struct SourcesCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "sources",
    abstract: "List the PulseAudio sources to record from; * marks the default."
  )

  @MainActor func run() async throws {
    @Dependency(\.audioCapture) var audioCapture
    let sources: [AudioSource]
    do {
      sources = try await audioCapture.sources()
    } catch {
      throw CLIError("\(error)")
    }
    guard !sources.isEmpty else {
      output("PulseAudio has no sources.\n")
      return
    }
    let width = sources.map(\.name.count).max() ?? 0
    output(
      sources.map { source in
        (source.isDefault ? "* " : "  ") + source.name
          + String(repeating: " ", count: width - source.name.count) + "  " + source.description
          + "\n"
      }.joined())
  }
}
