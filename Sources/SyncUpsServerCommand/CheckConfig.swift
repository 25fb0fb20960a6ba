import ArgumentParser
import Foundation
import SyncUpsServer

/// `syncups-server check-config`: every mistake in the configuration file, one line each with
/// its line number; when there is none, what `serve` would use (never the database's password).
struct CheckConfig: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "check-config",
    abstract: "Check the configuration file and say what the server would use.",
    discussion: """
      The file holds KEY=value lines (blank lines and # comments are skipped); the keys are the \
      environment variables serve reads: \
      \(ServerConfiguration.settings.map(\.key).joined(separator: ", ")). \
      An option of serve wins over the environment, which wins over the file.
      """)

  @Option(
    help: ArgumentHelp(
      "The file to check (default $\(ServerConfiguration.pathVariable), else "
        + "\(ServerConfiguration.defaultPath)).", valueName: "file"))
  var config: String?

  func run() throws {
    let environment = ProcessInfo.processInfo.environment
    guard let path = ServerConfiguration.path(option: config, environment: environment) else {
      throw ServerError.usage(
        "no configuration file: \(ServerConfiguration.defaultPath) does not exist; "
          + "give --config FILE")
    }
    let file = try ServerConfiguration.load(path: path)
    let mistakes = file.problems.map { "\(path), \($0)" } + Self.problems(file, environment)
    guard mistakes.isEmpty else {
      for mistake in mistakes { FileHandle.standardError.write(Data("\(mistake)\n".utf8)) }
      FileHandle.standardError.write(
        Data("check-config: \(mistakes.count) mistake(s); serve would not start\n".utf8))
      throw ExitCode.failure
    }
    print("\(path) is fine; the server would use:")
    for setting in ServerConfiguration.settings {
      let found = file.value(setting.key, option: nil, environment: environment)
      let value = found.map { setting.shown($0.value) } ?? setting.defaultValue ?? "(none)"
      let origin =
        switch found?.origin {
        case .file(let line): "line \(line)"
        case .environment: "the environment"
        case .option, nil: setting.defaultValue == nil ? "unset" : "default"
        }
      print(
        "  \(setting.key.padding(toLength: 24, withPad: " ", startingAt: 0)) \(value)  (\(origin))"
      )
    }
  }

  /// What is wrong beyond single lines: values from the environment, a missing database, half
  /// of TLS, PEM files that do not load.
  static func problems(_ file: ServerConfiguration, _ environment: [String: String]) -> [String] {
    var problems: [String] = []
    var values: [String: String] = [:]
    for setting in ServerConfiguration.settings {
      do {
        values[setting.key] = try file.resolved(setting.key, environment: environment)
      } catch {
        problems.append(error.description)
      }
    }
    if file.value("SYNCUPS_DATABASE_URL", option: nil, environment: environment) == nil {
      problems.append("SYNCUPS_DATABASE_URL is not set (in the file or the environment)")
    }
    switch (values["SYNCUPS_TLS_CERT"], values["SYNCUPS_TLS_KEY"]) {
    case (let certificate?, let key?) where problems.isEmpty && file.problems.isEmpty:
      do {
        _ = try Transport.tls(certificate: certificate, key: key)
      } catch {
        problems.append("TLS: \(error.localizedDescription)")
      }
    case (nil, .some), (.some, nil):
      problems.append("give both SYNCUPS_TLS_CERT and SYNCUPS_TLS_KEY, or neither")
    default:
      break
    }
    return problems
  }
}
