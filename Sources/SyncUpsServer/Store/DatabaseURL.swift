import Foundation
import PostgresNIO

/// Where the server's PostgreSQL is: `postgres://USER[:PASSWORD]@HOST[:PORT]/DB`, or a Unix
/// socket as `postgres://USER@localhost/DB?host=/socket/dir` (the socket is `.s.PGSQL.PORT` in it).
public struct DatabaseURL: Equatable, Sendable {
  public var username: String
  public var password: String?
  public var database: String
  public var host: String
  public var port: Int
  /// The socket directory, when it is a Unix socket.
  public var socketDirectory: String?

  public init(_ text: String) throws(ServerError) {
    guard let url = URLComponents(string: text),
      url.scheme == "postgres" || url.scheme == "postgresql"
    else {
      throw ServerError.usage(
        "'\(text)' is not a PostgreSQL URL; give postgres://USER@HOST/DB or "
          + "postgres://USER@localhost/DB?host=/socket/dir")
    }
    guard let user = url.user, !user.isEmpty else {
      throw ServerError.usage("the database URL names no user; give postgres://USER@HOST/DB")
    }
    let database = String(url.path.drop(while: { $0 == "/" }))
    guard !database.isEmpty else {
      throw ServerError.usage("the database URL names no database; give postgres://USER@HOST/DB")
    }
    username = user
    password = url.password
    self.database = database
    host = url.host ?? "localhost"
    port = url.port ?? 5432
    socketDirectory = url.queryItems?.first(where: { $0.name == "host" })?.value
  }

  /// The same server with another database (tests make one each).
  public func with(database: String) -> DatabaseURL {
    var copy = self
    copy.database = database
    return copy
  }

  /// For one connection of its own (no pool), as `configuration` is for a pool.
  var connection: PostgresConnection.Configuration {
    if let socketDirectory {
      return PostgresConnection.Configuration(
        unixSocketPath: socketDirectory + "/.s.PGSQL.\(port)", username: username,
        password: password, database: database)
    }
    return PostgresConnection.Configuration(
      host: host, port: port, username: username, password: password, database: database,
      tls: .disable)
  }

  public var configuration: PostgresClient.Configuration {
    if let socketDirectory {
      return PostgresClient.Configuration(
        unixSocketPath: socketDirectory + "/.s.PGSQL.\(port)", username: username,
        password: password, database: database)
    }
    return PostgresClient.Configuration(
      host: host, port: port, username: username, password: password, database: database,
      tls: .disable)
  }
}

/// What the server and its commands say when something is wrong: one line in words.
public enum ServerError: Error, Equatable, CustomStringConvertible {
  /// A mistake in how a command was called.
  case usage(String)
  /// Something the database or the data refused.
  case failed(String)

  public var description: String {
    switch self {
    case .usage(let message), .failed(let message): message
    }
  }
}

extension ServerError: LocalizedError {
  public var errorDescription: String? { description }
}

/// A PostgreSQL client for a URL (run it before use: `client.run()`, or as a service).
public enum PostgresClientFactory {
  public static func make(_ url: DatabaseURL, logger: Logger) -> PostgresClient {
    let client = PostgresClient(configuration: url.configuration, backgroundLogger: logger)
    DirectConnections.shared.register(client, url.connection, logger: logger)
    return client
  }
}
