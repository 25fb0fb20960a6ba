import ArgumentParser
import Foundation
import Hummingbird
import Logging
import SyncUpsServer

@main
struct SyncUpsServerCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "syncups-server",
    abstract: "The team's SyncUps server: meetings, search and audio over PostgreSQL.",
    version: "0.1.0",
    subcommands: [Migrate.self, Serve.self, TeamCommand.self, User.self, Token.self])
}

/// `--database URL`, else `$SYNCUPS_DATABASE_URL`.
struct DatabaseOptions: ParsableArguments {
  @Option(
    name: .long,
    help:
      "PostgreSQL URL (postgres://USER@HOST/DB, or postgres://USER@localhost/DB?host=/socket/dir); default $SYNCUPS_DATABASE_URL"
  )
  var database: String?

  func url() throws -> DatabaseURL {
    guard let text = database ?? ProcessInfo.processInfo.environment["SYNCUPS_DATABASE_URL"],
      !text.isEmpty
    else {
      throw ServerError.usage("no database: give --database URL or set SYNCUPS_DATABASE_URL")
    }
    return try DatabaseURL(text)
  }
}

/// Runs `body` against the database, turning every failure into one line and exit status 1.
func withStore<T: Sendable>(
  _ options: DatabaseOptions, _ body: @Sendable (TeamStore) async throws -> T
) async throws -> T {
  let url = try options.url()
  var logger = Logger(label: "syncups-server")
  logger.logLevel = .critical
  do {
    return try await TeamStore.withStore(url, logger: logger) { store in
      try await body(store)
    }
  } catch let error as ServerError {
    throw error
  } catch {
    throw ServerError.failed(
      "cannot use the database \(url.database) (\(url.socketDirectory ?? url.host)): "
        + "\(String(describing: error).split(separator: "\n").first ?? "")")
  }
}

struct Migrate: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Bring the database's schema up to date (safe to run at any time).")
  @OptionGroup var options: DatabaseOptions

  func run() async throws {
    let ran = try await withStore(options) { try await $0.migrate() }
    print(ran == 0 ? "The schema is up to date." : "Applied \(ran) migration(s).")
  }
}

struct Serve: AsyncParsableCommand {
  static let configuration = CommandConfiguration(abstract: "Answer the API on a port.")
  @OptionGroup var options: DatabaseOptions
  @Option(help: "The port to listen on.") var port = 8080
  @Option(help: "The address to listen on.") var host = "127.0.0.1"
  @Option(help: "Where audio files are kept.") var data = "./syncups-server-data"
  @Option(help: "Serve HTTPS with this PEM certificate (or chain); needs --tls-key.")
  var tlsCert: String?
  @Option(help: "The PEM private key of --tls-cert.") var tlsKey: String?
  @Option(help: "Seconds a connection may stay open with no request before it is closed.")
  var idleTimeout = 30
  @Option(help: "Seconds a request's line and headers may take to arrive whole.")
  var headerTimeout = 10
  @Option(
    help: ArgumentHelp(
      "The most connections open at once; past it new ones are closed at once.",
      discussion: "Default: the open-file limit (ulimit -n) less 128 kept for the database "
        + "and audio files, now \(Transport.defaultMaxConnections)."))
  var maxConnections: Int?

  @Option(
    name: .customLong("trusted-proxy"),
    help: ArgumentHelp(
      "A reverse proxy whose X-Forwarded-For, -Proto and -Host headers are believed (repeatable).",
      valueName: "address"))
  var trustedProxies: [String] = []

  /// How connections are held, from the options; every mistake one line (before the database
  /// is looked at).
  func makeTransport() throws -> Transport {
    guard idleTimeout > 0, headerTimeout > 0 else {
      throw ServerError.usage(
        "--idle-timeout and --header-timeout take a number of seconds above 0")
    }
    var transport = Transport(
      idleTimeout: .seconds(idleTimeout), headerTimeout: .seconds(headerTimeout))
    if let maxConnections {
      guard maxConnections > 0 else {
        throw ServerError.usage("--max-connections takes a number above 0")
      }
      transport.maxConnections = maxConnections
    }
    switch (tlsCert, tlsKey) {
    case (let certificate?, let key?):
      transport.tls = try Transport.tls(certificate: certificate, key: key)
    case (nil, nil):
      break
    default:
      throw ServerError.usage("give both --tls-cert and --tls-key (PEM files), or neither")
    }
    return transport
  }

  func run() async throws {
    let transport = try makeTransport()
    let url = try options.url()
    // The log on stderr (stdout says only where it listens).
    LoggingSystem.bootstrap(StreamLogHandler.standardError)
    var logger = Logger(label: "syncups-server")
    logger.logLevel = .info
    // SYNCUPS_SERVER_LOG=debug (or trace) says more, down to each query.
    if let level = ProcessInfo.processInfo.environment["SYNCUPS_SERVER_LOG"].flatMap(
      Logger.Level.init(rawValue:))
    {
      logger.logLevel = level
    }
    var proxies = try TrustedProxies(trustedProxies)
    proxies.servesHTTPS = transport.tls != nil
    let client = PostgresClientFactory.make(url, logger: logger)
    let server = try TeamServer(
      client: client, data: URL(fileURLWithPath: data, isDirectory: true), proxies: proxies,
      logger: logger)
    // Migrations first, under their lock, with a client of their own.
    _ = try await withStore(options) { try await $0.migrate() }
    let host = host
    let scheme = transport.tls == nil ? "http" : "https"
    let app = server.application(
      configuration: .init(address: .hostname(host, port: port), serverName: "syncups-server"),
      transport: transport, logger: logger
    ) { port in
      // One line on stdout once it answers (tests and scripts wait for it; port 0 picks one).
      FileHandle.standardOutput.write(
        Data("syncups-server: listening on \(scheme)://\(host):\(port)\n".utf8))
    }
    try await app.runService()
  }
}

