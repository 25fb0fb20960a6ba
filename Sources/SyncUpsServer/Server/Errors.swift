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

/// Turns every error into a status and `{"error": "..."}` in words; outside `/api` and
/// `/audio` (a browser's request for a page that is not there) into an HTML page, unless the
/// request posted JSON (a page's script).
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
      if Self.postsJSON(request) || path.hasPrefix("/api/") || path.hasPrefix("/audio/") {
        return .json(ErrorBody(message), status: status)
      }
      return Pages.error(status, message, person: nil)
    }
  }

  /// Whether the request posted JSON (a page's script, such as a correction): its errors are
  /// answered as JSON too, wherever it was sent.
  static func postsJSON(_ request: Request) -> Bool {
    request.headers[.contentType]?.lowercased().hasPrefix("application/json") == true
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
    if error is ConnectionClosed || error is DatabaseUnavailable { return true }
    guard let error = error as? PSQLError else { return false }
    guard error.code == .server else { return error.code != .tooManyParameters }
    let state = error.serverInfo?[.sqlState] ?? ""
    return state.hasPrefix("08") || state.hasPrefix("57P")
  }
}
