import Architecture
import Foundation
import SyncUpsFeatures

/// Text from the data (titles, names, transcripts) made safe to print: control characters and
/// the marks that reorder text never reach the terminal; each shows as a visible symbol instead
/// (escape as `␛`, bell as `␇`, others as `�`). Every table, screen and line uses it.
public enum Visible {
  /// C0 controls, DEL, C1 controls, line and paragraph separators, and bidirectional overrides.
  public static func isControl(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x00...0x1F, 0x7F...0x9F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069: true
    default: false
    }
  }

  public static func text(_ text: String) -> String {
    guard text.unicodeScalars.contains(where: isControl) else { return text }
    var out = String.UnicodeScalarView()
    for scalar in text.unicodeScalars {
      guard isControl(scalar) else {
        out.append(scalar)
        continue
      }
      switch scalar.value {
      case 0x00...0x1F: out.append(Unicode.Scalar(0x2400 + scalar.value)!)  // ␀ … ␟
      case 0x7F: out.append("\u{2421}")  // ␡
      case 0x2028, 0x2029: out.append("\u{2424}")  // ␤
      default: out.append("\u{FFFD}")
      }
    }
    return String(out)
  }
}

extension String {
  /// This text with its control characters shown, not obeyed (see `Visible`).
  public var visible: String { Visible.text(self) }
}

extension Character {
  /// How many terminal columns the character takes: two for East Asian wide characters and
  /// emoji shown as pictures, one for the others.
  var columns: Int {
    guard let first = unicodeScalars.first, first.value >= 0x1100 else { return 1 }
    let isEmoji =
      first.properties.isEmojiPresentation
      || (first.properties.isEmoji && unicodeScalars.contains("\u{FE0F}"))
    switch first.value {
    case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
      0xA000...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
      0xFFE0...0xFFE6, 0x20000...0x3FFFD:
      return 2
    default:
      return isEmoji ? 2 : 1
    }
  }
}

extension StringProtocol {
  /// Terminal columns: the sum of the characters' `columns`.
  var columns: Int { reduce(0) { $0 + $1.columns } }
}

/// Layout helpers every screen uses: fixed-width cells, word wrapping, headers, the frame.
/// Widths are terminal columns (`Character.columns`); the only escape sequences in a line are
/// the screens' own styles.
enum Text {
  /// `text` cut (ending in `…`) or padded with spaces to exactly `width` columns.
  static func pad(_ text: String, to width: Int) -> String {
    let cut = truncate(text, to: max(width, 0))
    return cut + String(repeating: " ", count: max(width - cut.columns, 0))
  }

  /// `text` at most `width` columns wide: cut with `…` as its last character when wider.
  static func truncate(_ text: String, to width: Int) -> String {
    guard text.columns > width else { return text }
    return width <= 0 ? "" : prefix(text, columns: width - 1) + "…"
  }

  /// The longest start of `text` that fits in `columns`.
  static func prefix(_ text: some StringProtocol, columns: Int) -> String {
    var out = ""
    var used = 0
    for character in text {
      used += character.columns
      guard used <= columns else { break }
      out.append(character)
    }
    return out
  }

  /// `text` wrapped on spaces into lines of at most `width` columns, each starting with
  /// `indent`; a word longer than a line is broken.
  static func wrap(_ text: String, width: Int, indent: String = " ") -> [String] {
    let room = max(width - indent.columns, 2)
    var lines: [String] = []
    var line = ""
    for word in text.split(separator: " ") {
      var word = Substring(word)
      if !line.isEmpty, line.columns + 1 + word.columns > room {
        lines.append(indent + line)
        line = ""
      }
      while line.isEmpty, word.columns > room {
        let piece = prefix(word, columns: room)
        lines.append(indent + piece)
        word = word.dropFirst(max(piece.count, 1))
      }
      guard !word.isEmpty else { continue }
      line += line.isEmpty ? String(word) : " " + word
    }
    if !line.isEmpty { lines.append(indent + line) }
    return lines
  }

