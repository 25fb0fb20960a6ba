import ErrorWords
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Every line `syncups` prints goes through here: what a command was asked for on stdout,
/// messages on stderr (each `syncups: …`, on one line). A write to stdout that fails (a full
/// disk, a closed stdout) is an error the command reports, saying whether its change was saved;
/// a write to stderr that fails has nowhere to be said and is dropped.
public enum Console {
  /// Writes `text` to stdout whole. `saved` names what the command already committed (`sync-up
  /// 'Standup' (1a2b3c4d)`): when the text cannot be written, the error says it was saved, so
  /// nobody runs the command again to save it twice.
  public static func out(_ text: String, saved: String? = nil) throws(CLIError) {
    guard let problem = write(text, to: STDOUT_FILENO) else { return }
    guard let saved else { throw CLIError("cannot write the output (\(problem))") }
    throw CLIError("\(saved) was saved, but its output could not be written (\(problem))")
  }

  /// `syncups: line` on stderr, the line's control characters shown, never obeyed.
  public static func error(_ line: String) {
    raw("syncups: " + line.oneLine + "\n")
  }

  /// `text` as it is on stderr: a question, or a progress bar redrawn in place.
  public static func raw(_ text: String) {
    _ = write(text, to: STDERR_FILENO)
  }

  /// Writes every byte of `text` to `fd`; the reason it could not, or nil.
  static func write(_ text: String, to fd: Int32) -> String? {
    var bytes = Array(text.utf8)[...]
    while !bytes.isEmpty {
      let written = bytes.withUnsafeBytes { buffer in
        Glibc.write(fd, buffer.baseAddress, buffer.count)
      }
      if written < 0 {
        if errno == EINTR { continue }
        return ErrorWords.reason(errno: errno)
      }
      bytes = bytes.dropFirst(written)
    }
    return nil
  }
}
