import Hummingbird

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
}

/// How much the server takes in one request.
public struct Limits: Sendable {
  /// A JSON body (a push).
  public var json: Int
  /// One audio file.
  public var audio: Int
  /// The longest a pull may wait for changes.
  public var longestWait: Duration
  /// A push larger than this waits for its turn: one is decoded and saved at a time (pushes are
  /// saved one after another anyway), so pushes arriving together are not all in memory at
  /// once as documents.
  public var largePush: Int
  /// The JSON a page of changes holds before it stops (and says `more`): each document is in
  /// the server's memory while the page is, and a laptop waits for all of it.
  public var pageBytes: Int

  public init(
    json: Int = 32 * 1024 * 1024, audio: Int = 1024 * 1024 * 1024,
    longestWait: Duration = .seconds(60), largePush: Int = 4 * 1024 * 1024,
    pageBytes: Int = 8 * 1024 * 1024
  ) {
    self.json = json
    self.audio = audio
    self.longestWait = longestWait
    self.largePush = largePush
    self.pageBytes = pageBytes
  }
}
