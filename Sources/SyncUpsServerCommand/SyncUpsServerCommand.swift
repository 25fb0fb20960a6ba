import ArgumentParser
import Foundation
import Hummingbird
import Logging
import SyncUpsServer
import SyncUpsVersion

@main
struct SyncUpsServerCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "syncups-server",
    abstract: "The team's SyncUps server: meetings, search and audio over PostgreSQL.",
    version: SyncUpsVersion.current,
    subcommands: [
      Migrate.self, Serve.self, CheckConfig.self, TeamCommand.self, User.self, Token.self,
      Backup.self, Restore.self,
    ])
}

/// `--database URL`, else `$SYNCUPS_DATABASE_URL`, else the configuration file's.
struct DatabaseOptions: ParsableArguments {
  @Option(
    name: .long,
    help:
      "PostgreSQL URL (postgres://USER@HOST/DB, or postgres://USER@localhost/DB?host=/socket/dir); default $SYNCUPS_DATABASE_URL, else the configuration file's"
  )
  var database: String?

  @Option(
    help: ArgumentHelp(
      "The configuration file (KEY=value lines; see check-config).",
      discussion: "Default: $\(ServerConfiguration.pathVariable), else "
        + "\(ServerConfiguration.defaultPath) when it exists.",
      valueName: "file"))
  var config: String?

  /// The configuration file's settings (none when there is no file); its first mistake is one
  /// line.
  func configuration() throws -> ServerConfiguration {
    let environment = ProcessInfo.processInfo.environment
    guard let path = ServerConfiguration.path(option: config, environment: environment) else {
      return ServerConfiguration()
    }
    let configuration = try ServerConfiguration.load(path: path)
    if let problem = configuration.problems.first {
      throw ServerError.usage(
        "\(path), \(problem) (syncups-server check-config --config \(path) lists every mistake)")
    }
    return configuration
  }

  /// The file is read only when neither the option nor the environment names the database.
  func url(_ configuration: ServerConfiguration? = nil) throws -> DatabaseURL {
    let environment = ProcessInfo.processInfo.environment
    let key = "SYNCUPS_DATABASE_URL"
    let file =
      database != nil || !(environment[key] ?? "").isEmpty
      ? ServerConfiguration() : try configuration ?? self.configuration()
    guard let text = try file.resolved(key, option: database, environment: environment) else {
      throw ServerError.usage(
        "no database: give --database URL, set SYNCUPS_DATABASE_URL, or set it in the "
          + "configuration file (\(ServerConfiguration.defaultPath) or --config FILE)")
    }
    return try DatabaseURL(text)
  }
}

/// Runs `body` against the database, turning every failure into one line and exit status 1.
func withStore<T: Sendable>(
  _ options: DatabaseOptions, _ body: @Sendable (TeamStore) async throws -> T
) async throws -> T {
  try await withStore(try options.url(), body)
}

func withStore<T: Sendable>(
  _ url: DatabaseURL, _ body: @Sendable (TeamStore) async throws -> T
) async throws -> T {
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
    abstract: "Bring the database's schema up to date (safe to run at any time).",
    discussion: "With --data DIR, also import the audio files that a server from before kept in "
      + "DIR/audio (each checked against the SHA-256 it is named by; run it again and nothing "
      + "is imported twice).")
  @OptionGroup var options: DatabaseOptions
  @Option(help: "The data folder of a server from before, whose audio files to import.")
  var data: String?

  func run() async throws {
    let folder = data.map { URL(fileURLWithPath: $0).appendingPathComponent("audio") }
    if let folder, !FileManager.default.fileExists(atPath: folder.path) {
      throw ServerError.usage("\(folder.path) is not there: give the folder that holds audio/")
    }
    let (ran, outcome) = try await withStore(options) { store in
      let ran = try await store.migrate()
      guard let folder else { return (ran, nil as AudioImport.Outcome?) }
      let audio = AudioStore(client: store.client, logger: store.logger)
      return (ran, try await AudioImport(audio: audio).run(folder: folder))
    }
    print(ran == 0 ? "The schema is up to date." : "Applied \(ran) migration(s).")
    guard let folder, let outcome else { return }
    for line in outcome.skipped { FileHandle.standardError.write(Data("\(line)\n".utf8)) }
    print(
      "Imported \(outcome.imported) audio file(s) from \(folder.path); "
        + "\(outcome.alreadyHere) already in the database, \(outcome.ignored) not named by a hash "
        + "(left alone), \(outcome.skipped.count) skipped.")
    if !outcome.skipped.isEmpty {
      throw ServerError.failed(
        "\(outcome.skipped.count) audio file(s) were not imported (named above); "
          + "the others were")
    }
  }
}

