import ArgumentParser
import Foundation
import SyncUpsCLI
import SyncUpsFeatures

struct ForgetCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "forget",
    abstract: "Forget what was learned of a sync-up's people: voices, adaptations, words.",
    discussion: """
      With --attendee: that person's voice and acoustic adaptation. Without: every attendee's, \
      and the team's words (the sync-up's language model learns only from meetings after now). \
      Meetings and transcripts stay. A laptop of the team forgets too at its next sync.
      """
  )

  @Argument(help: "The sync-up: the start of its id, or its title (any case).")
  var ref: String

  @Option(help: "Only this attendee (their name, any case).")
  var attendee: String?

  @Flag(help: "Do not ask for confirmation (needed when there is no terminal to ask on).")
  var yes = false

  @MainActor func run() async throws {
    let data = try await CommandDatabase.open()
    try data.checkWritable()
    let syncUp = try data.syncUp(ref)
    guard try !data.database.isBeingRecorded(syncUp.id) else {
      throw CLIError(
        "\(syncUp.label) is being recorded, and what it hears would teach the voices again; "
          + "nothing was forgotten: end that recording, then forget")
    }
    var person: Attendee?
    if let attendee {
      let name = attendee.trimmingCharacters(in: .whitespaces).lowercased()
      guard let found = syncUp.attendees.first(where: { $0.name.lowercased() == name }) else {
        throw CLIError(
          "\(syncUp.label) has no attendee '\(attendee.visible)'; its attendees are "
            + syncUp.attendees.map(\.name.visible).joined(separator: ", "))
      }
      person = found
    }
    let what =
      person.map { "what was learned of \($0.name.visible) in \(syncUp.label) (voice, adaptation)" }
      ?? "what was learned in \(syncUp.label) (every attendee's voice and adaptation, the "
      + "team's words)"
    if !yes { try confirm(what) }
    // The sync-up's words are derived from what may still be learned: rebuilt (or removed) too.
    let notice = try await Forgetting.forget(syncUp.id, attendee: person?.id, in: data.database)
    BackgroundSync.start()
    try Console.out("Forgot \(what).\n", saved: "the forgetting")
    if let notice { Console.error(notice) }
  }

  private func confirm(_ what: String) throws {
    guard isatty(STDIN_FILENO) == 1 else {
      throw CLIError(
        "not forgetting without confirmation: there is no terminal to ask on; add --yes")
    }
    Console.raw("Forget \(what)? [y/N] ")
    let answer = readLine()?.trimmingCharacters(in: .whitespaces).lowercased() ?? ""
    guard answer == "y" || answer == "yes" else { throw CLIError("nothing was forgotten") }
  }
}
