import Foundation

/// Names of the databases tests make on the private PostgreSQL (`.ci/postgres`):
/// `syncups_KIND_PID_RANDOM`, with the PID of the test program that made it, so `.ci/postgres`
/// drops those whose test program no longer runs and never one still in use.
public enum TestDatabase {
  /// A new database name of `kind` ("test", "e2e"), 12 random hex digits after the PID.
  public static func name(_ kind: String = "test") -> String {
    let random = UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
    return "syncups_\(kind)_\(getpid())_\(random.prefix(12))"
  }
}
