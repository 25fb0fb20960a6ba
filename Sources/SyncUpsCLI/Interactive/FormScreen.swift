import Architecture
import Foundation
import SyncUpsFeatures

/// Which line of the form the cursor is on.
public enum FormField: Equatable, Sendable {
  case title, duration, theme
  case attendee(Attendee.ID)
  /// A vocabulary row, by position.
  case word(Int)

  /// The form's lines in order: title, duration, theme, each attendee, then each vocabulary word.
  public static func all(_ syncUp: SyncUp) -> [FormField] {
    [.title, .duration, .theme] + syncUp.attendees.map { .attendee($0.id) }
      + syncUp.vocabulary.indices.map { .word($0) }
  }
}

/// The sync-up form (adding or editing): one line per field, the cursor's line marked.
public struct FormScreen {
  public var heading: String
  public var state: SyncUpForm.State
  public var field: FormField
  /// The terminal's columns and rows, at least 1 each.
  public var width: Int, height: Int

  public init(
    heading: String, state: SyncUpForm.State, field: FormField = .title, width: Int = 80,
    height: Int = 24
  ) {
    self.heading = heading
    self.state = state
    self.field = field
    (self.width, self.height) = (max(width, 1), max(height, 1))
  }

  public var lines: [String] {
    let syncUp = state.syncUp
    var lines = [
      Text.header(heading, theme: syncUp.theme, width: width),
      "",
      row(.title, "Title", syncUp.title.visible, editable: true),
      row(.duration, "Length", "◂ \(Text.length(syncUp.duration)) ▸", editable: false),
      row(.theme, "Theme", "◂ \(syncUp.theme.name) ▸", editable: false),
      "",
      ANSI.bold + " Attendees" + ANSI.reset,
    ]
    for (index, attendee) in syncUp.attendees.enumerated() {
      lines.append(
        row(.attendee(attendee.id), "\(index + 1).", attendee.name.visible, editable: true))
    }
    lines += ["", ANSI.bold + " Vocabulary" + ANSI.reset + " (attendees' names are always in it)"]
    if syncUp.vocabulary.isEmpty {
      lines.append("   none yet: ^W adds a word or phrase the team uses")
    }
    for (index, word) in syncUp.vocabulary.enumerated() {
      lines.append(row(.word(index), "\(index + 1).", word.visible, editable: true))
    }
    lines.append("")
    if let problem = state.problem {
      // The rules' own words, on one line: why enter did not save.
      lines.append(ANSI.yellow + " ⚠ Cannot save: \(problem)".visible + ANSI.reset)
    }
    lines += [
      Text.hint(
        "↑↓ field · type to edit · ←→ length/theme · ^N add attendee · ^W add word · ^D remove",
        width: width),
      Text.hint("enter save · esc cancel", width: width),
    ]
    return Text.frame(lines, columns: width, rows: height)
  }

  private func row(_ row: FormField, _ label: String, _ value: String, editable: Bool) -> String {
    let selected = row == field
    let cursor = selected && editable ? "▏" : ""
    let text = (selected ? " › " : "   ") + Text.pad(label, to: 8) + value + cursor
    return selected ? ANSI.bold + text + ANSI.reset : text
  }
}