struct User: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "The people who may use the server.",
    subcommands: [Add.self, List.self, Password.self, Remove.self, ChangeRole.self])

  struct Add: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Add a person to a team, or someone already here to one more team.")
    @OptionGroup var options: DatabaseOptions
    @Argument var name: String
    @Option(help: "reader (reads) or writer (also pushes).") var role: String
    @Option(help: "The team (needed when there are several; see `team list`).") var team: String?

    func run() async throws {
      let role = try Person.Role(option: role)
      let (name, team) = (name, team)
      let person = try await withStore(options) {
        try await $0.addPerson(name: name, role: role, team: team)
      }
      let added = person.memberships.first {
        team == nil || $0.team.lowercased() == team?.lowercased()
      }
      print(
        "Added \(person.name) (\(role.rawValue), team \(added?.team ?? "?")). Make them a token "
          + "(one is enough for all their teams): syncups-server token create \(person.name)")
    }
  }

  struct List: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "List the people.")
    @OptionGroup var options: DatabaseOptions

    func run() async throws {
      let (people, teams) = try await withStore(options) {
        (try await $0.people(), try await $0.teams())
      }
      print(User.listing(people, teams: teams.count), terminator: "")
    }
  }

  struct Password: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      abstract:
        "Set the password for the web pages, read from stdin (one line); their sessions end.")
    @OptionGroup var options: DatabaseOptions
    @Argument var name: String

    func run() async throws {
      guard let line = readLine(strippingNewline: true), !line.isEmpty else {
        throw ServerError.usage(
          "give the password on stdin, as in: echo 'secret' | syncups-server user password NAME")
      }
      let name = name
      try await withStore(options) { try await $0.setPassword(name: name, password: line) }
      print("Set the password of \(name); their web sessions (if any) have ended.")
    }
  }
}

extension User {
  struct Remove: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      abstract:
        "Remove a person: their tokens and web sessions stop at once; what they pushed stays.")
    @OptionGroup var options: DatabaseOptions
    @Argument var name: String
    @Option(help: "Take them out of this team only; their tokens keep working for the others.")
    var team: String?

    func run() async throws {
      let name = name
      if let team {
        let person = try await withStore(options) {
          try await $0.removeMembership(name: name, team: team)
        }
        print(
          "Took \(person.name) out of team \(team); their teams now: "
            + (person.memberships.isEmpty
              ? "none" : person.memberships.map(\.team).joined(separator: ", ")))
        return
      }
      let person = try await withStore(options) { try await $0.removePerson(name: name) }
      print(
        "Removed \(person.name): their tokens and web sessions no longer work; what they pushed stays."
      )
    }
  }

  struct ChangeRole: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "role",
      abstract: "Change someone's role in a team; it counts from their next request.")
    @OptionGroup var options: DatabaseOptions
    @Argument var name: String
    @Option(help: "reader (reads) or writer (also pushes).") var role: String
    @Option(help: "The team (needed when they are in several).") var team: String?

    func run() async throws {
      let role = try Person.Role(option: role)
      let (name, team) = (name, team)
      let person = try await withStore(options) {
        try await $0.setRole(name: name, role: role, team: team)
      }
      print("\(person.name) is now a \(role.rawValue)" + (team.map { " in team \($0)." } ?? "."))
    }
  }
}

struct Token: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Tokens: one per person and laptop, shown once.",
    subcommands: [Create.self, Revoke.self, List.self])

  struct Create: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Make a token; it is printed once, as the last line.")
    @OptionGroup var options: DatabaseOptions
    @Argument var name: String

    func run() async throws {
      let name = name
      let (id, token) = try await withStore(options) { try await $0.createToken(for: name) }
      print("Token \(id) for \(name); it is shown only now (the server keeps only its hash):")
      print(token)
    }
  }

  struct Revoke: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Revoke a token; its next request is refused and its person's web sessions end.")
    @OptionGroup var options: DatabaseOptions
    @Argument var id: Int64

    func run() async throws {
      let id = id
      try await withStore(options) { try await $0.revokeToken(id: id) }
      print("Revoked token \(id) and ended its person's web sessions.")
    }
  }

  struct List: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "List the tokens (never the tokens themselves).")
    @OptionGroup var options: DatabaseOptions

    func run() async throws {
      let tokens = try await withStore(options) { try await $0.tokens() }
      let format = Date.ISO8601FormatStyle()
      print("ID    PERSON                  CREATED               REVOKED")
      for token in tokens {
        print(
          String(token.id).padding(toLength: 6, withPad: " ", startingAt: 0)
            + token.person.padding(toLength: 24, withPad: " ", startingAt: 0)
            + token.created.formatted(format).padding(toLength: 22, withPad: " ", startingAt: 0)
            + (token.revoked.map { $0.formatted(format) } ?? "-"))
      }
    }
  }
}

extension Person.Role {
  /// `--role`'s value, or one line saying which it takes.
  init(option text: String) throws {
    guard let role = Self(rawValue: text) else {
      throw ServerError.usage("--role is reader or writer, not '\(text.prefix(40))'")
    }
    self = role
  }
}
