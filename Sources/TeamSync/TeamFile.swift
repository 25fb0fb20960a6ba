import Foundation
import SyncClient

#if canImport(Glibc)
  import Glibc
#endif

/// The team this laptop joined: `team.json` under `$XDG_CONFIG_HOME/syncups` (else
/// `~/.config/syncups`), mode 0600 in a folder of mode 0700. The token lives only there: never in
/// the database, never printed after `syncups team join`.
public struct TeamFile: Sendable, Equatable {
  public var url: URL

  public init(url: URL) { self.url = url }

  public static func resolve(
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

  /// What the file holds.
  public struct Contents: Codable, Sendable, Equatable {
    public var url: URL
    public var token: String
    public var person: String?
    public var role: String?

    public init(url: URL, token: String, person: String? = nil, role: String? = nil) {
      self.url = url
      self.token = token
      self.person = person
      self.role = role
    }

    /// The server and token, with the request timeout (`SYNCUPS_SYNC_TIMEOUT` seconds, else 20).
    public var team: Team {
      let timeout = ProcessInfo.processInfo.environment["SYNCUPS_SYNC_TIMEOUT"].flatMap(Double.init)
      return Team(url: url, token: token, timeout: timeout.map { max(0.1, $0) } ?? 20)
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
