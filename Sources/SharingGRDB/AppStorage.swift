import Dependencies
import Foundation
import GRDB
import IssueReporting
import Sharing

/// Where `.appStorage` keys keep their values: a `setting(key, value)` table in a database
/// (created if missing). Reached through the `defaultAppStorage` dependency: tests get an empty
/// one in memory.
public struct AppStorage: Sendable {
  public let database: any DatabaseWriter

  public init(database: any DatabaseWriter) throws {
    self.database = database
    try database.write { db in
      try db.execute(
        sql: "CREATE TABLE IF NOT EXISTS setting (key TEXT PRIMARY KEY NOT NULL, value)")
    }
  }

  /// A database whose schema already has the `setting` table: nothing is written on creation
  /// (a read-only database works too; its settings can only be read).
  public init(settingsIn database: any DatabaseWriter) {
    self.database = database
  }

  public static func inMemory() -> AppStorage { try! AppStorage(database: DatabaseQueue()) }
}

public enum DefaultAppStorageKey: DependencyKey {
  public static var liveValue: AppStorage {
    reportIssue("No app storage: set 'defaultAppStorage' at launch. Values are kept in memory.")
    return .inMemory()
  }
  public static var testValue: AppStorage { .inMemory() }
}

extension DependencyValues {
  public var defaultAppStorage: AppStorage {
    get { self[DefaultAppStorageKey.self] }
    set { self[DefaultAppStorageKey.self] = newValue }
  }
}

/// Reads and writes one setting. Requests are equal when their keys are (whatever default).
public struct AppStorageRequest<Value: DatabaseValueConvertible & Hashable & Sendable>:
  DatabaseValueRequest, CustomStringConvertible
{
  public let key: String
  let defaultValue: Value

  public func fetch(_ db: Database) throws -> Value {
    let stored = try DatabaseValue.fetchOne(
      db, sql: "SELECT value FROM setting WHERE key = ?", arguments: [key])
    return stored.flatMap { Value.fromDatabaseValue($0) } ?? defaultValue
  }

  public func save(
    from old: Value, to new: Value, changed: Set<AnyHashable>?, in db: Database
  ) throws {
    try db.execute(
      sql:
        """
        INSERT INTO setting (key, value) VALUES (?, ?)
        ON CONFLICT (key) DO UPDATE SET value = excluded.value
        """,
      arguments: [key, new])
  }

  public var description: String { String(reflecting: key) }
  public static func == (lhs: Self, rhs: Self) -> Bool { lhs.key == rhs.key }
  public func hash(into hasher: inout Hasher) { hasher.combine(key) }
}

extension SharedReaderKey {
  /// `@Shared(.appStorage("lastSource")) var source = ""`: a simple value (string, number,
  /// boolean, URL, data) kept under `key` in the `defaultAppStorage` dependency's settings.
  public static func appStorage<Value: DatabaseValueConvertible & Hashable & Sendable>(
    _ key: String, default defaultValue: Value
  ) -> Self where Self == DatabaseKey<AppStorageRequest<Value>> {
    @Dependency(\.defaultAppStorage) var storage
    return DatabaseKey(
      AppStorageRequest(key: key, defaultValue: defaultValue), database: storage.database)
  }
}

extension Shared where Value: DatabaseValueConvertible & Hashable & Sendable {
  /// `@Shared(.appStorage("volume")) var volume = 0.5`
  public init(
    wrappedValue: @autoclosure () -> Value, _ key: AppStorageKeyName
  ) {
    let value = wrappedValue()
    self.init(wrappedValue: value, .appStorage(key.name, default: value))
  }
}

/// The name in `@Shared(.appStorage("key"))`: the default comes from the declaration.
public struct AppStorageKeyName: Sendable {
  public let name: String
  public static func appStorage(_ name: String) -> Self { Self(name: name) }
}
