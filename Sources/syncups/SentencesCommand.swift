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
    // The passes left to do, the words they change and the voices' adaptations: the features'
    // background learning (`BackgroundLearning`), whatever front end saved the meetings.
    let learned = await BackgroundLearning.run(in: data.database)
    for line in learned.lines { Console.error(line) }
    // A replaced transcript is a change like any other: it goes to the team server too
    // (`record`'s own sync ran before these sentences were ready). A voice adapted here waits
    // in the outbox for the next sync.
    if learned.replacedTranscripts { BackgroundSync.start() }
  }
}
