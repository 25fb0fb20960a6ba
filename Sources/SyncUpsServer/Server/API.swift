import Foundation
import Hummingbird
import Logging
import NIOCore
import PostgresNIO
import SyncUpsWire

/// An error the API answers with: a status and a sentence, sent as `{"error": "..."}`.
public struct APIError: Error, Equatable {
  public var status: HTTPResponse.Status
  public var message: String

  public init(_ status: HTTPResponse.Status, _ message: String) {
    self.status = status
    self.message = message
  }
}

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

/// Turns every error into a status and `{"error": "..."}` in words; outside `/api` and
/// `/audio` (a browser's request for a page that is not there) into an HTML page.
struct ErrorMiddleware: RouterMiddleware {
  let logger: Logger

  func handle(
    _ request: Request, context: TeamContext,
    next: (Request, TeamContext) async throws -> Response
  ) async throws -> Response {
    do {
      return try await next(request, context)
    } catch {
      let (status, message) = Self.answer(error, request: request, logger: logger)
      let path = request.uri.path
      if path.hasPrefix("/api/") || path.hasPrefix("/audio/") {
        return .json(ErrorBody(message), status: status)
      }
      return Pages.error(status, message, person: nil)
    }
  }

  /// The status and the sentence an error is answered with (logged when it is the server's).
  static func answer(_ error: any Error, request: Request, logger: Logger) -> (
    HTTPResponse.Status, String
  ) {
    var error = error
    if let failed = error as? PostgresTransactionError {
      // A refusal inside a transaction (an APIError) or the database's own error, unwrapped.
      error = failed.closureError ?? failed.beginError ?? failed.commitError ?? failed
    }
    switch error {
    case let error as APIError:
      return (error.status, error.message)
    case let error as HTTPError:
      switch error.status {
      case .notFound:
        let what =
          request.uri.path.hasPrefix("/api/")
          ? "see the README's list of routes" : "go back to the sync-ups"
        return (.notFound, "there is no \(request.method) \(request.uri.path) here; \(what)")
      case .contentTooLarge:
        return (error.status, "the request body is larger than this server takes")
      case .methodNotAllowed:
        return (error.status, "\(request.uri.path) does not take \(request.method)")
      default: return (error.status, error.body ?? error.status.reasonPhrase)
      }
    case let error where isUnreachable(error):
      logger.error("database unreachable: \(String(reflecting: error))")
      return (
        .serviceUnavailable, "the server cannot reach its database just now; try again in a moment"
      )
    default:
      logger.error("\(request.method) \(request.uri.path) failed: \(String(reflecting: error))")
      return (.internalServerError, "the server failed to answer this request; its log says why")
    }
  }
}

extension ErrorMiddleware {
  /// The database went away (stopped, restarting, unreachable) rather than refused the query:
  /// a connection failure, or a server error of class 08 (connection) or 57P (shutdown).
  static func isUnreachable(_ error: any Error) -> Bool {
    if error is ConnectionClosed { return true }
    guard let error = error as? PSQLError else { return false }
    guard error.code == .server else { return error.code != .tooManyParameters }
    let state = error.serverInfo?[.sqlState] ?? ""
    return state.hasPrefix("08") || state.hasPrefix("57P")
  }
}

/// Every `/api/v1` route needs `Authorization: Bearer TOKEN` of a person here, not revoked;
/// the token is looked up at each request, so a revocation counts at once.
struct TokenMiddleware: RouterMiddleware {
  let store: TeamStore

  func handle(
    _ request: Request, context: TeamContext,
    next: (Request, TeamContext) async throws -> Response
  ) async throws -> Response {
    var context = context
    context.person = try await Self.person(from: request, store: store)
    return try await next(request, context)
  }

  /// The person of the request's bearer token, or a 401 saying what is wrong with it.
  static func person(from request: Request, store: TeamStore) async throws -> Person {
    guard let header = request.headers[.authorization] else {
      throw APIError(.unauthorized, "this needs a token: send Authorization: Bearer TOKEN")
    }
    let parts = header.split(separator: " ", maxSplits: 1)
    guard parts.count == 2, parts[0].lowercased() == "bearer" else {
      throw APIError(.unauthorized, "send the token as Authorization: Bearer TOKEN")
    }
    let token = parts[1].trimmingCharacters(in: .whitespaces)
    guard token.count <= 200, let person = try await store.person(token: token) else {
      throw APIError(
        .unauthorized, "this token is not valid here (wrong or revoked); ask for a new one")
    }
    return person
  }
}

extension Response {
  static func json(_ value: some Encodable, status: HTTPResponse.Status = .ok) -> Response {
    let bytes = (try? WireJSON.bytes(of: value)) ?? Array(#"{"error":"unencodable"}"#.utf8)
    return Response(
      status: status, headers: [.contentType: "application/json; charset=utf-8"],
      body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
  }
}

/// Reading what requests bring: ids, numbers, dates, JSON bodies; each mistake a 400 in words.
extension Request {
  func uuid(_ name: String, in context: TeamContext) throws -> UUID {
    let text = context.parameters.get(name) ?? ""
    guard let id = UUID(uuidString: text) else {
      throw APIError(.badRequest, "'\(text)' is not an id; ids look like 1a2b3c4d-…")
    }
    return id
  }

  func integer(_ name: String, default value: Int, in range: ClosedRange<Int>) throws -> Int {
    guard let text = uri.queryParameters[Substring(name)] else { return value }
    guard let number = Int(text), range.contains(number) else {
      throw APIError(
        .badRequest,
        "?\(name)= takes a whole number from \(range.lowerBound) to \(range.upperBound), not '\(text)'"
      )
    }
    return number
  }

  /// The body, at most `limit` bytes (413 past that).
  func collectBody(limit: Int) async throws -> ByteBuffer {
    do {
      return try await self.body.collect(upTo: limit)
    } catch {
      throw APIError(
        .contentTooLarge, "the request body is larger than this server takes (\(limit) bytes)")
    }
  }

  /// A push from its collected body, read where it is (not copied) a meeting at a time (see
  /// `PushJSON`); each mistake a 400 in words.
  static func push(from body: ByteBuffer) throws -> Push {
    do {
      return try body.withUnsafeReadableBytes { try PushJSON.decode($0, with: WireJSON.decoder()) }
    } catch let error as DecodingError {
      throw APIError(.badRequest, "the body is not the JSON this route takes: \(Self.words(error))")
    } catch {
      throw APIError(.badRequest, "the body is not JSON")
    }
  }

  private static func words(_ error: DecodingError) -> String {
    func path(_ context: DecodingError.Context) -> String {
      let path = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }
        .joined()
      return path.isEmpty ? "the document" : String(path.drop(while: { $0 == "." }))
    }
    switch error {
    case .keyNotFound(let key, let context):
      return "\(path(context)) has no '\(key.stringValue)'"
    case .typeMismatch(_, let context), .valueNotFound(_, let context):
      return "\(path(context)) has the wrong kind of value"
    case .dataCorrupted(let context):
      return context.codingPath.isEmpty
        ? "it is not valid JSON" : "\(path(context)): \(context.debugDescription)"
    @unknown default:
      return "it cannot be read"
    }
  }
}
