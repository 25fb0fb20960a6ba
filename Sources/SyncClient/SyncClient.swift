import Dependencies
import Foundation
import IssueReporting
import SyncUpsWire

/// The team server as the laptop sees it: its routes under `/api/v1`, each one call. The live
/// value (module `SyncClientLive`) speaks HTTP with FoundationNetworking's `URLSession` (no
/// SwiftNIO in the laptop's binary); tests inject a server of their own.
public struct SyncClient: Sendable {
  /// Checks the token: who it belongs to, when the server says (`GET /api/v1/me`), else only
  /// that it is good (`GET /api/v1/sync/changes`).
  public var check: @Sendable (_ team: Team) async throws -> TeamMember = unimplemented(
    "SyncClient.check")
  /// `POST /api/v1/sync/push` with `body`, a `Push` as JSON, sent as it is.
  public var push: @Sendable (_ team: Team, _ body: Data) async throws -> PushReceipt =
    unimplemented("SyncClient.push")
  /// `GET /api/v1/sync/changes?since=&wait=&limit=`.
  public var changes:
    @Sendable (_ team: Team, _ since: Int64, _ wait: Int, _ limit: Int) async throws -> ChangesPage =
      unimplemented("SyncClient.changes")
  /// `PUT /api/v1/audio/SHA256` with the file's bytes.
  public var uploadAudio:
    @Sendable (_ team: Team, _ sha256: String, _ file: URL) async throws -> Void = unimplemented(
      "SyncClient.uploadAudio")
  /// `GET /audio/MEETING_ID` into `file` (created or replaced); false when the server has none.
  public var downloadAudio:
    @Sendable (_ team: Team, _ meetingID: UUID, _ file: URL) async throws -> Bool = unimplemented(
      "SyncClient.downloadAudio")
  /// `GET /api/v1/search`: the server's matches over everyone's meetings, best first.
  public var search:
    @Sendable (_ team: Team, _ query: TeamSearchQuery) async throws -> [SearchHit] = unimplemented(
      "SyncClient.search")

  public init(
    check: @escaping @Sendable (_ team: Team) async throws -> TeamMember,
    push: @escaping @Sendable (_ team: Team, _ body: Data) async throws -> PushReceipt,
    changes:
      @escaping @Sendable (_ team: Team, _ since: Int64, _ wait: Int, _ limit: Int) async throws ->
      ChangesPage,
    uploadAudio:
      @escaping @Sendable (_ team: Team, _ sha256: String, _ file: URL) async throws -> Void,
    downloadAudio:
      @escaping @Sendable (_ team: Team, _ meetingID: UUID, _ file: URL) async throws -> Bool,
    search: @escaping @Sendable (_ team: Team, _ query: TeamSearchQuery) async throws -> [SearchHit]
  ) {
    self.check = check
    self.push = push
    self.changes = changes
    self.uploadAudio = uploadAudio
    self.downloadAudio = downloadAudio
    self.search = search
  }

  /// Every endpoint unimplemented: calling one reports an issue (and throws, or returns a
  /// placeholder). The test value.
  public init() {}
}

/// A team server and the token that opens it.
public struct Team: Codable, Sendable, Equatable {
  /// The server's address, such as `https://syncups.example.com` (no `/api/v1`).
  public var url: URL
  public var token: String
  /// Seconds a request may wait for an answer before the server counts as too slow.
  public var timeout: Double
  /// Whether the token may go over plain `http://` to another computer (`team join
  /// --allow-http`): without it, the client refuses before it sends anything.
  public var allowHTTP: Bool
  /// The team on that server this laptop joined (`team join --team`), sent with every request
  /// as the `SyncUps-Team` header (`TeamHeader`); nil: the person's only team.
  public var name: String?

  public init(
    url: URL, token: String, timeout: Double = 20, allowHTTP: Bool = false, name: String? = nil
  ) {
    self.url = url
    self.token = token
    self.timeout = timeout
    self.allowHTTP = allowHTTP
    self.name = name
  }

  /// True when requests to `url` would carry the token across a network unencrypted: plain
  /// `http://` to a host that is not this computer (127.0.0.0/8, ::1, localhost).
  public static func sendsTokenInClear(to url: URL) -> Bool {
    guard url.scheme?.lowercased() == "http" else { return false }
    return !isLoopback(url.host ?? "")
  }

