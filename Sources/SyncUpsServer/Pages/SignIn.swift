import Foundation
import Hummingbird
import NIOCore

/// The sign-in page: a name and the password set with `syncups-server user password NAME`.
/// A failure says the same whether the name exists or not, and each failure in a row for a
/// name or from an address makes the next attempt wait longer (`SignInThrottle`).
enum SignInPage {
  static let failure = "That name and password do not match. Check both and try again."
  static let tooLong =
    "No one here has a name that long (at most \(Person.longestName) characters). Check it and try again."
  static let busy =
    "Too many sign-ins for this name or from this address are waiting. Wait a minute and try again."

  static func render(name: String = "", next: String, problem: String? = nil) -> String {
    var content: Markup = "<div class=\"card narrow\">\n<h1>Sign in</h1>\n"
    if let problem {
      content += "<p class=\"problem\" role=\"alert\" id=\"problem\">\(problem)</p>\n"
    }
    let described: Markup = problem == nil ? "" : " aria-describedby=\"problem\""
    content += "<form class=\"stack\" action=\"/sign-in\" method=\"post\">\n"
    content += "<input type=\"hidden\" name=\"next\" value=\"\(next)\">\n"
    content += "<label for=\"name\">Name</label>\n"
    content += "<input id=\"name\" name=\"name\" autocomplete=\"username\" required"
    content += name.isEmpty ? " autofocus" : ""
    content += "\(described) value=\"\(name)\">\n<label for=\"password\">Password</label>\n"
    content += "<input id=\"password\" name=\"password\" type=\"password\" "
    content += "autocomplete=\"current-password\" required"
    content += name.isEmpty ? "" : " autofocus"
    content += "\(described)>\n<button type=\"submit\">Sign in</button>\n</form>\n"
    content += "<p class=\"hint\">Your password is set by whoever runs the server, with "
    content += "<code>syncups-server user password NAME</code>.</p>\n</div>\n"
    return Pages.page(title: "Sign in", person: nil, content: content)
  }

  /// Where to go after signing in: a path on this server, else the sync-ups.
  static func safeNext(_ text: String?) -> String {
    guard let text, text.hasPrefix("/"), !text.hasPrefix("//"), !text.contains("\\"),
      !text.hasPrefix("/sign-"), text.count < 2000,
      !text.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F })
    else { return "/" }
    return text
  }

  /// `application/x-www-form-urlencoded` fields.
  static func form(_ body: ByteBuffer) -> [String: String] {
    var fields: [String: String] = [:]
    for pair in String(buffer: body).split(separator: "&") {
      let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
      func decoded(_ text: Substring) -> String {
        String(text).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? ""
      }
      fields[decoded(parts[0])] = parts.count == 2 ? decoded(parts[1]) : ""
    }
    return fields
  }
}

extension TeamServer {
  func signIn(_ request: Request, context: TeamContext) async throws -> Response {
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
    let person: Person?
    do {
      // A blank name or password costs the same bcrypt as any other: no shortcut to time.
      person = try await throttle.attempt(name: name, address: address) {
        try await store.person(name: name, password: password)
      }
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
    let token = try await store.startSession(for: person)
    let secure = proxies.isHTTPS(request, context) ? "; Secure" : ""
    let cookie =
      "\(SessionMiddleware.cookie)=\(token); Path=/; Max-Age=\(TeamStore.sessionLifetime); "
      + "HttpOnly; SameSite=Strict" + secure
    return .seeOther(next, headers: [.setCookie: cookie])
  }

  func signOut(_ request: Request) async throws -> Response {
    if let token = request.cookies[SessionMiddleware.cookie]?.value {
      try await store.endSession(token)
    }
    let cookie = "\(SessionMiddleware.cookie)=; Path=/; Max-Age=0; HttpOnly; SameSite=Strict"
    return .seeOther("/sign-in", headers: [.setCookie: cookie])
  }
}
