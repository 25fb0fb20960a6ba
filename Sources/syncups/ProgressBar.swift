import Foundation
import SyncUpsCLI

/// A one-line progress bar on stderr, shown only when stderr is a terminal.
final class ProgressBar: @unchecked Sendable {
  private let lock = NSLock()
  private var shown = false

  static func forStandardError() -> ProgressBar? {
    isatty(STDERR_FILENO) == 1 ? ProgressBar() : nil
  }

  func update(_ done: Int, _ total: Int) {
    lock.withLock {
      let width = 30
      let filled = total > 0 ? width * done / total : width
      let bar =
        String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
      write("\r[\(bar)] \(done)/\(total) files")
      shown = true
    }
  }

  /// Erases the bar so a line printed next starts clean.
  func clear() {
    lock.withLock {
      if shown { write("\r\u{1B}[K") }
    }
  }

  func finish() {
    lock.withLock {
      if shown { write("\n") }
      shown = false
    }
  }

  private func write(_ text: String) { Console.raw(text) }
}
