import Foundation

/// One setting of `serve`: its key in the configuration file, which is also the environment
/// variable that overrides the file, and the command-line option that overrides both.
public struct ServerSetting: Sendable {
  public var key: String
  public var option: String
  /// A few words on what it is, for check-config.
  public var meaning: String
  /// The value when none is given (nil: unset).
  public var defaultValue: String? = nil
  /// Several values, comma-separated (in the file and the environment; the option repeats).
  public var isList = false
  /// What is wrong with a value, or nil when it is fine.
  public var problem: @Sendable (String) -> String?
  /// The value as check-config may print it (never a password).
  public var shown: @Sendable (String) -> String = { $0 }
}

/// The server's configuration file (`/etc/syncups-server/syncups-server.conf`): `KEY=value` lines,
/// blank lines and `#` comments. A command-line option wins over the environment, which wins
/// over the file, which wins over the built-in default.
public struct ServerConfiguration: Sendable {
  /// The file `serve` reads when it exists and no other is named.
  public static let defaultPath = "/etc/syncups-server/syncups-server.conf"
  /// The environment variable that names another file (as `--config` does).
  public static let pathVariable = "SYNCUPS_CONFIG"
  /// Longer files are refused (a configuration file is a few lines).
  public static let maximumSize = 64 * 1024

  /// Every key the file may hold: the one table of them.
  public static let settings: [ServerSetting] = [
    ServerSetting(
      key: "SYNCUPS_DATABASE_URL", option: "--database", meaning: "PostgreSQL",
      problem: databaseProblem, shown: DatabaseURL.withoutPassword),
    ServerSetting(
      key: "SYNCUPS_HOST", option: "--host", meaning: "address to listen on",
      defaultValue: "127.0.0.1", problem: { _ in nil }),
    ServerSetting(
      key: "SYNCUPS_PORT", option: "--port", meaning: "port", defaultValue: "8080",
      problem: {
        Int($0).map { (0...65535).contains($0) } == true ? nil : "is not a port (0-65535)"
      }
    ),
    ServerSetting(
      key: "SYNCUPS_TLS_CERT", option: "--tls-cert", meaning: "HTTPS certificate",
      problem: fileProblem),
    ServerSetting(
      key: "SYNCUPS_TLS_KEY", option: "--tls-key", meaning: "HTTPS private key",
      problem: fileProblem),
    ServerSetting(
      key: "SYNCUPS_TRUSTED_PROXIES", option: "--trusted-proxy", meaning: "trusted proxies",
      isList: true, problem: proxiesProblem),
    ServerSetting(
      key: "SYNCUPS_METRICS_FROM", option: "--metrics-from", meaning: "who may read /metrics",
      defaultValue: "127.0.0.0/8,::1", isList: true, problem: metricsFromProblem),
    ServerSetting(
      key: "SYNCUPS_LOG_FORMAT", option: "--log-format", meaning: "log format",
      defaultValue: "text",
      problem: {
        ["text", "json"].contains($0) ? nil : "takes text or json, not '\($0.prefix(40))'"
      }),
  ]

  public static func setting(_ key: String) -> ServerSetting? {
    settings.first { $0.key == key }
  }

  /// A value of the file and the line it is on.
  public struct Entry: Sendable, Equatable {
    public var value: String
    public var line: Int

    public init(value: String, line: Int) {
      self.value = value
      self.line = line
    }
  }

  /// A mistake in the file, on a line when it is one line's.
  public struct Problem: Error, Sendable, Equatable, CustomStringConvertible {
    public var line: Int?
    public var message: String
    public var description: String { line.map { "line \($0): \(message)" } ?? message }
  }

  /// The file read (nil: none).
  public var path: String?
  public var entries: [String: Entry] = [:]
  /// Every mistake found, in line order (`serve` refuses to start on any).
  public var problems: [Problem] = []

  public init(path: String? = nil, entries: [String: Entry] = [:]) {
    self.path = path
    self.entries = entries
  }