  /// A header bar in the sync-up's theme colours: the title (cut with `…` when it does not
  /// fit), and `right` at the right end, at least one space apart.
  static func header(_ title: String, right: String = "", theme: Theme, width: Int) -> String {
    let right = right.isEmpty ? "" : " " + right
    let room = max(width - right.columns - 1, 0)
    return ANSI.colors(foreground: theme.accentColor, background: theme.mainColor) + ANSI.bold
      + pad(" " + title.visible, to: room) + right + " " + ANSI.reset
  }

  /// A dim line of key hints, cut to the screen's width.
  static func hint(_ text: String, width: Int) -> String {
    ANSI.dim + " " + truncate(text, to: max(width - 2, 0)) + ANSI.reset
  }

  /// A sync-up's length as the screens show it: `5 min`, `1 min 30 s`, `45 s`.
  static func length(_ duration: Duration) -> String {
    let total = max(0, Int(duration.components.seconds))
    let minutes = total / 60
    let seconds = total % 60
    switch (minutes, seconds) {
    case (0, _): return "\(seconds) s"
    case (_, 0): return "\(minutes) min"
    default: return "\(minutes) min \(seconds) s"
    }
  }

  /// What fits on a screen of `columns`×`rows`: at most `rows` lines, each cut to `columns`
  /// characters (styles kept, and reset when a styled line is cut), so nothing ever wraps or
  /// scrolls the screen.
  static func frame(_ lines: [String], columns: Int, rows: Int) -> [String] {
    lines.prefix(max(rows, 0)).map { clip($0, to: max(columns, 0)) }
  }

  /// A screen of two-row items between `header` and `footer`: the items' rows scroll so the
  /// selected item (`selection`, its index) stays on screen, and blank lines fill the rest.
  static func pairs(
    header: [String], rows items: [String], selection: Int, footer: [String], columns: Int,
    rows: Int
  ) -> [String] {
    let room = max(rows - header.count - footer.count, 2)
    let selected = selection * 2
    let first = min(max(selected + 2 - room, 0), max(items.count - room, 0))
    let shown = Array(items.dropFirst(first).prefix(room))
    let padding = Array(repeating: "", count: max(room - shown.count, 0))
    return frame(header + shown + padding + footer, columns: columns, rows: rows)
  }

  /// `line` cut to `width` columns; escape sequences are kept and not counted.
  static func clip(_ line: String, to width: Int) -> String {
    var out = ""
    var visible = 0
    var styled = false
    var inEscape = false
    for character in line {
      if inEscape {
        out.append(character)
        if let scalar = character.unicodeScalars.first, (0x40...0x7E).contains(scalar.value),
          character != "["
        {
          inEscape = false
        }
        continue
      }
      if character == "\u{1B}" {
        inEscape = true
        styled = true
        out.append(character)
        continue
      }
      guard visible + character.columns <= width else { return styled ? out + ANSI.reset : out }
      out.append(character)
      visible += character.columns
    }
    return out
  }
}

/// How an alert looks and which key picks each button: one rule for every screen.
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

  /// The button a key picks: its letter, or Escape for the cancel button.
  static func button<Action>(for key: Key, in alert: AlertState<Action>) -> ButtonState<Action>? {
    switch key {
    case .character(let letter): zip(keys(alert), alert.buttons).first { $0.0 == letter }?.1
    case .escape: alert.cancelButton
    default: nil
    }
  }

  /// What choosing the button `key` picks sends: its action, or a plain dismissal.
  static func action<Action>(for key: Key, in alert: AlertState<Action>) -> PresentationAction<
    Action
  >? {
    button(for: key, in: alert).map { button in button.action.map { .presented($0) } ?? .dismiss }
  }

  /// A blank line, the title, the message wrapped, and the buttons as `[key] label`.
  static func lines<Action>(_ alert: AlertState<Action>, width: Int) -> [String] {
    var lines = ["", ANSI.bold + " " + alert.title.string.visible + ANSI.reset]
    if let message = alert.message { lines += Text.wrap(message.string.visible, width: width) }
    let buttons = zip(keys(alert), alert.buttons).map { "[\($0.0)] \($0.1.label.string.visible)" }
    lines.append(" " + buttons.joined(separator: "   "))
    return lines
  }
}
