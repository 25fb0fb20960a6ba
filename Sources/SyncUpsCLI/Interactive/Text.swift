import Architecture
import Foundation
import SyncUpsFeatures

/// Layout helpers the screens share: fixed-width cells, word wrapping, alerts.
enum Text {
  /// `text` cut or padded with spaces to exactly `width` characters (plain text only).
  static func pad(_ text: String, to width: Int) -> String {
    let width = max(width, 0)
    return text.count >= width
      ? String(text.prefix(width)) : text + String(repeating: " ", count: width - text.count)
  }

  /// `text` wrapped on spaces into lines of at most `width` characters, each indented by
  /// `indent`.
  static func wrap(_ text: String, width: Int, indent: String = " ") -> [String] {
    let room = max(width - indent.count, 10)
    var lines: [String] = []
    var line = ""
    for word in text.split(separator: " ") {
      if line.count + word.count + 1 > room, !line.isEmpty {
        lines.append(indent + line)
        line = ""
      }
      line += line.isEmpty ? String(word) : " " + word
    }
    if !line.isEmpty { lines.append(indent + line) }
    return lines
  }

  /// A header bar in the sync-up's theme colours.
  static func header(_ title: String, right: String = "", theme: Theme, width: Int) -> String {
    ANSI.colors(foreground: theme.accentColor, background: theme.mainColor) + ANSI.bold
      + pad(" " + title, to: width - right.count - 1) + right + " " + ANSI.reset
  }

  /// A dim line of key hints, cut to the screen's width.
  static func hint(_ text: String, width: Int) -> String {
    ANSI.dim + " " + String(text.prefix(max(width - 2, 0))) + ANSI.reset
  }

  static func minutes(_ duration: Duration) -> String {
    let minutes = Int((duration.seconds / 60).rounded())
    return minutes == 1 ? "1 min" : "\(minutes) min"
  }
}

/// How an alert looks and which key picks each button.
enum AlertView {
  /// Each button's key: the first letter of its label not taken by an earlier button
  /// ("Continue without recording" → c, "Cancel" → a).
  static func keys<Action>(_ alert: AlertState<Action>) -> [Character] {
    var taken: Set<Character> = []
    return alert.buttons.map { button in
      let letters = button.label.string.lowercased().filter(\.isLetter)
      let key = letters.first { !taken.contains($0) } ?? letters.first ?? "?"
      taken.insert(key)
      return key
    }
  }

  /// The button `key` picks, if any.
  static func button<Action>(for key: Character, in alert: AlertState<Action>) -> ButtonState<Action>? {
    zip(keys(alert), alert.buttons).first { $0.0 == key }?.1
  }

  static func lines<Action>(_ alert: AlertState<Action>, width: Int) -> [String] {
    var lines = ["", ANSI.bold + " " + alert.title.string + ANSI.reset]
    if let message = alert.message { lines += Text.wrap(message.string, width: width) }
    let buttons = zip(keys(alert), alert.buttons).map { "[\($0.0)] \($0.1.label.string)" }
    lines.append(" " + buttons.joined(separator: "   "))
    return lines
  }
}
