import Foundation
import StandupDigest
import SyncUpsStore
import SyncUpsWire

/// One blocker of the team's: raised in a meeting's digest, maybe resolved by its owner in a
/// later meeting, maybe closed by hand. Its `id` is what `syncups blockers` lists and `close`
/// takes: the first 8 hex digits of its meeting's id, its segment's number and the first 4 of
/// its key (`BlockerClosure.key`, a hash of its phrase), as in d1e2f3a4-4-9f3e.
public struct Blocker: Equatable, Sendable, Identifiable {
  public var meetingID: Meeting.ID
  public var entry: BlockerLog.Entry
  /// How it was closed by hand; nil while it is not.
  public var closing: ClosedBlocker?

  public init(meetingID: Meeting.ID, entry: BlockerLog.Entry, closing: ClosedBlocker? = nil) {
    self.meetingID = meetingID
    self.entry = entry
    self.closing = closing
  }

  /// The hash of its phrase, the same on the laptop and the team server.
  public var key: String { BlockerClosure.key(of: entry.raised.text) }

  public var id: String {
    "\(entry.raised.meeting.prefix(8))-\(entry.raised.segment)-\(key.prefix(4))"
  }

  /// An id's meeting prefix, segment and key prefix; nil when it is not shaped as one.
  public static func parse(id text: String) -> (meeting: String, segment: Int, key: String)? {
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
}

/// The team's blockers from some meetings, newest raised first: open, resolved by their owner,
/// and closed by hand.
public struct BlockerBoard: Equatable, Sendable {
  public var open: [Blocker]
  public var resolved: [Blocker]
  public var closed: [Blocker]

  public init(open: [Blocker] = [], resolved: [Blocker] = [], closed: [Blocker] = []) {
    self.open = open
    self.resolved = resolved
    self.closed = closed
  }

  /// The rules, once: each meeting's digest gives its blockers (`BlockerLog`), a later meeting
  /// of the owner's resolves one, and a closing by hand closes it whatever was said.
  public init(_ sources: BlockerSources) {
    let meetingIDs = Dictionary(
      sources.meetings.map { ($0.meeting.id.rawValue.lowercasedString, $0.meeting.id) }
    ) { first, _ in first }
    let closings = Dictionary(
      sources.closings.map {
        ("\($0.meetingID.rawValue.lowercasedString)/\($0.segment)/\($0.key)", $0)
      }
    ) { first, _ in first }
    let entries = BlockerLog.entries(sources.meetings.map(Self.log))
    self.init()
    for entry in entries {
      guard let meetingID = meetingIDs[entry.raised.meeting] else { continue }
      var blocker = Blocker(meetingID: meetingID, entry: entry)
      blocker.closing = closings["\(entry.raised.meeting)/\(entry.raised.segment)/\(blocker.key)"]
      if blocker.closing != nil {
        closed.append(blocker)
      } else if entry.resolved != nil {
        resolved.append(blocker)
      } else {
        open.append(blocker)
      }
    }
  }

  /// A meeting as the blockers' rules read it.
  static func log(_ source: BlockerSources.Source) -> BlockerLog.Meeting {
    BlockerLog.Meeting(
      id: source.meeting.id.rawValue.lowercasedString, syncUp: source.syncUp.title,
      date: source.meeting.date, segments: source.meeting.digestSegments,
      attendees: source.syncUp.attendees.map(\.name))
  }

  public var all: [Blocker] { open + resolved + closed }
}

extension Meeting {
  /// The segments as the digest and the blockers read them, numbered from 1.
  public var digestSegments: [DigestSegment] {
    segments.enumerated().map { index, segment in
      DigestSegment(
        number: index + 1, speaker: segment.speaker, start: segment.start, text: segment.text)
    }
  }
}
