import Architecture
import ArgumentParser
import Foundation
import SyncUpsCLI
import SyncUpsFeatures

struct CorrectCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "correct",
    abstract: "Correct a segment of a meeting's transcript: who said it, or what was said.",
    discussion: """
      Segments are numbered as 'syncups transcript REF --numbers' prints them. What was \
      recognised is kept beside the correction ('syncups transcript REF --original' shows it; \
      --undo puts it back). A corrected speaker also teaches that attendee's voice.
      """
  )

  @Argument(help: "The sync-up: the start of its id, or its title (any case).")
  var ref: String

  @Argument(help: "The segment's number, from 'syncups transcript REF --numbers'.")
  var segment: String

  @Option(
    help:
      "The meeting: its number in 'syncups meetings' (1 = newest) or the start of its id (default: the newest)."
  )
  var meeting: String?

  @Option(help: "Who said it: one of the sync-up's attendees (any case).")
  var speaker: String?

  @Option(help: "What was said.")
  var text: String?

  @Flag(help: "Put back what was recognised, dropping the correction.")
  var undo = false

  @MainActor func run() async throws {
    guard undo || speaker != nil || text != nil else {
      throw CLIError("nothing to correct: give --speaker NAME, --text TEXT, or --undo")
    }
    guard !undo || (speaker == nil && text == nil) else {
      throw CLIError("--undo puts back what was recognised: give it without --speaker or --text")
    }
    guard let number = Int(segment.trimmingCharacters(in: .whitespaces)), number >= 1 else {
      throw CLIError(
        "'\(segment.visible)' is not a segment number: give one from 1, as "
          + "'syncups transcript \(ref.visible) --numbers' prints them")
    }
    let data = try await CommandDatabase.open()
    try data.checkWritable()
    let syncUp = try data.syncUp(ref)
    let summary = try syncUp.meeting(meeting)
    let meetingLabel = "meeting \(summary.id.short) of \(syncUp.label)"
    guard
      let transcript = try data.read(
        MeetingTranscriptRequest(meetingID: summary.id), "the transcript")
    else { throw CLIError("\(meetingLabel) was deleted meanwhile") }
    guard transcript.segments.indices.contains(number - 1) else {
      throw CLIError(
        "\(meetingLabel): "
          + CorrectionProblem.noSuchSegment(number: number, count: transcript.segments.count)
          .description)
    }
    let before = transcript.segments[number - 1]
    let store = Store(
      initialState: CorrectSegment.State(
        syncUp: syncUp, meeting: transcript, number: number, segment: before)
    ) { CorrectSegment() }
    if let speaker { store.send(.speakerChanged(speaker)) }
    if let text { store.send(.textChanged(text)) }
    await store.send(undo ? .undoTapped : .saveTapped).finish()
    let state = store.state
    if let problem = state.problem {
      throw CLIError("cannot correct segment \(number) of \(meetingLabel): \(problem.visible)")
    }
    guard state.segment != before else {
      return try Console.out(
        "Segment \(number) of \(meetingLabel) already reads so; nothing was changed.\n"
          + state.segment.line(number: number) + "\n")
    }
    let done =
      state.segment.original == nil
      ? "Segment \(number) of \(meetingLabel) is back to what was recognised:"
      : "Corrected segment \(number) of \(meetingLabel):"
    var lines = [done, state.segment.line(number: number)]
    if let voice = state.voice { lines.append(voice.sentence) }
    try Console.out(
      lines.joined(separator: "\n") + "\n", saved: "the correction of segment \(number)")
    // The feature learned the sync-up's words from it; a failure is said, the correction stays.
    if let notice = state.notice { Console.error(notice) }
  }
}

extension CorrectSegment.VoiceOutcome {
  /// What the correction taught, as a line.
  var sentence: String {
    switch self {
    case .taught(let name, let summary):
      "\(name.visible)'s voice learned from it: known from "
        + "\(Format.count(summary.meetings, "meeting")), \(Int(summary.seconds.rounded())) s of speech."
    case .tooLittleSpeech(let name):
      "\(name.visible)'s voice was not taught: the segment holds less than a second of speech."
    case .noAudio(let name):
      "\(name.visible)'s voice was not taught: the meeting's audio was not kept."
    case .failed(let name, let why):
      "\(name.visible)'s voice was not taught: \(why.visible)."
    }
  }
}
