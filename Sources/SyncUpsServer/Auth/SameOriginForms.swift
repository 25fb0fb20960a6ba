import Hummingbird
import Logging

/// Every form posted to the pages (signing in and out, and any later one) must come from this
/// server's own pages: its `Origin` (or, without one, its `Referer`) must name this server, or
/// the request is refused with 403 before anything happens. Another site could otherwise sign a
/// visitor out, or into an account of its choosing. Browsers send `Origin` with every POST; a
/// request that says neither is refused too. The API is not concerned: it takes bearer tokens,
/// never cookies, so another site's page cannot act with a visitor's rights there.
struct SameOriginForms: RouterMiddleware {
  let proxies: TrustedProxies
  let logger: Logger

  func handle(
    _ request: Request, context: TeamContext,
    next: (Request, TeamContext) async throws -> Response
  ) async throws -> Response {
    let method = request.method
    guard method != .get, method != .head, method != .options,
      !request.uri.path.hasPrefix("/api/"),
      let problem = problem(request, context)
    else { return try await next(request, context) }
    logger.info(
      "refused \(method) \(request.uri.path) from \(context.remoteAddress ?? "?"): \(problem)")
    return Pages.error(.forbidden, problem, person: nil)
  }

  /// Why the form is refused, or nil when it comes from this server's own page.
  func problem(_ request: Request, _ context: TeamContext) -> String? {
    guard let sent = request.headers[.origin] ?? request.headers[.referer] else {
      return "this form did not say which page sent it, so it was not accepted; "
        + "send it from this server's own page (a browser says so itself)"
    }
    let origin = Self.origin(of: sent)
    let host = proxies.host(of: request, context)
    // The scheme counts when a trusted proxy says which one the browser used; otherwise this
    // server cannot tell (HTTP/1 does not say), and another site differs by its host anyway.
    let scheme = proxies.scheme(of: request, context)
    guard let origin, let host, origin.host == host,
      scheme.map({ $0 == origin.scheme }) ?? ["http", "https"].contains(origin.scheme)
    else {
      return "this form was sent from another site (\(sent.prefix(100))), not from this "
        + "server's own page, so it was not accepted; open this server's page and send it from there"
    }
    return nil
  }

  /// The scheme and the host (with its port, as written) of an origin or a URL, in lower case.
  static func origin(of text: String) -> (scheme: String, host: String)? {
    guard let separator = text.range(of: "://") else { return nil }
    let scheme = text[..<separator.lowerBound].lowercased()
    let host = text[separator.upperBound...].prefix { !"/?#".contains($0) }.lowercased()
    guard !scheme.isEmpty, !host.isEmpty else { return nil }
    return (scheme, host)
  }
}
