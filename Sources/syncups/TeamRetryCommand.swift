import ArgumentParser
import Foundation
import SyncUpsCLI
import TeamSync

/// `syncups team retry`: what the team server refused for good and was set aside here (`team
/// status` lists it) is tried again at the next sync. Changing a document tries it again too.
struct TeamRetryCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "retry",
    abstract: "Try again, at the next sync, what the team server refused and was set aside.",
    discussion: """
      A document the team server refuses for good (an attendee id that is another team's, a \
      meeting it will not take) is set aside at the sync it is refused: kept here, listed by \
      'syncups team status', and left out of the next pushes so that the rest goes on. A \
      change to it tries it again; so does this command, for all of them at once.
      """
  )

  func run() async throws {
    _ = try TeamFile.joined()
    let data = try await CommandDatabase.open()
    try data.checkWritable()
    let count: Int
    do {
      count = try TeamSyncStatus.retrySetAside(data.database)
    } catch {
      throw CLIError("cannot try again what was set aside: \(error)")
    }
    try Console.out(
      count == 0
        ? "nothing is set aside\n"
        : "\(count == 1 ? "1 document" : "\(count) documents") set aside will be tried again "
          + "at the next sync\n")
  }
}
