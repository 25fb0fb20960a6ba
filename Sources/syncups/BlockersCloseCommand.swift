import ArgumentParser
import Foundation
import StandupDigest
import SyncUpsCLI
import SyncUpsFeatures
import SyncUpsStore
import SyncUpsWire

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
    let wanted = id.trimmingCharacters(in: .whitespaces).lowercased()
    guard let parsed = BlockerIDs.parse(wanted) else {
      throw CLIError(
        "'\(id.visible)' is not a blocker's id: ids look like d1e2f3a4-4-9f3e, as "
          + "'syncups blockers' lists them")
    }
    let data = try await CommandDatabase.open()
    try data.checkWritable()
    let meetings = try BlockerIDs.meetings(data) {
      $0.id.rawValue.lowercasedString.hasPrefix(parsed.meeting)
    }
    let found = BlockerLog.entries(meetings.map(\.log)).filter {
      BlockerIDs.id(of: $0) == wanted
    }
    guard let entry = found.first else {
      throw CLIError(
        "there is no blocker \(wanted): 'syncups blockers --since 30d' lists the open ones "
          + "with their ids")
    }
    guard found.count == 1,
      let meeting = meetings.first(where: { $0.log.id == entry.raised.meeting })
    else {
      throw CLIError(
        "\(wanted) names \(found.count) blockers (meetings whose ids begin alike); close them "
          + "on the team server's blockers page")
    }
    let outcome: BlockerClosing
    do {
      outcome = try data.database.closeBlocker(
        meeting.id, segment: entry.raised.segment, key: BlockerClosure.key(of: entry.raised.text),
        at: Date())
    } catch {
      throw CLIError("cannot close blocker \(wanted): \(error)")
    }
    switch outcome {
    case .closed:
      try Console.out(
        "Closed blocker \(wanted): \(entry.person.visible): \(entry.raised.text.visible)\n"
          + "'syncups sync' takes it to the team.\n", saved: "the closing of blocker \(wanted)")
    case .alreadyClosed:
      try Console.out("Blocker \(wanted) was closed already; nothing was changed.\n")
    case .noSuchMeeting:
      throw CLIError("the meeting of blocker \(wanted) was deleted meanwhile; nothing was closed")
    }
  }
}

/// How `syncups blockers` names a blocker: the first 8 hex digits of its meeting's id, its
/// segment's number and the first 4 of its key (`BlockerClosure.key`, a hash of its phrase).
enum BlockerIDs {
  /// A meeting as the blockers read it.
  struct Read {
    var id: Meeting.ID
    var log: BlockerLog.Meeting
  }

  static func id(of entry: BlockerLog.Entry) -> String {
    "\(entry.raised.meeting.prefix(8))-\(entry.raised.segment)-\(BlockerClosure.key(of: entry.raised.text).prefix(4))"
  }

  /// The whole of a blocker: meeting, segment and key.
  static func identity(of entry: BlockerLog.Entry) -> String {
    "\(entry.raised.meeting)/\(entry.raised.segment)/\(BlockerClosure.key(of: entry.raised.text))"
  }

  static func identity(of closed: ClosedBlocker) -> String {
    "\(closed.meetingID.rawValue.lowercasedString)/\(closed.segment)/\(closed.key)"
  }

  /// An id's meeting prefix, segment and key prefix; nil when it is not shaped as one.
  static func parse(_ text: String) -> (meeting: String, segment: Int, key: String)? {
    let parts = text.split(separator: "-", omittingEmptySubsequences: false).map(String.init)
    let hex = { (part: String, count: Int) in
      part.utf8.count == count
        && part.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }
    guard parts.count == 3, hex(parts[0], 8), hex(parts[2], 4), parts[1].utf8.count <= 6,
      parts[1].utf8.allSatisfy({ (48...57).contains($0) }), let segment = Int(parts[1]),
      segment >= 1
    else { return nil }
    return (parts[0], segment, parts[2])
  }

  /// The finished meetings `include` takes, oldest first, read for their blockers.
  static func meetings(
    _ data: CommandDatabase, including include: (Meeting) -> Bool
  ) throws(CLIError) -> [Read] {
    var meetings: [Read] = []
    for syncUp in try data.syncUps() {
      for summary in syncUp.meetings where include(summary) {
        guard
          let meeting = try data.read(
            MeetingTranscriptRequest(meetingID: summary.id), "the transcript")
        else { continue }
        meetings.append(
          Read(
            id: meeting.id,
            log: BlockerLog.Meeting(
              id: meeting.id.full, syncUp: syncUp.title, date: meeting.date,
              segments: meeting.segments.enumerated().map { index, segment in
                DigestSegment(
                  number: index + 1, speaker: segment.speaker, start: segment.start,
                  text: segment.text)
              },
              attendees: syncUp.attendees.map(\.name))))
      }
    }
    return meetings
  }
}
