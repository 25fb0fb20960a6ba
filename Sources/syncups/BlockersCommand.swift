import ArgumentParser
import Foundation
import StandupDigest
import SyncUpsCLI
import SyncUpsFeatures

struct BlockersCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "blockers",
    abstract: "The open blockers of every sync-up, newest first, with who raised them and when.",
    discussion: """
      Blockers are the digests' ('syncups digest'), read from the meetings since --since. A \
      blocker is closed when its owner says in a later meeting that it is resolved ('I \
      finally got the Kafka credentials'): a word of resolution and a word of the blocker's \
      own. See docs/digest.md.
      """
  )

  @Option(help: "From this day (YYYY-MM-DD) or this far back (7d, 2w).")
  var since = "7d"

  @Flag(help: "Also list the blockers resolved since then.")
  var all = false

  @Flag(help: "Print JSON: {since, open: [...], resolved: [...]}.")
  var json = false

  @MainActor func run() async throws {
    let from = try Parse.since(since)
    let data = try await CommandDatabase.open()
    var meetings: [BlockerLog.Meeting] = []
    for syncUp in try data.syncUps() {
      for summary in syncUp.meetings where summary.date >= from {
        guard
          let meeting = try data.read(
            MeetingTranscriptRequest(meetingID: summary.id), "the transcript")
        else { continue }
        meetings.append(
          BlockerLog.Meeting(
            id: meeting.id.full, syncUp: syncUp.title, date: meeting.date,
            segments: meeting.segments.enumerated().map { index, segment in
              DigestSegment(
                number: index + 1, speaker: segment.speaker, start: segment.start,
                text: segment.text)
            },
            attendees: syncUp.attendees.map(\.name)))
      }
    }
    let entries = BlockerLog.entries(meetings)
    let open = entries.filter { $0.resolved == nil }
    let resolved = entries.filter { $0.resolved != nil }
    if json {
      return try Console.out(
        JSON.object([
          ("since", .string(Format.isoDate(from))),
          ("open", .array(open.map(Self.json))),
          ("resolved", .array(resolved.map(Self.json))),
        ]).rendered + "\n")
    }
    var out = open.isEmpty ? "No open blockers since \(Format.date(from)).\n" : ""
    out += open.map { Self.line($0) + "\n" }.joined()
    if all {
      out += resolved.map { entry in
        Self.line(entry) + "\n    resolved \(Format.date(entry.resolved!.date)): "
          + "\(entry.resolved!.text.visible)\n"
      }.joined()
    } else if !resolved.isEmpty {
      out += "\(Format.count(resolved.count, "blocker")) resolved since then (--all lists them)\n"
    }
    try Console.out(out)
  }

  /// `2026-11-20 09:00  Standup  Ben: waiting for ana ... (Ana)  [meeting dddddddd, 00:20, segment 4]`
  static func line(_ entry: BlockerLog.Entry) -> String {
    let named = entry.named.map { " (\($0.visible))" } ?? ""
    let raised = entry.raised
    return "\(Format.date(raised.date))  \(entry.syncUp.visible)  \(entry.person.visible): "
      + "\(raised.text.visible)\(named)  [meeting \(raised.meeting.prefix(8)), "
      + "\(Format.clock(raised.time)), segment \(raised.segment)]"
  }

  static func json(_ entry: BlockerLog.Entry) -> JSON {
    var fields: [(String, JSON)] = [
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
    return .object(fields)
  }
}
