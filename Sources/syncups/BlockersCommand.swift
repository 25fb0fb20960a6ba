import Architecture
import ArgumentParser
import Foundation
import StandupDigest
import SyncUpsCLI
import SyncUpsFeatures
import SyncUpsStore

struct BlockersCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "blockers",
    abstract: "The open blockers of every sync-up, newest first, with who raised them and when.",
    discussion: """
      Blockers are the digests' ('syncups digest'), read from the meetings since --since. A \
      blocker is closed when its owner says in a later meeting that it is resolved ('I \
      finally got the Kafka credentials'): a word of resolution and a word of the blocker's \
      own; or by hand ('syncups blockers close ID', or the team server's blockers page), \
      which 'syncups sync' carries both ways. See docs/digest.md.
      """,
    subcommands: [BlockersListCommand.self, BlockersCloseCommand.self],
    defaultSubcommand: BlockersListCommand.self
  )
}

struct BlockersListCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "list",
    abstract: "The open blockers since --since, each with the id 'close' takes (the default)."
  )

  @Option(help: "From this day (YYYY-MM-DD) or this far back (7d, 2w).")
  var since = "7d"

  @Flag(help: "Also list the blockers resolved or closed by hand since then.")
  var all = false

  @Flag(help: "Print JSON: {since, open: [...], resolved: [...], closed: [...]}.")
  var json = false

  @MainActor func run() async throws {
    let from = try Parse.since(since)
    _ = try await CommandDatabase.open()
    let store = Store(initialState: TeamBlockers.State(since: from)) { TeamBlockers() }
    await store.send(.onAppear).finish()
    if let problem = store.state.problem { throw CLIError(problem) }
    let board = store.state.board
    if json {
      return try Console.out(
        JSON.object([
          ("since", .string(Format.isoDate(from))),
          ("open", .array(board.open.map(Self.json))),
          ("resolved", .array(board.resolved.map(Self.json))),
          ("closed", .array(board.closed.map(Self.json))),
        ]).rendered + "\n")
    }
    var out = board.open.isEmpty ? "No open blockers since \(Format.date(from)).\n" : ""
    out += board.open.map { Self.line($0) + "\n" }.joined()
    if all {
      out += board.resolved.map { blocker in
        let resolved = blocker.entry.resolved!
        return Self.line(blocker) + "\n    resolved \(Format.date(resolved.date)): "
          + "\(resolved.text.visible)\n"
      }.joined()
      out += board.closed.map { blocker in
        let closing = blocker.closing!
        let who = closing.closedBy.map { " by \($0.visible)" } ?? " here"
        return Self.line(blocker) + "\n    closed \(Format.date(closing.closedAt))\(who)\n"
      }.joined()
    } else {
      if !board.resolved.isEmpty {
        out +=
          "\(Format.count(board.resolved.count, "blocker")) resolved since then (--all lists them)\n"
      }
      if !board.closed.isEmpty {
        out +=
          "\(Format.count(board.closed.count, "blocker")) closed by hand since then (--all lists them)\n"
      }
    }
    try Console.out(out)
  }

  /// `d1e2f3a4-4-9f3e  2026-11-20 09:00  Standup  Ben: waiting for ana ... (Ana)  [meeting
  /// dddddddd, 00:20, segment 4]`: its id first, what 'close' takes.
  static func line(_ blocker: Blocker) -> String {
    let entry = blocker.entry
    let named = entry.named.map { " (\($0.visible))" } ?? ""
    let raised = entry.raised
    return "\(blocker.id)  \(Format.date(raised.date))  \(entry.syncUp.visible)  "
      + "\(entry.person.visible): \(raised.text.visible)\(named)  [meeting "
      + "\(raised.meeting.prefix(8)), \(Format.clock(raised.time)), segment \(raised.segment)]"
  }

  static func json(_ blocker: Blocker) -> JSON {
    let entry = blocker.entry
    var fields: [(String, JSON)] = [
      ("id", .string(blocker.id)),
      ("syncUp", .string(entry.syncUp)), ("person", .string(entry.person)),
      ("text", .string(entry.raised.text)), ("named", entry.named.map(JSON.string) ?? .null),
      ("date", .string(Format.isoDate(entry.raised.date))),
      ("meeting", .string(entry.raised.meeting)),
      ("segment", .number(Double(entry.raised.segment))),
      ("time", .number(entry.raised.time)),
    ]
    if let resolved = entry.resolved {
      fields.append(
        (
          "resolved",
          .object([
            ("date", .string(Format.isoDate(resolved.date))),
            ("meeting", .string(resolved.meeting)),
            ("segment", .number(Double(resolved.segment))), ("text", .string(resolved.text)),
          ])
        ))
    }
    if let closed = blocker.closing {
      fields.append(
        (
          "closed",
          .object([
            ("date", .string(Format.isoDate(closed.closedAt))),
            ("by", closed.closedBy.map(JSON.string) ?? .null),
          ])
        ))
    }
    return .object(fields)
  }
}
