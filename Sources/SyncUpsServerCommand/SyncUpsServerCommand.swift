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
        + (DatabaseProblem.words(error) ?? "it refused the request"))
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
