import Foundation
import Glibc

/// A key press as the interactive app sees it: arrows and editing keys decoded from the
/// terminal's escape sequences, everything else as the character typed.
public enum Key: Equatable, Sendable {
  case up, down, left, right
  case enter, escape, backspace, tab
  /// Ctrl and a letter (lowercase), e.g. `.control("n")` for Ctrl-N.
  case control(Character)
  case character(Character)

  /// Decodes one key from the bytes that arrived together. Unknown sequences give nil.
  public static func decode(_ bytes: [UInt8]) -> Key? {
    guard let first = bytes.first else { return nil }
    switch first {
    case 0x1B:
      guard bytes.count > 1 else { return .escape }
      guard bytes.count == 3, bytes[1] == UInt8(ascii: "[") || bytes[1] == UInt8(ascii: "O") else {
        return nil
      }
      switch bytes[2] {
      case UInt8(ascii: "A"): return .up
      case UInt8(ascii: "B"): return .down
      case UInt8(ascii: "C"): return .right
      case UInt8(ascii: "D"): return .left
      default: return nil
      }
    case 0x0A, 0x0D: return .enter
    case 0x09: return .tab
    case 0x08, 0x7F: return .backspace
    case 0x01...0x1A: return .control(Character(UnicodeScalar(first - 1 + UInt8(ascii: "a"))))
    default:
      guard let text = String(bytes: bytes, encoding: .utf8), text.count == 1 else { return nil }
      return .character(text.first!)
    }
  }

  /// Key presses from standard input, read on a thread of their own; `ended` runs when the
  /// input closes. An escape byte is the Escape key unless `[` or `O` follows within 40 ms (an
  /// arrow key's sequence).
  public static func presses(
    _ deliver: @escaping @Sendable (Key) -> Void, ended: @escaping @Sendable () -> Void
  ) {
    let thread = Thread {
      // A byte read after an escape that does not start a sequence: a key of its own.
      var pending: UInt8?
      while let byte = pending ?? readByte(timeout: -1) {
        pending = nil
        var bytes = [byte]
        if byte == 0x1B, let next = readByte(timeout: 40) {
          if next == UInt8(ascii: "[") || next == UInt8(ascii: "O") {
            bytes.append(next)
            if let last = readByte(timeout: 40) { bytes.append(last) }
          } else {
            pending = next
          }
        } else if byte >= 0xC0 {
          let length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : 2
          while bytes.count < length, let next = readByte(timeout: 40) { bytes.append(next) }
        }
        if let key = decode(bytes) { deliver(key) }
      }
      ended()
    }
    thread.start()
  }

  /// One byte from standard input; nil at end of input or when `timeout` (ms, -1: none) passes.
  private static func readByte(timeout: Int32) -> UInt8? {
    var descriptor = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
    guard poll(&descriptor, 1, timeout) == 1 else { return nil }
    var byte: UInt8 = 0
    return read(STDIN_FILENO, &byte, 1) == 1 ? byte : nil
  }
}
