import ArgumentParser
import Foundation
import Hummingbird
import Logging
import SyncUpsServer

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
  @Option(help: "Seconds a request's body may send nothing, once begun, before it is closed.")
  var bodyTimeout = 30
  @Option(
    help: ArgumentHelp(
      "The most connections open at once; past it new ones are closed at once.",
      discussion: "Default: the open-file limit (ulimit -n) less 128 kept for the database "
        + "and other files, now \(Transport.defaultMaxConnections)."))
  var maxConnections: Int?
  @Option(
    help: "The most connections open at once from one address (a trusted proxy's are not counted).")
  var maxConnectionsPerAddress = 100

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
    guard idleTimeout > 0, headerTimeout > 0, bodyTimeout > 0 else {
      throw ServerError.usage(
        "--idle-timeout, --header-timeout and --body-timeout take a number of seconds above 0")
    }
    guard maxConnectionsPerAddress > 0 else {
      throw ServerError.usage("--max-connections-per-address takes a number above 0")
    }
    var transport = Transport(
      idleTimeout: .seconds(idleTimeout), headerTimeout: .seconds(headerTimeout),
      bodyTimeout: .seconds(bodyTimeout), maxConnectionsPerAddress: maxConnectionsPerAddress)
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
    var transport = try makeTransport(settings)
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
    transport.unboundedAddresses = proxies.addresses
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
