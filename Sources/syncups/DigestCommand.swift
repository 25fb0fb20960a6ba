import ArgumentParser
import Foundation
import StandupDigest
import SyncUpsCLI
import SyncUpsFeatures

struct DigestCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "digest",
    abstract: "What a stand-up said: yesterday, today and blockers for each person.",
    discussion: """
      Each item is a phrase of the meeting's transcript as corrected (read again on every \
      call, so a correction shows at once), with its segment's number (as 'syncups transcript \
      REF --numbers' prints it) and time. Found by written rules: cue words ('yesterday', \
      'today', 'blocked on', 'waiting for', 'no blockers'), tense ('I finished', 'I will'), \
      and the attendees a blocker names. See docs/digest.md for the rules and their limits.
      """
  )

  @Argument(help: "The sync-up: the start of its id, or its title (any case).")
  var ref: String

  @Option(
    help:
      "The meeting: its number in 'syncups meetings' (1 = newest) or the start of its id (default: the newest)."
  )
  var meeting: String?

  @Option(
    help:
      "text, markdown, or json ({meeting, people: [{name, yesterday, today, blockers, sources}]})."
  )
  var format = "text"

  @MainActor func run() async throws {
    let format = try DigestFormat.named(format)
    let data = try await CommandDatabase.open()
    let syncUp = try data.syncUp(ref)
    if meeting == nil, (try? data.database.isRecording(syncUp.id)) == true {
      throw CLIError(
        "a meeting of \(syncUp.label) is being recorded: its digest can be read once it is "
          + "saved; give --meeting 1 for the last one saved")
    }
    let summary = try syncUp.meeting(meeting)
    let transcript = try data.read(
      MeetingTranscriptRequest(meetingID: summary.id), "the transcript")
    guard let transcript else {
      throw CLIError("meeting \(summary.id.short) of \(syncUp.label) was deleted meanwhile")
    }
    let digest = Digest(
      segments: transcript.digestSegments,
      attendees: syncUp.attendees.map(\.name))
    try Console.out(format.render(digest, of: transcript, in: syncUp))
  }
}

/// How `syncups digest` writes a digest.
enum DigestFormat: String, CaseIterable {
  case text, markdown, json

  static func named(_ text: String) throws(CLIError) -> DigestFormat {
    let lowered = text.lowercased()
    if let format = DigestFormat(rawValue: lowered) { return format }
    if ["txt", "md"].contains(lowered) { return lowered == "md" ? .markdown : .text }
    throw CLIError(
      "unknown format '\(text.visible)'; choose one of: "
        + allCases.map(\.rawValue).joined(separator: ", "))
  }

  /// JSON, or the layout `StandupDigest` gives the text and Markdown (and the team server's
  /// chat post), with the terminal's control characters shown, not obeyed.
  func render(_ digest: Digest, of meeting: Meeting, in syncUp: SyncUp) -> String {
    if self == .json { return digest.json(meeting: meeting.id.full) + "\n" }
    let title = "\(syncUp.title.visible): \(Format.date(meeting.date))"
    let page = DigestPage(
      heading: self == .markdown ? title : "Digest of \(title) (meeting \(meeting.id.short))",
      hasSpeech: !meeting.segments.isEmpty,
      silent: DigestPage.silent(
        syncUp.attendees.map(\.name), speakers: meeting.segments.map(\.speaker)))
    return digest.rendered(
      self == .markdown ? .markdown : .text, page: page, show: \.visible, clock: Format.clock)
  }
}