struct Serve: AsyncParsableCommand {
  static let configuration = CommandConfiguration(abstract: "Answer the API on a port.")
  @OptionGroup var options: DatabaseOptions
  @Option(help: "The port to listen on (default $SYNCUPS_PORT, else the file's, else 8080).")
  var port: Int?
  @Option(
    help: "The address to listen on (default $SYNCUPS_HOST, else the file's, else 127.0.0.1).")
  var host: String?
  @Option(help: .hidden) var data: String?
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
        + "and other files, now \(Transport.defaultMaxConnections)."))
  var maxConnections: Int?

  @Option(
    name: .customLong("trusted-proxy"),
    help: ArgumentHelp(
      "A reverse proxy whose X-Forwarded-For, -Proto and -Host headers are believed (repeatable).",
      valueName: "address"))
  var trustedProxies: [String] = []

  @Option(
    name: .customLong("metrics-from"),
    help: ArgumentHelp(
      "An address or network (CIDR) allowed to read /metrics (repeatable); default "
        + "$SYNCUPS_METRICS_FROM (comma-separated), else this machine only.",
      valueName: "address"))
  var metricsFrom: [String] = []

  @Option(
    help:
      "The log on stderr: text, or json (one object a line); default $SYNCUPS_LOG_FORMAT, else text."
  )
  var logFormat: String?

  /// What the options, the environment, the configuration file and the defaults come to.
  struct Settings {
    var file: ServerConfiguration
    var host: String
    var port: Int
    var tlsCert: String?
    var tlsKey: String?
    var trustedProxies: [String]
    var metricsFrom: AddressRanges
    var logFormat: String
  }

  func settings() throws -> Settings {
    let environment = ProcessInfo.processInfo.environment
    let file = try options.configuration()
    func value(_ key: String, _ option: String?) throws -> String? {
      try file.resolved(key, option: option, environment: environment)
    }
    let proxies = try value(
      "SYNCUPS_TRUSTED_PROXIES",
      trustedProxies.isEmpty ? nil : trustedProxies.joined(separator: ","))
    return Settings(
      file: file, host: try value("SYNCUPS_HOST", host) ?? "127.0.0.1",
      port: try value("SYNCUPS_PORT", port.map(String.init)).flatMap { Int($0) } ?? 8080,
      tlsCert: try value("SYNCUPS_TLS_CERT", tlsCert), tlsKey: try value("SYNCUPS_TLS_KEY", tlsKey),
      trustedProxies: proxies.map(ServerConfiguration.items) ?? [],
      metricsFrom: try AddressRanges.list(
        try value(
          "SYNCUPS_METRICS_FROM", metricsFrom.isEmpty ? nil : metricsFrom.joined(separator: ","))
          ?? "127.0.0.0/8,::1"),
      logFormat: try value("SYNCUPS_LOG_FORMAT", logFormat) ?? "text")
  }

  /// How connections are held, from the options; every mistake one line (before the database
  /// is looked at).
  func makeTransport(_ settings: Settings) throws -> Transport {
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
    switch (settings.tlsCert, settings.tlsKey) {
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
    if let data {
      throw ServerError.usage(
        "the server keeps audio in PostgreSQL now, not in a folder: run "
          + "`syncups-server migrate --data \(data)` once to import it, then serve without --data")
    }
    let settings = try settings()
    let transport = try makeTransport(settings)
    let url = try options.url(settings.file)
    // The log on stderr (stdout says only where it listens).
    switch settings.logFormat {
    case "text": LoggingSystem.bootstrap(StreamLogHandler.standardError)
    case "json": LoggingSystem.bootstrap(JSONLogHandler.standardError)
    case let other:
      throw ServerError.usage(
        "--log-format (and $SYNCUPS_LOG_FORMAT) take text or json, not '\(other.prefix(40))'")
    }
    var logger = Logger(label: "syncups-server")
    logger.logLevel = .info
    // SYNCUPS_SERVER_LOG=debug (or trace) says more, down to each query.
    if let level = ProcessInfo.processInfo.environment["SYNCUPS_SERVER_LOG"].flatMap(
      Logger.Level.init(rawValue:))
    {
      logger.logLevel = level
    }
    var proxies = try TrustedProxies(settings.trustedProxies)
    proxies.servesHTTPS = transport.tls != nil
    let client = PostgresClientFactory.make(url, logger: logger)
    let server = TeamServer(
      client: client, proxies: proxies, metricsFrom: settings.metricsFrom, logger: logger)
    // Migrations first, under their lock, with a client of their own.
    _ = try await withStore(url) { try await $0.migrate() }
    let (host, port) = (settings.host, settings.port)
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
