import Foundation
import SyncUpsFeatures
import Testing

@testable import SyncUpsCLI

/// The pieces every screen shares: the key reader, the alert rule, text layout, safe text.
@Suite("Terminal keys and text")
struct TerminalTextTests {
  /// The keys `Key.read` makes of `bytes`, as if they arrived together on standard input.
  func keys(_ bytes: [UInt8]) -> [Key] {
    var input = bytes[...]
    var keys: [Key] = []
    Key.read({ _ in input.popFirst() }, deliver: { keys.append($0) })
    return keys
  }

  func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

  @Test func editingKeysAreDecodedAndOtherSequencesNeverTyped() {
    let esc = "\u{1B}"
    let pressed = [
      "[5~", "[6~", "[H", "[1~", "OH", "[F", "[4~", "[3~", "[A", "OB", "[1;5C",
    ].map { esc + $0 }
    #expect(
      keys(bytes(pressed.joined())) == [
        .pageUp, .pageDown, .home, .home, .home, .end, .end, .delete, .up, .down, .right,
      ])
    // F1 (SS3 and Linux console), F5, F12, Insert, Shift-F3, unknown finals: nothing at all.
    let ignored = ["OP", "[[A", "[15~", "[24~", "[2~", "[1;2R", "[Z"].map { esc + $0 }
    #expect(keys(bytes(ignored.joined() + "a")) == [.character("a")])
  }

  @Test func escapeAloneOrBeforeAKeyStaysEscape() {
    #expect(keys([0x1B]) == [.escape])
    #expect(keys(bytes("\u{1B}q")) == [.escape, .character("q")])
    #expect(keys(bytes("\u{1B}\u{1B}[A")) == [.escape, .up])
  }

  @Test func controlCharactersAreNeverTyped() {
    #expect(keys([0x00, 0x1C, 0x1F]) == [])
    #expect(keys(bytes("\u{85}\u{9B}")) == [])  // C1 controls, UTF-8 encoded
    #expect(keys(bytes("ë\r\u{7F}\u{0E}")) == [.character("ë"), .enter, .backspace, .control("n")])
  }

  @Test func controlCharactersAreShownAsSymbols() {
    #expect("\u{1B}[31mRed\u{07}".visible == "␛[31mRed␇")
    #expect("a\u{0}b\u{7F}c\u{9B}d\u{2028}e\u{202E}f".visible == "a␀b␡c�d␤e�f")
    #expect("Zoë 🎉".visible == "Zoë 🎉")
    #expect("\u{1B}x".visible.visible == "\u{1B}x".visible)
  }

  @Test func countsAndDurationsReadAsWords() {
    #expect(Format.count(1, "attendee") == "1 attendee")
    #expect(Format.count(0, "meeting") == "0 meetings")
    #expect(Format.count(3, "utterance") == "3 utterances")
    #expect(Format.duration(.seconds(1) / 3) == "0.3s")
    #expect(Format.duration(.seconds(36) / 3) == "12s")
    #expect(Format.duration(.seconds(300) / 7) == "42.9s")
    #expect(Format.duration(.seconds(600) / 7) == "1m25.7s")
    #expect(Format.duration(.milliseconds(20)) == "<0.1s")
    #expect(Format.duration(.seconds(3720)) == "1h2m")
    #expect(Format.duration(.zero) == "0s")
    #expect(Text.length(.seconds(45)) == "45 s")
    #expect(Text.length(.seconds(90)) == "1 min 30 s")
    #expect(Text.length(.seconds(300)) == "5 min")
  }

  @Test func textIsCutWithAnEllipsisAndWrappedWithinItsWidth() {
    #expect(Text.truncate("Morning Sync", to: 8) == "Morning…")
    #expect(Text.truncate("Morning", to: 8) == "Morning")
    #expect(Text.pad("Morning Sync", to: 5) == "Morn…")
    #expect(Text.pad("Ana", to: 5) == "Ana  ")
    let wrapped = Text.wrap("a verylongwordthatneverends b", width: 10)
    #expect(wrapped == [" a", " verylongw", " ordthatne", " verends b"])
    #expect(wrapped.allSatisfy { $0.count <= 10 })
  }

  @Test func wideCharactersTakeTwoColumns() {
    #expect("日本語".columns == 6 && "Zoë".columns == 3 && "🎉 ok".columns == 5)
    #expect(Text.pad("日本語", to: 5) == "日本…")
    #expect(Text.pad("日本語", to: 4) == "日… ")
    #expect(Text.clip("会議🎉x", to: 5) == "会議")
    #expect(Text.wrap("会議会議会議", width: 6) == [" 会議", " 会議", " 会議"])
  }

  @Test func aFrameNeverHasMoreRowsOrColumnsThanTheScreen() {
    let styled = ANSI.bold + "0123456789" + ANSI.reset
    let frame = Text.frame([styled, "abcdefghij", "x", "y"], columns: 4, rows: 3)
    #expect(frame == [ANSI.bold + "0123" + ANSI.reset, "abcd", "x"])
  }

  @Test func everyAlertUsesOneKeyRule() {
    let end = AlertState<RecordMeeting.Action.Alert>.endMeeting(isDiscardable: true)
    #expect(AlertView.keys(end) == ["s", "d", "r"])
    #expect(AlertView.action(for: .character("s"), in: end) == .presented(.confirmSave))
    #expect(AlertView.action(for: .character("d"), in: end) == .presented(.confirmDiscard))
    #expect(AlertView.action(for: .character("r"), in: end) == .dismiss)
    #expect(AlertView.action(for: .escape, in: end) == .dismiss)
    #expect(AlertView.action(for: .character("x"), in: end) == nil)
    // Two buttons starting with the same letter get different keys, on every screen.
    let failed = AlertState<RecordMeeting.Action.Alert>.recordingFailed("The disk is full.")
    #expect(AlertView.keys(failed) == ["c", "d"])
    let unavailable = AlertState<SyncUpDetail.Alert>.audioCaptureUnavailable("No server.")
    #expect(AlertView.keys(unavailable) == ["c", "a"])
  }
}
