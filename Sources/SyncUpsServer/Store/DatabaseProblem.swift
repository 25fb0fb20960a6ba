import Glibc
import PostgresNIO

/// Why the database refused or failed, in a person's words: the one place the server's commands
/// turn a PostgreSQL or connection error into words, without the library's types around them.
public enum DatabaseProblem {
  /// PostgreSQL's own message (a database without the server's tables says to migrate it), else
  /// the system's words for the socket's error number; nil when the error says neither.
  public static func words(_ error: any Error) -> String? {
    if let unavailable = error as? DatabaseUnavailable {
      return unavailable.reason ?? "it did not answer"
    }
    if let info = (error as? PSQLError)?.serverInfo {
      // undefined_table: a database made with createdb that `migrate` never ran on.
      if info[.sqlState] == "42P01" {
        return "it has no SyncUps tables yet: run syncups-server migrate on it first"
      }
      if let message = info[.message] { return message }
    }
    let text = String(reflecting: error)
    if let found = text.range(of: #"errno: \d+"#, options: [.regularExpression, .backwards]),
      let number = Int32(text[found].dropFirst("errno: ".count))
    {
      return String(cString: strerror(number)).lowercased()
    }
    return nil
  }
}
