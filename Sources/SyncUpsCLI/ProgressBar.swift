import Foundation

/// A one-line progress bar on stderr, shown only when stderr is a terminal.
public final class ProgressBar: @unchecked Sendable {
  private let lock = NSLock()
  private var shown = false

  public static func forStandardError() -> ProgressBar? {
    isatty(STDERR_FILENO) == 1 ? ProgressBar() : nil
  }

  public func update(_ done: Int, _ total: Int) {
    draw(total > 0 ? Double(done) / Double(total) : 1, "\(done)/\(total) files")
  }

  /// `fraction` (0…1) done of `what`.
  public func update(_ fraction: Double, of what: String) {
    draw(fraction, "\(Int((min(max(fraction, 0), 1) * 100).rounded(.down)))% \(what)")
  }

  private func draw(_ fraction: Double, _ label: String) {
    lock.withLock {
      let width = 30
      let filled = Int((min(max(fraction, 0), 1) * Double(width)).rounded(.down))
      let bar =
        String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
      write("\r[\(bar)] \(label)")
      shown = true
    }
  }

  /// Erases the bar so a line printed next starts clean.
  public func clear() {
    lock.withLock {
      if shown { write("\r\u{1B}[K") }
    }
  }

  public func finish() {
    lock.withLock {
      if shown { write("\n") }
      shown = false
    }
  }

  private func write(_ text: String) { Console.raw(text) }
}
