import Foundation
import SyncClient
import SyncUpsStore

#if canImport(Glibc)
  import Glibc
#endif

/// The team a data directory joined: `team.json` in the data directory it syncs (see
/// `DataDirectory`), mode 0600. A team belongs to its data: a second data directory (another
/// `SYNCUPS_HOME`, a test's) has joined nothing. The token lives only there: never in the
/// database, never printed after `syncups team join`.
public struct TeamFile: Sendable, Equatable {
  public var url: URL

  public init(url: URL) { self.url = url }

  /// The team file of the data directory `environment` names.
  public static func resolve(
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> TeamFile {
    TeamFile(
      url: DataDirectory.resolve(environment: environment).url.appendingPathComponent("team.json"))
  }

  /// Where the team file was kept before it moved into the data directory:
  /// `$XDG_CONFIG_HOME/syncups/team.json`, else `~/.config/syncups/team.json`.
  public static func former(
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> TeamFile {
    let base: URL
    if let xdg = environment["XDG_CONFIG_HOME"], !xdg.isEmpty {
      base = URL(fileURLWithPath: xdg, isDirectory: true)
    } else {
      let home =
        environment["HOME"].map { URL(fileURLWithPath: $0, isDirectory: true) }
        ?? FileManager.default.homeDirectoryForCurrentUser
      base = home.appendingPathComponent(".config", isDirectory: true)
    }
    return TeamFile(url: base.appendingPathComponent("syncups/team.json"))
  }

  /// Moves the former team file into the default data directory, the one it synced, when that
  /// has none: written there, then removed from the config folder. Never into a data directory
  /// `SYNCUPS_HOME` sets (scratch data, a test's), which would then push to that team. Returns
  /// the former file when it moved it.
  public static func adoptFormer(
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) throws(Problem) -> TeamFile? {
    guard environment["SYNCUPS_HOME"]?.isEmpty ?? true else { return nil }
    let former = former(environment: environment)
    let file = resolve(environment: environment)
    guard !FileManager.default.fileExists(atPath: file.url.path),
      FileManager.default.fileExists(atPath: former.url.path)
    else { return nil }
    let contents: Contents?
    do {
      contents = try former.read()
    } catch {
      throw Problem(
        description: "\(former.url.path) (the team this laptop joined) cannot be read; remove "
          + "it, then join again")
    }
    guard let contents else { return nil }
    try file.write(contents)
    // Another syncups may have moved it just now; one left behind is never read again.
    _ = try? former.remove()
    return former
  }

  /// What the file holds.
  public struct Contents: Codable, Sendable, Equatable {
    public var url: URL
    public var token: String
    public var person: String?
    public var role: String?
    /// `team join --allow-http`: the token may go over plain http:// to another computer.
    public var allowHTTP: Bool?
    /// The team on the server this data joined (nil: joined before servers had teams, or a
    /// server without them): every request names it.
    public var teamName: String?

    public init(
      url: URL, token: String, person: String? = nil, role: String? = nil,
      allowHTTP: Bool? = nil, teamName: String? = nil
    ) {
      self.url = url
      self.token = token
      self.person = person
      self.role = role
      self.allowHTTP = allowHTTP
      self.teamName = teamName
    }

    /// The server and token, with the request timeout (`SYNCUPS_SYNC_TIMEOUT` seconds, 0.1 to
    /// 3600, else 20).
    public var team: Team {
      let timeout = ProcessInfo.processInfo.environment["SYNCUPS_SYNC_TIMEOUT"].flatMap(Double.init)
      return Team(
        url: url, token: token,
        timeout: timeout.flatMap { $0.isFinite ? min(max(0.1, $0), 3600) : nil } ?? 20,
        allowHTTP: allowHTTP ?? false, name: teamName)
    }
  }

  /// Why the file cannot be used.
  public struct Problem: Error, CustomStringConvertible {
    public var description: String
  }

  /// The team, or nil when this laptop joined none.
  public func read() throws(Problem) -> Contents? {
    guard FileManager.default.fileExists(atPath: url.path) else { return nil }
    do {
      return try JSONDecoder().decode(Contents.self, from: Data(contentsOf: url))
    } catch {
      throw Problem(
        description: "\(url.path) cannot be read; run 'syncups team leave', then join again")
    }
  }

  /// Writes the file whole (a new file of mode 0600, synced, renamed over the old one).
  public func write(_ contents: Contents) throws(Problem) {
    let folder = url.deletingLastPathComponent()
    let temporary = folder.appendingPathComponent(".team-\(UUID().uuidString).json")
    do {
      try FileManager.default.createDirectory(
        at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
      let encoder = JSONEncoder()
      encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
      let data = try encoder.encode(contents)
      let fd = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
      guard fd >= 0 else { throw Problem(description: String(cString: strerror(errno))) }
      let handle = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
      try handle.write(contentsOf: data)
      try handle.synchronize()
      try handle.close()
      guard rename(temporary.path, url.path) == 0 else {
        throw Problem(description: String(cString: strerror(errno)))
      }
    } catch let problem as Problem {
      try? FileManager.default.removeItem(at: temporary)
      throw Problem(description: "cannot write \(url.path) (\(problem.description))")
    } catch {
      try? FileManager.default.removeItem(at: temporary)
      throw Problem(description: "cannot write \(url.path) (\(error.localizedDescription))")
    }
  }

  /// Removes the file; false when there was none.
  public func remove() throws(Problem) -> Bool {
    guard FileManager.default.fileExists(atPath: url.path) else { return false }
    do {
      try FileManager.default.removeItem(at: url)
      return true
    } catch {
      throw Problem(description: "cannot remove \(url.path) (\(error.localizedDescription))")
    }
  }
}
