import Hummingbird

/// Every `/api/v1` route needs `Authorization: Bearer TOKEN` of a person here, not revoked;
/// the token is looked up at each request, so a revocation counts at once.
struct TokenMiddleware: RouterMiddleware {
  let store: TeamStore

  func handle(
    _ request: Request, context: TeamContext,
    next: (Request, TeamContext) async throws -> Response
  ) async throws -> Response {
    var context = context
    try context.enter(try await Self.person(from: request, store: store), request: request)
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
