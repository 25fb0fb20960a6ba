import Architecture
import Foundation
import SyncUpsFeatures

/// The root screen: every sync-up, one a line, with the selected one marked.
public struct ListScreen {
  public var state: SyncUpsList.State
  public var selection: Int
  /// The terminal's columns and rows, at least 1 each.
  public var width: Int, height: Int

  public init(
    state: SyncUpsList.State, selection: Int = 0, width: Int = 80, height: Int = 24
  ) {
    self.state = state
    self.selection = selection
    (self.width, self.height) = (max(width, 1), max(height, 1))
  }

  public var lines: [String] {
    if case .search(let search)? = state.destination {
      return SearchScreen(state: search, width: width, height: height).lines
    }
    if case .blockers(let blockers)? = state.destination {
      return BlockersScreen(state: blockers, width: width, height: height).lines
    }
    let syncUps = state.syncUps
    let header = [ANSI.bold + " Daily Sync-ups" + ANSI.reset, ""]
    var footer = [""]
    if case .alert(let alert)? = state.destination {
      footer += AlertView.lines(alert, width: width).dropFirst()
    } else {
      footer.append(
        Text.hint(
          "↑↓ select · enter open · / search · b blockers · a add · d delete · q quit", width: width
        ))
    }
    var rows = syncUps.enumerated().map { index, syncUp in row(syncUp, selected: index == selection)
    }
    if syncUps.isEmpty { rows = [" No sync-ups yet: press a to add one."] }
    // The rows scroll so the selection stays on screen between the header and the footer.
    let room = max(height - header.count - footer.count, 1)
    let first = min(max(selection - room + 1, 0), max(rows.count - room, 0))
    return Text.frame(
      header + rows.dropFirst(first).prefix(room) + footer, columns: width, rows: height)
  }

  private func row(_ syncUp: SyncUp, selected: Bool) -> String {
    let marker = selected ? "›" : " "
    let swatch =
      ANSI.colors(foreground: syncUp.theme.accentColor, background: syncUp.theme.mainColor)
      + "  " + ANSI.reset
    let detail =
      Format.count(syncUp.attendees.count, "attendee")
      + " · \(Text.length(syncUp.duration)) · " + Format.count(syncUp.meetings.count, "meeting")
    let name = syncUp.title.isEmpty ? "Untitled" : syncUp.title.visible
    // Marker and swatch take six columns; the title gets what the details leave, at least ten.
    let title = Text.pad(name, to: max(width - detail.count - 8, 10))
    let line =
      " \(marker) " + swatch + " " + Text.truncate(title + " " + detail, to: max(width - 7, 0))
    return selected ? ANSI.bold + line + ANSI.reset : line
  }
}
