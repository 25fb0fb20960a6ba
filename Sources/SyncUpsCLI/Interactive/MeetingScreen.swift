import Architecture
import Foundation
import SyncUpsFeatures

/// A past meeting: its date, attendees and transcript by speaker, scrolled by `offset` lines.
public struct MeetingScreen {
  public var state: MeetingFeature.State
  public var offset: Int
  public var width: Int
  public var height: Int

  public init(state: MeetingFeature.State, offset: Int = 0, width: Int = 80, height: Int = 24) {
    self.state = state
    self.offset = offset
    self.width = max(width, 1)
    self.height = max(height, 1)
  }

  public var lines: [String] {
    let date = state.meeting.date.formatted(date: .abbreviated, time: .shortened)
    var lines = [
      Text.header(state.syncUp.title.visible, right: date, theme: state.syncUp.theme, width: width),
      " Attendees: " + state.syncUp.attendees.map(\.name.visible).joined(separator: ", "),
      Text.hint("↑↓ scroll · b back", width: width),
      "",
    ]
    let start = min(max(offset, 0), maxOffset)
    lines += Array(transcript.dropFirst(start).prefix(transcriptRows))
    return Text.frame(lines, columns: width, rows: height)
  }

  /// Rows below the four header lines.
  var transcriptRows: Int { max(height - 4, 1) }

  /// The furthest scroll that still fills the screen.
  public var maxOffset: Int { max(transcript.count - transcriptRows, 0) }

  /// The transcript as wrapped lines, one paragraph a turn.
  public var transcript: [String] {
    let turns = state.turns
    guard !turns.isEmpty else {
      return state.text.isEmpty
        ? [ANSI.dim + " Nothing was transcribed." + ANSI.reset]
        : Text.wrap(state.text.oneLine, width: width)
    }
    return turns.flatMap { turn in
      Text.wrap(
        "[\(Format.clock(turn.start))] \(turn.speaker.visible): \(turn.text.oneLine)", width: width)
    }
  }
}
