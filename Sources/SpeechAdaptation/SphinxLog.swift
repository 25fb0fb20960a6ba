import CPocketSphinx
import Foundation

/// PocketSphinx logs through one process-wide FILE pointer: nil silences every decoder and
/// model reader, stderr lets them all talk (a `--verbose` run). Setting it never closes a file.
public enum SphinxLog {
  private static let lock = NSLock()
  /// Standard error as a C stream, opened once and never closed.
  nonisolated(unsafe) private static let standardError = fdopen(STDERR_FILENO, "a")

  public static func set(verbose: Bool) {
    lock.withLock { err_set_logfp(verbose ? standardError : nil) }
  }
}