  /// This computer's own addresses only: names and other spellings (`127.1`, `::ffff:127.0.0.1`)
  /// count as another computer, the safe side.
  static func isLoopback(_ host: String) -> Bool {
    var host = host.lowercased()
    if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
    if host == "localhost" || host == "::1" { return true }
    let parts = host.split(separator: ".", omittingEmptySubsequences: false)
    return parts.count == 4 && parts[0] == "127"
      && parts.allSatisfy { part in
        part.count <= 3 && part.allSatisfy(\.isASCII) && UInt8(part) != nil
      }
  }
}

/// Who holds a token, as far as the server says.
public struct TeamMember: Codable, Sendable, Equatable {
  /// The person's name; nil when the server does not say.
  public var name: String?
  /// `reader` or `writer`, when the server says.
  public var role: String?
  /// Their teams on that server and their role in each; nil from a server without teams.
  public var teams: [Membership]?

  /// A team of theirs.
  public struct Membership: Codable, Sendable, Equatable {
    public var name: String
    public var role: String

    public init(name: String, role: String) {
      self.name = name
      self.role = role
    }
  }

  public init(name: String? = nil, role: String? = nil, teams: [Membership]? = nil) {
    self.name = name
    self.role = role
    self.teams = teams
  }
}

/// Why a request to the team server failed, in words a user can act on.
public enum SyncFailure: Error, Equatable, CustomStringConvertible {
  /// 401: a wrong, revoked or missing token.
  case unauthorized(String)
  /// 403: a reader pushing.
  case forbidden(String)
  /// No connection: the server is down, or the address is wrong.
  case unreachable(String)
  /// No answer within the timeout.
  case tooSlow(seconds: Double)
  /// Any other error answer: its status and the server's sentence.
  case refused(status: Int, message: String)
  /// An answer that is not what the route gives (another program at that address?).
  case unreadable(String)
  /// A redirect (3xx), never followed: the token would go with it. `location` as the server
  /// wrote it, when it did.
  case redirected(status: Int, location: String?)
  /// An answer larger than any the route gives (`what`: "an answer", "audio").
  case tooLarge(what: String, limit: Int64)
  /// What the server sent cannot be written here (`what`: the file and the reason).
  case cannotKeep(String)
  /// `http://` to another computer without `--allow-http`: nothing was sent.
  case inClear(URL)
  /// Pages that say there is more after `since` without going past it: the pull stopped.
  case noProgress(since: Int64)

  public var description: String {
    switch self {
    case .unauthorized(let message):
      "the team server refused the token (\(message)); join again with "
        + "'syncups team join URL --token TOKEN'"
    case .forbidden(let message): "the team server refused: \(message)"
    case .unreachable(let reason): "cannot reach the team server (\(reason))"
    case .tooSlow(let seconds):
      "the team server did not answer within \(String(format: "%.0f", seconds)) s"
    case .refused(let status, let message): "the team server answered \(status): \(message)"
    case .unreadable(let what): "the team server's answer cannot be read (\(what))"
    case .redirected(let status, let location):
      "the team server answered \(status), a redirect to \(location ?? "no address")"
        + ", which is never followed (the token would go with it); if the team moved, join it "
        + "at its new address with 'syncups team join URL --token TOKEN'"
    case .tooLarge(let what, let limit):
      "the team server sent \(what) larger than \(Self.size(limit)), more than it ever "
        + "should; it was refused"
    case .cannotKeep(let what): "cannot keep what the team server sent: \(what)"
    case .inClear(let url):
      "\(url.absoluteString) is plain http:// to another computer: the token would cross the "
        + "network in clear; join an https:// address (or pass --allow-http to 'syncups team "
        + "join' on a network you trust)"
    case .noProgress(let since):
      "the team server keeps saying there is more after version \(since) without going past "
        + "it; the pull stopped there (ask whoever runs the server)"
    }
  }
}

extension SyncFailure {
  /// `64 MB`, `1 GiB`: a bound in words.
  static func size(_ bytes: Int64) -> String {
    if bytes >= 1 << 30, bytes % (1 << 30) == 0 { return "\(bytes >> 30) GiB" }
    if bytes >= 1 << 20, bytes % (1 << 20) == 0 { return "\(bytes >> 20) MiB" }
    return "\(bytes) bytes"
  }
}

extension SyncClient: TestDependencyKey {
  public static let testValue = SyncClient()
}

extension DependencyValues {
  public var syncClient: SyncClient {
    get { self[SyncClient.self] }
    set { self[SyncClient.self] = newValue }
  }
}
