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
    let data = try await CommandDatabase.open()
    let meetings = try BlockerIDs.meetings(data) { $0.date >= from }
    let closings = try data.read(
      ClosedBlockersRequest(meetingIDs: Set(meetings.map(\.id))), "the closed blockers")
    let closedBy = Dictionary(closings.map { (BlockerIDs.identity(of: $0), $0) }) { first, _ in
      first
    }
    let entries = BlockerLog.entries(meetings.map(\.log))
    // Each blocker closed by hand, with its closing; the rest are open or resolved.
    var closed: [(entry: BlockerLog.Entry, closing: ClosedBlocker)] = []
    var rest: [BlockerLog.Entry] = []
    for entry in entries {
      if let closing = closedBy[BlockerIDs.identity(of: entry)] {
        closed.append((entry, closing))
      } else {
        rest.append(entry)
      }
    }
    let open = rest.filter { $0.resolved == nil }
    let resolved = rest.filter { $0.resolved != nil }
    if json {
      return try Console.out(
        JSON.object([
          ("since", .string(Format.isoDate(from))),
          ("open", .array(open.map { Self.json($0) })),
          ("resolved", .array(resolved.map { Self.json($0) })),
          ("closed", .array(closed.map { Self.json($0.entry, closed: $0.closing) })),
        ]).rendered + "\n")
    }
    var out = open.isEmpty ? "No open blockers since \(Format.date(from)).\n" : ""
    out += open.map { Self.line($0) + "\n" }.joined()
    if all {
      out += resolved.map { entry in
        Self.line(entry) + "\n    resolved \(Format.date(entry.resolved!.date)): "
          + "\(entry.resolved!.text.visible)\n"
      }.joined()
      out += closed.map { entry, closing in
        let who = closing.closedBy.map { " by \($0.visible)" } ?? " here"
        return Self.line(entry) + "\n    closed \(Format.date(closing.closedAt))\(who)\n"
      }.joined()
    } else {
      if !resolved.isEmpty {
        out += "\(Format.count(resolved.count, "blocker")) resolved since then (--all lists them)\n"
      }
      if !closed.isEmpty {
        out +=
          "\(Format.count(closed.count, "blocker")) closed by hand since then (--all lists them)\n"
      }
    }
    try Console.out(out)
  }

  /// `d1e2f3a4-4-9f3e  2026-11-20 09:00  Standup  Ben: waiting for ana ... (Ana)  [meeting
  /// dddddddd, 00:20, segment 4]`: its id first, what 'close' takes.
  static func line(_ entry: BlockerLog.Entry) -> String {
    let named = entry.named.map { " (\($0.visible))" } ?? ""
    let raised = entry.raised
    return "\(BlockerIDs.id(of: entry))  \(Format.date(raised.date))  \(entry.syncUp.visible)  "
      + "\(entry.person.visible): \(raised.text.visible)\(named)  [meeting "
      + "\(raised.meeting.prefix(8)), \(Format.clock(raised.time)), segment \(raised.segment)]"
  }

  static func json(_ entry: BlockerLog.Entry, closed: ClosedBlocker? = nil) -> JSON {
    var fields: [(String, JSON)] = [
      ("id", .string(BlockerIDs.id(of: entry))),
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
    if let closed {
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
