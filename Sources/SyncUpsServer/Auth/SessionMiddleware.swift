import Hummingbird
import Logging
import SyncUpsWire

/// Who asks for a page or the audio: the bearer token of the API, else the session cookie.
/// Signed out, pages redirect to the sign-in page and the audio is 401. Errors of the pages
/// behind it become HTML pages (with the search box, as the person is known here).
struct SessionMiddleware: RouterMiddleware {
  enum SignedOut { case signIn, unauthorized }
  static let cookie = "syncups_session"

  let store: TeamStore
  let signedOut: SignedOut
  let logger: Logger

  func handle(
    _ request: Request, context: TeamContext,
    next: (Request, TeamContext) async throws -> Response
  ) async throws -> Response {
    var context = context
    if request.headers[.authorization] != nil {
      try context.enter(
        try await TokenMiddleware.person(from: request, store: store), request: request)
    } else if let token = request.cookies[Self.cookie]?.value,
      let person = try await store.person(session: token)
    {
      try context.enter(person, request: request)
    }
    guard context.person != nil else {
      switch signedOut {
      case .unauthorized:
        throw APIError(
          .unauthorized, "sign in on the web page, or send Authorization: Bearer TOKEN")
      case .signIn:
        return .seeOther("/sign-in?next=" + HTML.queryValue(request.uri.description))
      }
    }
    guard signedOut == .signIn else { return try await next(request, context) }
    do {
      return try await next(request, context)
    } catch {
      let (status, message) = ErrorMiddleware.answer(error, request: request, logger: logger)
      if ErrorMiddleware.postsJSON(request) { return .json(ErrorBody(message), status: status) }
      return Pages.error(status, message, person: context.person)
    }
  }
}
