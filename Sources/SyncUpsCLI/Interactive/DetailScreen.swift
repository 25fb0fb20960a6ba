import Architecture
import Foundation
import SyncUpsFeatures

/// One sync-up: its settings, attendees and past meetings (the selected one marked).
public struct DetailScreen {
  public var state: SyncUpDetail.State
  public var selection: Int
  /// The terminal's columns and rows, at least 1 each.
  public var width: Int, height: Int

  public init(state: SyncUpDetail.State, selection: Int = 0, width: Int = 80, height: Int = 24) {
    self.state = state
    self.selection = selection
    (self.width, self.height) = (max(width, 1), max(height, 1))
  }

  public var lines: [String] {
    let syncUp = state.syncUp
    var lines = [
      Text.header(syncUp.title.visible, theme: syncUp.theme, width: width),
      " Length \(Text.length(syncUp.duration)) · Theme \(syncUp.theme.name)",
      "",
      ANSI.bold + " Attendees" + ANSI.reset,
    ]
    lines += syncUp.attendees.map { "   " + $0.name.visible }
    lines += ["", ANSI.bold + " Past meetings" + ANSI.reset]
    if syncUp.meetings.isEmpty { lines.append(ANSI.dim + "   none yet" + ANSI.reset) }
    // The list holds meetings without transcripts: their openings come from the database.
    @SharedReader(.meetingSummaries(syncUp.id)) var summaries
    let openings = Dictionary(summaries.map { ($0.id, $0.opening) }) { first, _ in first }
    for (index, meeting) in syncUp.meetings.enumerated() {
      let marker = index == selection ? " › " : "   "
      let date = meeting.date.formatted(date: .abbreviated, time: .shortened)
      let text = meeting.transcript.isEmpty ? openings[meeting.id] ?? "" : meeting.transcript
      let words = text.isEmpty ? "(no transcript)" : text.oneLine
      let line = marker + Text.pad(date + "  " + words, to: width - 4)
      lines.append(index == selection ? ANSI.bold + line + ANSI.reset : line)
    }
    lines.append("")
    if case .alert(let alert)? = state.destination {
      lines += AlertView.lines(alert, width: width)
    } else {
      lines.append(
        Text.hint(
          "s start meeting · c call · e edit · ↑↓ enter view meeting · x delete · b back",
          width: width))
    }
    return Text.frame(lines, columns: width, rows: height)
  }
}
