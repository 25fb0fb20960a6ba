import Foundation

/// A key press as the screens see it: arrows and editing keys decoded from the terminal's
/// escape sequences, everything else as the character typed. Keys nothing uses (F-keys, Insert,
/// modified keys) never become characters: their whole sequence is dropped.
public enum Key: Equatable, Sendable {
  case up, down, left, right
  case pageUp, pageDown, home, end, delete
  case enter, escape, backspace, tab
  /// Ctrl and a letter (lowercase), e.g. `.control("n")` for Ctrl-N.
  case control(Character)
  case character(Character)

  /// Decodes one key from the bytes of one press (as `read` groups them). Unknown sequences and
  /// control characters give nil.
  public static func decode(_ bytes: [UInt8]) -> Key? {
    guard let first = bytes.first else { return nil }
    switch first {
    case 0x1B:
      guard bytes.count > 1 else { return .escape }
      switch bytes[1] {
      case UInt8(ascii: "["): return controlSequence(Array(bytes.dropFirst(2)))
      case UInt8(ascii: "O"): return bytes.count == 3 ? final(bytes[2]) : nil
      default: return nil
      }
    case 0x0A, 0x0D: return .enter
    case 0x09: return .tab
    case 0x08, 0x7F: return .backspace
    case 0x01...0x1A: return .control(Character(UnicodeScalar(first - 1 + UInt8(ascii: "a"))))
    case 0x00...0x1F: return nil
    default:
      guard let text = String(bytes: bytes, encoding: .utf8), text.count == 1,
        let character = text.first, !character.unicodeScalars.contains(where: Visible.isControl)
      else { return nil }
      return .character(character)
    }
  }

  /// `ESC [ parameters final`: arrows, Home and End (`H`, `F`), and `N~` editing keys.
  private static func controlSequence(_ body: [UInt8]) -> Key? {
    guard let last = body.last, body.first != UInt8(ascii: "[") else { return nil }
    guard last == UInt8(ascii: "~") else { return final(last) }
    let parameters = String(decoding: body.dropLast(), as: UTF8.self)
    switch parameters.split(separator: ";").first {
    case "1", "7": return .home
    case "4", "8": return .end
    case "3": return .delete
    case "5": return .pageUp
    case "6": return .pageDown
    default: return nil
    }
  }

  private static func final(_ byte: UInt8) -> Key? {
    switch byte {
    case UInt8(ascii: "A"): .up
    case UInt8(ascii: "B"): .down
    case UInt8(ascii: "C"): .right
    case UInt8(ascii: "D"): .left
    case UInt8(ascii: "H"): .home
    case UInt8(ascii: "F"): .end
    default: nil
    }
  }

  /// Reads keys until the input ends, giving each to `deliver`. `next(timeout)` returns the
  /// next byte, or nil at the end of input or when `timeout` milliseconds pass (-1: wait).
  ///
  /// An escape byte is the Escape key unless `[` or `O` follows within 40 ms; then the whole
  /// sequence is read (up to its final byte), so no part of it is ever typed. Any other byte
  /// after an escape is a key of its own.
  public static func read(_ next: (Int32) -> UInt8?, deliver: (Key) -> Void) {
    var pending: UInt8?
    while let byte = pending ?? next(-1) {
      pending = nil
      var bytes = [byte]
      if byte == 0x1B, let second = next(40) {
        if second == UInt8(ascii: "[") {
          bytes.append(second)
          // Parameters and intermediates (0x20–0x3F) until a final byte (0x40–0x7E).
          // (The Linux console's F1–F5 are `ESC [ [ A`…: a second `[` is not final.)
          while bytes.count < 32, let more = next(40) {
            bytes.append(more)
            if (0x40...0x7E).contains(more), !(bytes.count == 3 && more == UInt8(ascii: "[")) {
              break
            }
          }
        } else if second == UInt8(ascii: "O") {
          bytes.append(second)
          if let more = next(40) { bytes.append(more) }
        } else {
          pending = second
        }
      } else if byte >= 0xC0 {
        let length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : 2
        while bytes.count < length, let more = next(40) { bytes.append(more) }
      }
      if let key = decode(bytes) { deliver(key) }
    }
  }
}
