import Foundation
import Hummingbird

/// Who is asking: signing in and out of the web pages (a session in an HttpOnly cookie, slowed
/// down after failures by `SignInThrottle`), and `GET me` for a token's owner. Signing in and
/// out is open to everyone; `me` sits behind the API's token.
struct AuthRoutes {
  let store: TeamStore
  let throttle: SignInThrottle
  let proxies: TrustedProxies

  /// The sign-in page, its form, and signing out.
  var signing: RouteCollection<TeamContext> {
    RouteCollection(context: TeamContext.self)
      .get("sign-in", use: signInPage)
      .post("sign-in", use: signIn)
      .post("sign-out", use: signOut)
  }

  /// `GET me`, for the API's group.
  var whoAmI: RouteCollection<TeamContext> {
    RouteCollection(context: TeamContext.self).get("me", use: me)
  }

  @Sendable func me(_ request: Request, context: TeamContext) async throws -> Response {
    Response.json(Me(try context.requirePerson(), teams: context.teams))
  }

  @Sendable func signInPage(_ request: Request, context: TeamContext) async throws -> Response {
    let next = SignInPage.safeNext(request.uri.queryParameters["next"].map(String.init))
    return .html(SignInPage.render(next: next))
  }

  @Sendable func signIn(_ request: Request, context: TeamContext) async throws -> Response {
    let body = try await request.body.collect(upTo: 16 * 1024)
    let fields = SignInPage.form(body)
    let name = (fields["name"] ?? "").trimmingCharacters(in: .whitespaces)
    let password = fields["password"] ?? ""
    let next = SignInPage.safeNext(fields["next"])
    // Nobody has a longer name (`user add` refuses it): no work for it, and nothing kept.
    guard Person.fits(name) else {
      return .html(
        SignInPage.render(next: next, problem: SignInPage.tooLong), status: .badRequest)
    }
    let address = proxies.client(of: request, context)
    let keys = SignInThrottle.keys(name: name, address: address)
    let person: Person?
    do {
      // The turn shared by every server on the database first, then this server's own.
      guard let wait = try await store.reserveSignInTurn(keys, throttle: throttle) else {
        throw SignInThrottle.Busy()
      }
      await SignInThrottle.pause(wait)
      // A blank name or password costs the same bcrypt as any other: no shortcut to time.
      person = try await throttle.attempt(name: name, address: address) {
        try await store.person(name: name, password: password)
      }
      if person != nil { try await store.clearSignInFailures(keys[0]) }
    } catch is SignInThrottle.Busy {
      var response = Response.html(
        SignInPage.render(name: name, next: next, problem: SignInPage.busy),
        status: .tooManyRequests)
      response.headers[.retryAfter] = "60"
      return response
    }
    guard let person else {
      return .html(
        SignInPage.render(name: name, next: next, problem: SignInPage.failure),
        status: .unauthorized)
    }
    return try await startSession(for: person, next: next, request, context)
  }

  /// Signs `person` in: a new session, its cookie (`Secure` when the browser used HTTPS), and
  /// on to `next`.
  func startSession(
    for person: Person, next: String, _ request: Request, _ context: TeamContext
  ) async throws -> Response {
    let token = try await store.startSession(for: person)
    let secure = proxies.isHTTPS(request, context) ? "; Secure" : ""
    let cookie =
      "\(SessionMiddleware.cookie)=\(token); Path=/; Max-Age=\(TeamStore.sessionLifetime); "
      + "HttpOnly; SameSite=Strict" + secure
    return .seeOther(next, headers: [.setCookie: cookie])
  }

  @Sendable func signOut(_ request: Request, context: TeamContext) async throws -> Response {
    if let token = request.cookies[SessionMiddleware.cookie]?.value {
      try await store.endSession(token)
    }
    let cookie = "\(SessionMiddleware.cookie)=; Path=/; Max-Age=0; HttpOnly; SameSite=Strict"
    return .seeOther("/sign-in", headers: [.setCookie: cookie])
  }
}
