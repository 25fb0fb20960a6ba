import Foundation
import Logging
import PostgresNIO
import SyncUpsWire

/// The team's store in PostgreSQL: every query the server runs, named for what it does.
///
/// It borrows a `PostgresClient` that someone runs (the application's services, or a command);
/// the client's pool opens new connections when PostgreSQL comes back after a restart.
public struct TeamStore: Sendable {
  /// Counts the passwords checked (`person(name:password:)`).
  public let passwordChecks = PasswordChecks()
  public let client: PostgresClient
  public let logger: Logger
  /// This server's time, against which pushed clocks are checked (tests set it).
  public let now: @Sendable () -> Date

  public init(
    client: PostgresClient, logger: Logger = Logger(label: "syncups-server"),
    now: @escaping @Sendable () -> Date = { Date() }
  ) {
    self.client = client
    self.logger = logger
    self.now = now
  }

  /// Brings the schema up to date (under an advisory lock), and stores the JSON of meetings
  /// saved before it was kept with them; returns how many migrations ran.
  @discardableResult
  public func migrate() async throws -> Int {
    let ran = try await Schema.migrate(client, logger: logger)
    try await fillMeetingJSON()
    return ran
  }

  /// Runs `body` with a client for `url` that is running, and stops the client afterwards.
  public static func withStore<T: Sendable>(
    _ url: DatabaseURL, logger: Logger = quietLogger,
    _ body: @Sendable (TeamStore) async throws -> T
  ) async throws -> T {
    let client = PostgresClientFactory.make(url, logger: logger)
    return try await withThrowingTaskGroup(of: Void.self) { group in
      group.addTask { await client.run() }
      defer { group.cancelAll() }
      return try await body(TeamStore(client: client, logger: logger))
    }
  }

  /// Errors only: a command's or a test's short-lived client.
  public static let quietLogger: Logger = {
    var logger = Logger(label: "syncups-server")
    logger.logLevel = .error
    return logger
  }()

  /// The newest version given to a change (0 when nothing was ever pushed).
  public func currentVersion() async throws -> Int64 {
    try await client.withOpenConnection { try await currentVersion(on: $0) }
  }

  /// The newest version given to a change, as `connection` sees it (0 when none was).
  func currentVersion(on connection: PostgresConnection) async throws -> Int64 {
    let rows = try await connection.run(
      """
      SELECT greatest((SELECT coalesce(max(version), 0) FROM sync_up),
        (SELECT coalesce(max(version), 0) FROM meeting))
      """, logger: logger)
    var version: Int64 = 0
    for try await value in rows.decode(Int64.self) { version = value }
    return version
  }
}

extension PostgresRowSequence {
  /// Every row, decoded.
  func all<T: PostgresDecodable & Sendable>(_ type: T.Type) async throws -> [T] {
    var values: [T] = []
    for try await value in decode(T.self) { values.append(value) }
    return values
  }
}
