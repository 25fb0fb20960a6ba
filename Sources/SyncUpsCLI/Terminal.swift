import Foundation
import Glibc

/// The controlling terminal: whether there is one, its size, raw key input and ANSI styling.
/// Only the command-line layer uses it; features never see a terminal.
public enum Terminal {
  public static var isInteractive: Bool { isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1 }
  public static var stderrIsTerminal: Bool { isatty(STDERR_FILENO) == 1 }

  public static var size: (columns: Int, rows: Int) {
    var size = winsize()
    guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else {
      return (80, 24)
    }
    return (Int(size.ws_col), Int(size.ws_row))
  }

  /// Puts the terminal in raw mode on the alternate screen, and back when `restore` is called.
  public final class Session: @unchecked Sendable {
    private var original = termios()
    private var restored = false

    public init() {
      tcgetattr(STDIN_FILENO, &original)
      var raw = original
      raw.c_lflag &= ~tcflag_t(ECHO | ICANON)
      raw.c_cc.6 = 1  // VMIN: a read returns after one byte
      raw.c_cc.5 = 0  // VTIME
      tcsetattr(STDIN_FILENO, TCSAFLUSH, &raw)
      write(ANSI.alternateScreen + ANSI.hideCursor)
    }

    public func restore() {
      guard !restored else { return }
      restored = true
      write(ANSI.showCursor + ANSI.mainScreen)
      tcsetattr(STDIN_FILENO, TCSAFLUSH, &original)
    }

    deinit { restore() }

    /// Draws a whole frame, fitted to the terminal's size: never more rows than it has, no line
    /// wider than it (so nothing wraps, and the top line never scrolls away).
    public func draw(_ lines: [String]) {
      let size = Terminal.size
      let frame = Text.frame(lines, columns: size.columns, rows: size.rows)
      write(
        ANSI.home + frame.map { $0 + ANSI.clearLine }.joined(separator: "\r\n") + ANSI.clearBelow)
    }

    private func write(_ text: String) {
      // A terminal that went away ends the session through its keys; nothing to say here.
      try? Console.out(text)
    }
  }

  /// Key presses from standard input (see `Key.read`), read on a thread of their own; `ended`
  /// runs when the input closes. The one key reader of `syncups record` and the app.
  public static func readKeys(
    _ deliver: @escaping @Sendable (Key) -> Void, ended: @escaping @Sendable () -> Void
  ) {
    let thread = Thread {
      Key.read(readByte, deliver: deliver)
      ended()
    }
    thread.start()
  }

  /// One byte from standard input; nil at end of input or when `timeout` (ms, -1: none) passes.
  private static func readByte(timeout: Int32) -> UInt8? {
    var descriptor = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
    while true {
      let ready = poll(&descriptor, 1, timeout)
      if ready == -1, errno == EINTR { continue }
      guard ready == 1 else { return nil }
      var byte: UInt8 = 0
      return read(STDIN_FILENO, &byte, 1) == 1 ? byte : nil
    }
  }
}

/// The escape sequences the screens use.
public enum ANSI {
  public static let reset = "\u{1B}[0m"
  public static let bold = "\u{1B}[1m"
  public static let dim = "\u{1B}[2m"
  public static let red = "\u{1B}[31m"
  public static let yellow = "\u{1B}[33m"
  public static let home = "\u{1B}[H"
  public static let clearLine = "\u{1B}[K"
  public static let clearBelow = "\u{1B}[J"
  public static let hideCursor = "\u{1B}[?25l"
  public static let showCursor = "\u{1B}[?25h"
  public static let alternateScreen = "\u{1B}[?1049h"
  public static let mainScreen = "\u{1B}[?1049l"

  /// A 24-bit background colour with the given foreground, for theme headers.
  public static func colors(foreground: UInt32, background: UInt32) -> String {
    func rgb(_ value: UInt32) -> String {
      "\(value >> 16 & 0xFF);\(value >> 8 & 0xFF);\(value & 0xFF)"
    }
    return "\u{1B}[38;2;\(rgb(foreground))m\u{1B}[48;2;\(rgb(background))m"
  }
}
