import Architecture
import Foundation
import SyncUpsFeatures

/// The root screen: every sync-up, one a line, with the selected one marked.
public struct ListScreen {
  public var state: SyncUpsList.State
  public var selection: Int
  public var width: Int
  public var height: Int

  public init(
    state: SyncUpsList.State, selection: Int = 0, width: Int = 80, height: Int = 24
  ) {
    self.state = state
    self.selection = selection
    self.width = max(width, 40)
    self.height = max(height, 10)
  }

  public var lines: [String] {
    let syncUps = state.syncUps
    var lines = [
      ANSI.bold + " Daily Sync-ups" + ANSI.reset,
      "",
    ]
    if syncUps.isEmpty {
      lines.append(" No sync-ups yet: press a to add one.")
    }
    for (index, syncUp) in syncUps.enumerated() {
      let marker = index == selection ? "›" : " "
      let swatch = ANSI.colors(foreground: syncUp.theme.accentColor, background: syncUp.theme.mainColor)
        + "  " + ANSI.reset
      let detail = "\(syncUp.attendees.count) attendees · \(Text.minutes(syncUp.duration))"
        + " · \(syncUp.meetings.count) meetings"
      let title = Text.pad(syncUp.title.isEmpty ? "Untitled" : syncUp.title, to: max(width - detail.count - 8, 10))
      // Marker and swatch take six columns; a narrow terminal cuts the details.
      let line = " \(marker) " + swatch + " " + String((title + " " + detail).prefix(width - 7))
      lines.append(index == selection ? ANSI.bold + line + ANSI.reset : line)
    }
    lines.append("")
    if case let .alert(alert)? = state.destination {
      lines += AlertView.lines(alert, width: width)
    } else {
      lines.append(Text.hint("↑↓ select · enter open · a add · d delete · q quit", width: width))
    }
    return Array(lines.prefix(height))
  }
}
