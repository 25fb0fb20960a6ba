import Foundation
import HTTPTypes
import Hummingbird
import SyncUpsWire

/// Each request's context: who showed the token or the session (set by `TokenMiddleware` or
/// `SessionMiddleware`), and the address it came from.
public struct TeamContext: RequestContext {
  public var coreContext: CoreRequestContextStorage
  public var person: Person?
  /// Where the request came from (sign-in failures are slowed down per address).
  public var remoteAddress: String?

  public init(source: ApplicationRequestContextSource) {
    coreContext = .init(source: source)
    person = nil
    remoteAddress = source.channel.remoteAddress?.ipAddress
  }

  /// The person, or 401 (a route behind `TokenMiddleware` always has one).
  func requirePerson() throws -> Person {
    guard let person else { throw APIError(.unauthorized, "this needs a token") }
    return person
  }

  /// The teams this request is for: the one its `SyncUps-Team` header names (a laptop's), else
  /// all of the person's (the web pages). Everything a request reads or writes is in these.
  public private(set) var teams: [Membership] = []

  /// The ids of `teams`, as every query's team filter takes them.
  var teamIDs: [Int64] { teams.map(\.teamID) }

  /// Sets who asks and for which of their teams: 403 when the header names a team that is not
  /// one of theirs (whether or not it exists here).
  mutating func enter(_ person: Person, request: Request) throws {
    self.person = person
    guard let name = request.headers[TeamContext.teamHeader] else {
      teams = person.memberships
      return
    }
    guard
      let membership = person.memberships.first(where: {
        $0.team.lowercased() == name.lowercased()
      })
    else {
      throw APIError(
        .forbidden,
        "\(person.name) is not in a team called '\(name.prefix(80))' here "
          + "(their teams: \(person.teamNames))")
    }
    teams = [membership]
  }

  static let teamHeader = HTTPField.Name(TeamHeader.name)!

  /// The one team a laptop's sync request is for (its header's, else the person's only team),
  /// and the person's role there must be `role` or better.
  func syncTeam(writing: Bool) throws -> Membership {
    let person = try requirePerson()
    guard teams.count == 1, let team = teams.first else {
      throw APIError(
        .badRequest,
        teams.isEmpty
          ? "\(person.name) is in no team here; ask whoever runs the server"
          : "\(person.name) is in several teams (\(person.teamNames)): send the header "
            + "\(TeamHeader.name): TEAM (syncups team join URL --token T --team TEAM)")
    }
    guard !writing || team.role == .writer else {
      throw APIError(
        .forbidden,
        "\(person.name) may read but not push in team \(team.team); ask for the "
          + "writer role")
    }
    return team
  }
}

/// How much the server takes in one request.
public struct Limits: Sendable {
  /// A JSON body (a push).
  public var json: Int
  /// One audio file.
  public var audio: Int
  /// The longest a pull may wait for changes.
  public var longestWait: Duration
  /// A push larger than this is spooled to a file as it arrives and waits there for its turn:
  /// one is decoded and saved at a time (pushes are saved one after another anyway), so pushes
  /// arriving together are not all in memory at once, as bodies or as documents.
  public var largePush: Int
  /// The JSON a page of changes holds before it stops (and says `more`): each document is in
  /// the server's memory while the page is, and a laptop waits for all of it.
  public var pageBytes: Int
  /// Audio uploads in progress from one client address at most; one more is 429.
  public var uploadsPerAddress: Int
  /// Where uploads and large pushes are spooled while their bodies arrive, and where the
  /// copies of recordings downloads read are kept (a folder of its own).
  public var uploadSpool: URL
  /// What those copies of recordings hold at most (0: none; every download reads the
  /// database).
  public var audioCache: Int

  public init(
    json: Int = 32 * 1024 * 1024, audio: Int = 1024 * 1024 * 1024,
    longestWait: Duration = .seconds(60), largePush: Int = 4 * 1024 * 1024,
    pageBytes: Int = 8 * 1024 * 1024, uploadsPerAddress: Int = 8,
    uploadSpool: URL = FileManager.default.temporaryDirectory,
    audioCache: Int = 2 * 1024 * 1024 * 1024
  ) {
    self.audioCache = audioCache
    self.uploadsPerAddress = uploadsPerAddress
    self.uploadSpool = uploadSpool
    self.json = json
    self.audio = audio
    self.longestWait = longestWait
    self.largePush = largePush
    self.pageBytes = pageBytes
  }
}
