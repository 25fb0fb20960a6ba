import Architecture
import Foundation
import SyncUpsFeatures

/// A past meeting: its date, attendees and transcript by speaker, scrolled by `offset` lines.
public struct MeetingScreen {
  public var state: MeetingFeature.State
  public var offset: Int
  /// The terminal's columns and rows, at least 1 each.
  public var width: Int, height: Int

  public init(state: MeetingFeature.State, offset: Int = 0, width: Int = 80, height: Int = 24) {
    self.state = state
    self.offset = offset
    (self.width, self.height) = (max(width, 1), max(height, 1))
  }

  public var lines: [String] {
    let date = state.meeting.date.formatted(date: .abbreviated, time: .shortened)
    var lines = [
      Text.header(state.syncUp.title.visible, right: date, theme: state.syncUp.theme, width: width),
      " Attendees: " + state.syncUp.attendees.map(\.name.visible).joined(separator: ", "),
      Text.hint(hint, width: width),
      "",
    ]
    let start = min(max(offset, 0), maxOffset)
    lines += Array(transcript.dropFirst(start).prefix(transcriptRows))
    if let correction = state.correction {
      lines += Array(repeating: "", count: max(transcriptRows - lines.count + 4, 0))
      lines += panel(correction)
    }
    return Text.frame(lines, columns: width, rows: height)
  }

  private var hint: String {
    if state.correction != nil {
      return "type the text · ←→ speaker · enter save · ctrl-u back to what was heard · esc cancel"
    }
    if state.selectedSegment != nil { return "↑↓ pick a segment · enter correct it · esc done" }
    return "↑↓ scroll · c correct · b back"
  }

  /// The correction being written: the segment's number, its speaker and text.
  private func panel(_ correction: CorrectSegment.State) -> [String] {
    [
      ANSI.bold + " Segment \(correction.number) · Speaker: ‹\(correction.speaker.visible)›"
        + (correction.isSaving ? " · saving…" : "") + ANSI.reset,
      " Text: " + correction.text.oneLine + "▏",
      correction.problem.map { " " + $0.visible } ?? "",
    ]
  }

  /// Rows below the four header lines (and above the correction being written).
  var transcriptRows: Int { max(height - 4 - (state.correction == nil ? 0 : 3), 1) }

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
    return turns.flatMap(lines(of:))
  }

  /// One turn, wrapped. The segment a search found is marked `›` and bold.
  private func lines(of turn: MeetingFeature.Turn) -> [String] {
    let lines = Text.wrap(
      "[\(Format.clock(turn.start))] \(turn.speaker.visible): \(turn.text.oneLine)", width: width)
    guard turn.isHighlighted else { return lines }
    return lines.enumerated().map { index, line in
      ANSI.bold + (index == 0 ? "›" + line.dropFirst() : line) + ANSI.reset
    }
  }

  /// The scroll that shows the highlighted segment (a search hit) near the top, with a line of
  /// the transcript before it.
  public var highlightOffset: Int {
    var line = 0
    for turn in state.turns {
      if turn.isHighlighted { return min(max(line - 1, 0), maxOffset) }
      line += lines(of: turn).count
    }
    return 0
  }
}
