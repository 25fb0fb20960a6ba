import Dependencies
import GRDB
import IssueReporting

/// The database `@Shared(.fetch(...))`, `.database(...)` and `.appStorage(...)` keys use, read
/// where the first reference to a key is created. An app sets it once at launch
/// (`prepareDependencies { $0.defaultDatabase = try! open() }`); each test gets an empty
/// in-memory database unless it sets its own.
public enum DefaultDatabaseKey: DependencyKey {
  public static var liveValue: any DatabaseWriter {
    reportIssue(
      """
      No database: set 'defaultDatabase' (prepareDependencies or withDependencies) before \
      creating database-backed shared state. An in-memory database is used instead.
      """
    )
    return try! DatabaseQueue()
  }
  public static var testValue: any DatabaseWriter { try! DatabaseQueue() }
}

extension DependencyValues {
  public var defaultDatabase: any DatabaseWriter {
    get { self[DefaultDatabaseKey.self] }
    set { self[DefaultDatabaseKey.self] = newValue }
  }
}
