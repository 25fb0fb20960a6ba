import ArgumentParser
import Foundation
import Glibc
import SyncUpsCLI
import SyncUpsFeatures

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

  @Flag(
    help:
      "Start each line with its segment's number, as 'syncups correct' takes it (the default on a terminal)."
  )
  var numbers = false

  @Flag(help: "The segments as recognised, without the corrections made to them.")
  var original = false

  @MainActor func run() async throws {
    let format = try MeetingTranscriptFormat.named(format)
    let data = try await CommandDatabase.open()
    let syncUp = try data.syncUp(ref)
    let summary = try syncUp.meeting(meeting)
    // The sync-up holds summaries: the transcript is read now, for this meeting only.
    let transcript = try data.read(
      MeetingTranscriptRequest(meetingID: summary.id), "the transcript")
    guard let transcript else {
      throw CLIError("meeting \(summary.id.short) of \(syncUp.label) was deleted meanwhile")
    }
    let numbered = numbers || isatty(STDOUT_FILENO) == 1
    try Console.out(
      format.render(transcript, of: syncUp, numbered: numbered, original: original))
  }
}