  /// Reads `text` as the file's lines, keeping every mistake in `problems`.
  public init(parsing text: String, path: String? = nil) {
    self.path = path
    for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      let line = raw.trimmingCharacters(in: .whitespacesAndNewlines)
      if line.isEmpty || line.hasPrefix("#") { continue }
      let number = index + 1
      guard let equals = line.firstIndex(of: "=") else {
        problems.append(Problem(line: number, message: "is not KEY=value"))
        continue
      }
      let key = line[..<equals].trimmingCharacters(in: .whitespaces)
      guard let setting = Self.setting(key) else {
        let known = Self.settings.map(\.key).joined(separator: ", ")
        problems.append(
          Problem(line: number, message: "unknown key '\(key.prefix(60))' (known: \(known))"))
        continue
      }
      if let earlier = entries[key] {
        problems.append(
          Problem(line: number, message: "\(key) again (set on line \(earlier.line))"))
        continue
      }
      let value = Self.unquoted(line[line.index(after: equals)...])
      if !value.isEmpty, let problem = setting.problem(value) {
        problems.append(Problem(line: number, message: "\(key) \(problem)"))
      }
      entries[key] = Entry(value: value, line: number)
    }
  }

  /// Reads the file at `path` (at most `maximumSize` bytes); one line when it cannot.
  public static func load(path: String) throws(ServerError) -> ServerConfiguration {
    guard let handle = FileHandle(forReadingAtPath: path) else {
      let problem =
        FileManager.default.fileExists(atPath: path) ? "cannot be read" : "does not exist"
      throw .usage("the configuration file \(path) \(problem)")
    }
    defer { try? handle.close() }
    let data = (try? handle.read(upToCount: maximumSize + 1)) ?? Data()
    guard data.count <= maximumSize else {
      throw .usage("the configuration file \(path) is over \(maximumSize / 1024) KB")
    }
    guard let text = String(data: data, encoding: .utf8) else {
      throw .usage("the configuration file \(path) is not UTF-8 text")
    }
    return ServerConfiguration(parsing: text, path: path)
  }

  /// The file to read: `--config`, else `$SYNCUPS_CONFIG`, else the default one when it exists;
  /// nil when none.
  public static func path(option: String?, environment: [String: String]) -> String? {
    if let option, !option.isEmpty { return option }
    if let named = environment[pathVariable], !named.isEmpty { return named }
    return FileManager.default.fileExists(atPath: defaultPath) ? defaultPath : nil
  }

  /// Where a value came from.
  public enum Origin: Sendable, Equatable {
    case option, environment
    case file(line: Int)
  }

  /// The value of `key`: the option's when given, else the environment's, else the file's
  /// (an empty value is none).
  public func value(
    _ key: String, option: String?, environment: [String: String]
  ) -> (value: String, origin: Origin)? {
    if let option { return (option, .option) }
    if let value = environment[key], !value.isEmpty { return (value, .environment) }
    guard let entry = entries[key], !entry.value.isEmpty else { return nil }
    return (entry.value, .file(line: entry.line))
  }

  /// The value `serve` uses for `key`: the option, the environment, the file, else the default;
  /// a wrong one from the option or the environment is one line (the file's are in `problems`).
  public func resolved(
    _ key: String, option: String? = nil, environment: [String: String]
  ) throws(ServerError) -> String? {
    guard let setting = Self.setting(key) else { return nil }
    guard let (value, origin) = value(key, option: option, environment: environment) else {
      return setting.defaultValue
    }
    let label: String
    switch origin {
    case .option: label = setting.option
    case .environment: label = "$\(key) (from the environment)"
    case .file: return value
    }
    if let problem = setting.problem(value) { throw .usage("\(label) \(problem)") }
    return value
  }

  /// `"value"` or `'value'` without its quotes; anything else as it is.
  static func unquoted(_ text: Substring) -> String {
    let value = text.trimmingCharacters(in: .whitespaces)
    for quote in ["\"", "'"]
    where value.count >= 2 && value.hasPrefix(quote) && value.hasSuffix(quote) {
      return String(value.dropFirst().dropLast())
    }
    return value
  }

  /// The items of a comma-separated list.
  public static func items(_ list: String) -> [String] {
    list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter {
      !$0.isEmpty
    }
  }

  static func databaseProblem(_ text: String) -> String? {
    do {
      _ = try DatabaseURL(text)
      return nil
    } catch {
      // The message quotes the URL: never with its password.
      return "is wrong: "
        + error.description.replacingOccurrences(of: text, with: DatabaseURL.withoutPassword(text))
    }
  }

  static func fileProblem(_ path: String) -> String? {
    if path.isEmpty { return "is empty; give a PEM file" }
    if FileManager.default.isReadableFile(atPath: path) { return nil }
    return FileManager.default.fileExists(atPath: path)
      ? "\(path) cannot be read by this user" : "\(path) does not exist"
  }

  static func metricsFromProblem(_ list: String) -> String? {
    let wrong = items(list).filter { AddressRanges.range($0) == nil }
    guard !wrong.isEmpty else { return nil }
    return "takes IP addresses or networks (such as 127.0.0.1 or 10.0.0.0/8), not "
      + wrong.map { "'\($0.prefix(60))'" }.joined(separator: ", ")
  }

  static func proxiesProblem(_ list: String) -> String? {
    let wrong = items(list).filter { TrustedProxies.canonical($0) == nil }
    guard !wrong.isEmpty else { return nil }
    return "takes the IP addresses of reverse proxies (such as 127.0.0.1 or ::1), not "
      + wrong.map { "'\($0.prefix(60))'" }.joined(separator: ", ")
  }
}

extension DatabaseURL {
  /// The URL with `***` for its password (for messages and check-config).
  public static func withoutPassword(_ text: String) -> String {
    guard let scheme = text.range(of: "://") else { return text }
    let authority = text[scheme.upperBound...].prefix { $0 != "/" && $0 != "?" }
    guard let at = authority.lastIndex(of: "@"),
      let colon = authority[..<at].firstIndex(of: ":")
    else { return text }
    return text.replacingCharacters(in: text.index(after: colon)..<at, with: "***")
  }
}
