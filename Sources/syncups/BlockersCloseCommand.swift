import Architecture
import ArgumentParser
import Foundation
import SyncUpsCLI
import SyncUpsFeatures
import SyncUpsStore

struct BlockersCloseCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "close",
    abstract: "Closes a blocker by hand: it is no longer listed, here or by the team.",
    discussion: """
      ID is the blocker's as 'syncups blockers' lists it (such as d1e2f3a4-4-9f3e: its \
      meeting, its segment, its phrase). 'syncups sync' takes the closing to the team server, \
      whose blockers page closes it too. Closing it again changes nothing.
      """
  )

  @Argument(help: "The blocker's id, as 'syncups blockers' lists it.")
  var id: String

  @MainActor func run() async throws {
    let data = try await CommandDatabase.open()
    try data.checkWritable()
    let store = Store(initialState: TeamBlockers.State(since: Date())) { TeamBlockers() }
    await store.send(.closeRequested(id: id)).finish()
    if let problem = store.state.problem { throw CLIError(problem.visible) }
    switch store.state.closing {
    case .closed(let blocker):
      try Console.out(
        "Closed blocker \(blocker.id): \(blocker.entry.person.visible): "
          + "\(blocker.entry.raised.text.visible)\n'syncups sync' takes it to the team.\n",
        saved: "the closing of blocker \(blocker.id)")
    case .alreadyClosed(let blocker):
      try Console.out("Blocker \(blocker.id) was closed already; nothing was changed.\n")
    case nil:
      throw CLIError("blocker \(id.visible) was not closed")
    }
  }
}
