import ArgumentParser
import Foundation
import SyncUpsCLI
import SyncUpsFeatures

/// `syncups record REF`: records a meeting of a sync-up and saves it with its transcript.
struct RecordCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "record",
    abstract: "Record a meeting: time each attendee's slot, transcribe, save the meeting.",
    discussion: """
      On a terminal a live screen shows the time, the speaker and the transcript: n next \
      speaker, e end meeting, q end and save. Without a terminal it runs until the meeting's \
      time is up, the input ends, or SIGINT/SIGTERM arrives; a signal ends and saves the meeting.
      """
  )

  @Argument(help: "The sync-up: an id prefix or its title.")
  var reference: String

  @Option(
    help: ArgumentHelp(
      "A PulseAudio source to record (see 'syncups sources'); default: the server's.",
      discussion: """
        Repeat it to record several sources at once, mixed into one meeting (the microphone \
        and the monitor of the output a call plays through).
        """,
      valueName: "name"))
  var source: [String] = []

  @Flag(
    help: "A remote stand-up: the default microphone and the monitor of the default output.")
  var call = false

  @Option(help: "Use an audio file as the microphone.", completion: .file())
  var input: String?

  @Flag(help: "With --input: as fast as decoding allows; the meeting clock follows the audio.")
  var fast = false

  @Flag(help: "Record without transcribing.")
  var noTranscription = false

  @Flag(help: "Do not keep the meeting's audio.")
  var noAudio = false

  @Option(
    help: ArgumentHelp(
      "What to use of what the sync-up learned: all, words, voices or none (for comparisons).",
      valueName: "what"))
  var useLearning = "all"

  func validate() throws {
    if fast, input == nil { throw ValidationError("--fast needs --input FILE") }
    if input != nil, !source.isEmpty { throw ValidationError("use either --input or --source") }
    if input != nil, call { throw ValidationError("use either --input or --call") }
    if call, !source.isEmpty { throw ValidationError("use either --call or --source") }
    if LearningUse(argument: useLearning) == nil {
      throw ValidationError("--use-learning takes all, words, voices or none")
    }
    if let twice = source.first(where: { name in source.filter { $0 == name }.count > 1 }) {
      throw ValidationError("--source \(twice) is given twice; give each source once")
    }
  }

  @MainActor
  func run() async throws {
    let session = try await RecordSession(
      reference: reference,
      configuration: .init(
        sources: source,
        call: call,
        input: input.map { URL(fileURLWithPath: $0) },
        fast: fast,
        transcribes: !noTranscription,
        keepsAudio: !noAudio,
        learning: LearningUse(argument: useLearning) ?? .all
      )
    )
    guard let meeting = try await session.run() else {
      try Console.out("The meeting was discarded.\n")
      return
    }
    @Dependency(\.dataDirectory) var dataDirectory
    let audio =
      meeting.audioFile.map { "; audio in \(dataDirectory.url.appendingPathComponent($0).path)" }
      ?? ""
    try Console.out(
      "Saved meeting \(meeting.id.short) "
        + "(\(Format.count(meeting.segments.count, "utterance"))) in "
        + "\(dataDirectory.databaseFile.path)\(audio)\n",
      saved: "meeting \(meeting.id.short)")
    // Offline first: the meeting is saved; the sync runs on its own and never fails the save.
    BackgroundSync.start()
  }
}
