import Foundation
import Hummingbird
import Logging
import NIOCore
import PostgresNIO
import ServiceLifecycle
import SyncUpsWire

/// Everything a running server needs: its store, the audio folder, the limits, the watcher.
public struct TeamServer: Sendable {
  public let store: TeamStore
  public let audio: AudioStore
  public let limits: Limits
  public let watcher: ChangesWatcher
  /// Slows down failed sign-ins on the web pages.
  public let throttle: SignInThrottle
  /// Pushes larger than `limits.largePush` are decoded and saved one at a time.
  public let largePushes = Turns(1)
  /// The reverse proxies whose `X-Forwarded-*` headers are believed.
  public let proxies: TrustedProxies

  public init(
    client: PostgresClient, data: URL, limits: Limits = Limits(),
    throttle: SignInThrottle = SignInThrottle(), proxies: TrustedProxies = TrustedProxies(),
    logger: Logger
  ) throws {
    store = TeamStore(client: client, logger: logger)
    audio = try AudioStore(data: data)
    self.limits = limits
    self.throttle = throttle
    self.proxies = proxies
    watcher = ChangesWatcher(client: client, logger: logger)
  }

  /// The HTTP application: the routes, with the PostgreSQL client and the watcher as services,
  /// its connections held as `transport` says. `onServerRunning` gets the port it listens on
  /// once it does (port 0 picks a free one).
  public func application(
    configuration: ApplicationConfiguration = .init(), transport: Transport = Transport(),
    logger: Logger, onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }
  ) -> some ApplicationProtocol {
    Application(
      router: router(logger: logger), server: transport.server(logger: logger),
      configuration: configuration,
      services: [ClientService(client: store.client), watcher],
      onServerRunning: { channel in await onServerRunning(channel.localAddress?.port ?? 0) },
      logger: logger)
  }

  public func router(logger: Logger) -> Router<TeamContext> {
    let router = Router(context: TeamContext.self)
    router.middlewares.add(ErrorMiddleware(logger: logger))
    router.middlewares.add(SameOriginForms(proxies: proxies, logger: logger))
    let tokens = TokenMiddleware(store: store)
    let api = router.group("api/v1").add(middleware: tokens)
    addMe(to: api)
    api.get("sync-ups") { _, _ -> Response in Response.json(try await store.syncUps()) }
    api.get("sync-ups/:id/meetings") { request, context -> Response in
      let id = try request.uuid("id", in: context)
      guard try await store.syncUpExists(id) else {
        throw APIError(.notFound, "there is no sync-up \(id) here")
      }
      let limit = try request.integer("limit", default: 20, in: 1...500)
      var before: MeetingCursor?
      if let text = request.uri.queryParameters["before"] {
        guard let cursor = MeetingCursor(String(text)) else {
          throw APIError(.badRequest, "?before= takes the `next` of the previous page")
        }
        before = cursor
      }
      return Response.json(try await store.meetings(of: id, limit: limit, before: before))
    }
    api.get("meetings/:id") { request, context -> Response in
      let id = try request.uuid("id", in: context)
      guard let meeting = try await store.meetingDocument(id), !meeting.deleted else {
        throw APIError(.notFound, "there is no meeting \(id) here")
      }
      return Response.json(meeting)
    }
    api.get("search") { request, _ -> Response in
      Response.json(try await store.search(try Self.search(from: request)))
    }
    api.post("sync/push") { request, context -> Response in
      let person = try context.requirePerson()
      guard person.role == .writer else {
        throw APIError(.forbidden, "\(person.name) may read but not push; ask for the writer role")
      }
      let body = try await request.collectBody(limit: limits.json)
      // A large push waits for its turn once it has arrived (a body left unread would be
      // closed by the idle timeout) and before it is decoded, which is what takes memory.
      let large = body.readableBytes > limits.largePush
      if large { await largePushes.begin() }
      defer { if large { largePushes.end() } }
      let push = try Request.push(from: body)
      return Response.json(try await store.save(push, by: person))
    }
    api.get("sync/changes") { request, _ -> Response in
      guard let text = request.uri.queryParameters["since"], let since = Int64(text), since >= 0
      else {
        throw APIError(.badRequest, "?since= takes the version of the last page (0 at first)")
      }
      let longest = Int(limits.longestWait.components.seconds)
      let wait = try request.integer("wait", default: 0, in: 0...longest)
      let limit = try request.integer("limit", default: 100, in: 1...1000)
      let deadline = ContinuousClock.now + .seconds(wait)
      while true {
        let generation = await watcher.generation
        let page = try await store.changes(since: since, limit: limit, budget: limits.pageBytes)
        let left = deadline - ContinuousClock.now
        if !page.isEmpty || left <= .zero {
          return Response(
            status: .ok, headers: [.contentType: "application/json; charset=utf-8"],
            body: ResponseBody(contentsOf: page.pieces))
        }
        await watcher.wait(after: generation, upTo: left)
      }
    }
    api.put("audio/:sha256") { request, context -> Response in
      let person = try context.requirePerson()
      guard person.role == .writer else {
        throw APIError(.forbidden, "\(person.name) may read but not upload audio")
      }
      let sha = context.parameters.get("sha256") ?? ""
      guard AudioStore.isHash(sha) else {
        throw APIError(.badRequest, "audio is named by its SHA-256 in 64 lowercase hex digits")
      }
      if let size = try await audio.size(of: sha) {
        try await store.keepAudio(sha256: sha, size: Int64(size))
        return Response.json(["sha256": sha], status: .ok)
      }
      let size = try await audio.store(request.body, sha256: sha, limit: limits.audio)
      try await store.keepAudio(sha256: sha, size: size)
      return Response.json(["sha256": sha], status: .created)
    }
    // Outside /api/v1 so the web page's <audio> can use it, with the token or the session.
    let listener = SessionMiddleware(store: store, signedOut: .unauthorized, logger: logger)
    router.group("audio").add(middleware: listener).get(":meeting") { request, context in
      try await audioResponse(request, context: context)
    }
    addPages(to: router, logger: logger)
    return router
  }

  /// What a search request asks for. `form`: the query string of an HTML form, where `+` is a
  /// space (never part of a word to search for).
  static func search(from request: Request, form: Bool = false) throws -> TeamSearch {
    let parameters = request.uri.queryParameters
    let text = Self.parameter("q", of: request, form: form) ?? ""
    if let problem = SearchQuery.problem(in: text) ?? Self.querySyntax(in: text) {
      throw APIError(.badRequest, "cannot search for '\(text)': \(problem)")
    }
    var search = TeamSearch(query: SearchQuery(text))
    search.limit = try request.integer("limit", default: 50, in: 1...500)
    if let syncUp = parameters["syncUp"] {
      guard let id = UUID(uuidString: String(syncUp)) else {
        throw APIError(.badRequest, "?syncUp= takes a sync-up's id, not '\(syncUp)'")
      }
      search.syncUpID = id
    }
    if let speaker = Self.parameter("speaker", of: request, form: form), !speaker.isEmpty {
      search.speaker = speaker
    }
    if let since = parameters["since"] {
      guard let date = Self.date(String(since)) else {
        throw APIError(
          .badRequest, "?since= takes a day (2026-11-20) or an instant in ISO 8601, not '\(since)'")
      }
      search.since = date
    }
    return search
  }

  static func parameter(_ name: String, of request: Request, form: Bool) -> String? {
    guard let value = request.uri.queryParameters[Substring(name)].map(String.init) else {
      return nil
    }
    return form ? value.replacingOccurrences(of: "+", with: " ") : value
  }

  /// SQL or tsquery syntax (`&`, `|`, `!`, `<->`, `:`, `(`, `;`, `--`, a backslash): never part
  /// of what was said, so a query holding it is refused in words rather than read as text.
  /// (The query is only ever passed as a parameter of quoted lexemes; this is for the user.)
  static func querySyntax(in text: String) -> String? {
    let operators: Set<Character> = ["&", "|", "!", "<", ">", ":", "(", ")", ";", "\\", "="]
    guard let found = text.first(where: operators.contains) ?? (text.contains("--") ? "-" : nil)
    else { return nil }
    let shown = found == "-" ? "--" : String(found)
    return "'\(shown)' is query syntax, which search does not take; give words, a prefix "
      + "(migr*) or a \"phrase\""
  }

  /// A day (`2026-11-20`, from its midnight UTC) or an ISO 8601 instant.
  static func date(_ text: String) -> Date? {
    if let instant = try? Date.ISO8601FormatStyle().parse(text) { return instant }
    let parts = text.split(separator: "-", omittingEmptySubsequences: false)
    guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
      let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2])
    else { return nil }
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC")!
    let components = DateComponents(year: year, month: month, day: day)
    guard components.isValidDate(in: calendar) else { return nil }
    return calendar.date(from: components)
  }

  func audioResponse(_ request: Request, context: TeamContext) async throws -> Response {
    let id = try request.uuid("meeting", in: context)
    guard let meeting = try await store.meetingDocument(id), !meeting.deleted,
      let audio = meeting.audio
    else {
      throw APIError(.notFound, "meeting \(id) has no audio here")
    }
    guard let size = try await self.audio.size(of: audio.sha256) else {
      throw APIError(.notFound, "the audio of meeting \(id) is not on the server (yet)")
    }
    let etag = "\"\(audio.sha256)\""
    // Audio is audio: only an audio type is served as what it claims (a meeting kept before the
    // rules could name any), never sniffed, and a page that opens it directly runs nothing.
    let type = Rules.audioTypes.contains(audio.type) ? audio.type : "application/octet-stream"
    var headers: HTTPFields = [
      .contentType: type, .acceptRanges: "bytes", .eTag: etag,
      .cacheControl: "private, max-age=31536000, immutable",
      .xContentTypeOptions: "nosniff",
      .contentSecurityPolicy: "default-src 'none'; media-src 'self'; sandbox",
    ]
    if request.headers[.ifNoneMatch] == etag {
      return Response(status: .notModified, headers: headers)
    }
    let path = self.audio.path(of: audio.sha256)
    let files = FileIO()
    switch ByteRange(header: request.headers[.range], size: size) {
    case .whole:
      headers[.contentLength] = String(size)
      if size == 0 { return Response(status: .ok, headers: headers) }
      return Response(
        status: .ok, headers: headers,
        body: try await files.loadFile(path: path, range: 0...(size - 1), context: context))
    case .part(let range):
      headers[.contentLength] = String(range.count)
      headers[.contentRange] = "bytes \(range.lowerBound)-\(range.upperBound)/\(size)"
      return Response(
        status: .partialContent, headers: headers,
        body: try await files.loadFile(path: path, range: range, context: context))
    case .unsatisfiable:
      headers[.contentRange] = "bytes */\(size)"
      headers[.contentType] = "application/json; charset=utf-8"
      let body = try WireJSON.encoder().encode(
        ErrorBody("the range is past the end of the audio (\(size) bytes)"))
      return Response(
        status: .rangeNotSatisfiable, headers: headers,
        body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }
  }
}

extension TeamStore {
  /// Records that the audio with this hash is on disk.
  func keepAudio(sha256: String, size: Int64) async throws {
    try await run(
      "INSERT INTO audio (sha256, size) VALUES (\(sha256), \(size)) ON CONFLICT DO NOTHING",
      logger: logger)
  }
}

/// Runs the PostgreSQL client's pool as one of the application's services, until the
/// application shuts down (gracefully: the HTTP server stops first).
struct ClientService: Service {
  let client: PostgresClient
  func run() async throws {
    try await cancelWhenGracefulShutdown { await client.run() }
  }
}
