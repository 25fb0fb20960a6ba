import ArgumentParser
import Foundation
import SyncUpsCLI
import SyncUpsFeatures

/// `syncups sentences`: runs the whole-sentence passes that recordings left to do (their
/// meetings were saved with the live transcript), each replacing its meeting's transcript.
/// Other commands start it in the background; run by hand, it says what it did. What it
/// replaced is then synced in the background, as after `record`.
struct SentencesCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "sentences",
    abstract: "Finish the whole-sentence passes that recordings left to do.",
    shouldDisplay: false
  )

  @MainActor func run() async throws {
    let data = try CommandDatabase.openWithoutRecovery()
    guard !data.database.isReadOnly else { return }
    // A pass left to do must not hear its own meeting's live transcript: the sync-ups' words
    // leave out meetings whose sentences are still to come.
    if (try? data.database.pendingSentencePasses().isEmpty) == false {
      try? await TeamWordsBuild.refreshAll(database: data.database)
    }
    let done = await SentencePass.runPending(in: data.database)
    for line in done { Console.error(line) }
    // The finished meetings' sentences teach their sync-ups' words.
    if !done.isEmpty { try? await TeamWordsBuild.refreshAll(database: data.database) }
    // Then the attendees' voices learn from what is now confirmed (kept locally).
    for line in await VoiceAdaptation.estimatePending(in: data.database) { Console.error(line) }
    // A replaced transcript is a change like any other: it goes to the team server too
    // (`record`'s own sync ran before these sentences were ready). A voice adapted here waits
    // in the outbox for the next sync.
    if !done.isEmpty { BackgroundSync.start() }
  }
}
