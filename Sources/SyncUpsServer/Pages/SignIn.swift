import Foundation
import Hummingbird
import NIOCore

/// The sign-in page: a name and the password set with `syncups-server user password NAME`.
/// A failure says the same whether the name exists or not, and each failure in a row for a
/// name or from an address makes the next attempt wait longer (awaited, the event loop is free).
enum SignInPage {
  static let failure = "That name and password do not match. Check both and try again."

  static func render(name: String = "", next: String, problem: String? = nil) -> String {
    var content = "<div class=\"card narrow\">\n<h1>Sign in</h1>\n"
    if let problem {
      content += "<p class=\"problem\" role=\"alert\" id=\"problem\">"
      HTML.append(problem, to: &content)
      content += "</p>\n"
    }
    let described = problem == nil ? "" : " aria-describedby=\"problem\""
    content += "<form class=\"stack\" action=\"/sign-in\" method=\"post\">\n"
    content += "<input type=\"hidden\" name=\"next\" value=\"\(HTML.escape(next))\">\n"
    content += "<label for=\"name\">Name</label>\n"
    content += "<input id=\"name\" name=\"name\" autocomplete=\"username\" required"
    content += (name.isEmpty ? " autofocus" : "") + described + " value=\""
    HTML.append(name, to: &content)
    content += "\">\n<label for=\"password\">Password</label>\n"
    content += "<input id=\"password\" name=\"password\" type=\"password\" "
    content += "autocomplete=\"current-password\" required" + (name.isEmpty ? "" : " autofocus")
    content += described + ">\n<button type=\"submit\">Sign in</button>\n</form>\n"
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

/// Failed sign-ins in a row, per name and per address: each makes the next attempt wait
/// (0.5 s, 1 s, 2 s, ... up to `longest`); a success clears the name's count.
public actor SignInThrottle {
  private var failures: [String: (count: Int, last: ContinuousClock.Instant)] = [:]
  let first: Duration
  let longest: Duration
  /// Failures older than this are forgotten.
  let memory: Duration

  public init(
    first: Duration = .milliseconds(500), longest: Duration = .seconds(10),
    memory: Duration = .seconds(900)
  ) {
    self.first = first
    self.longest = longest
    self.memory = memory
  }

  static func keys(name: String, address: String?) -> [String] {
    ["name:" + name.lowercased()] + (address.map { ["address:" + $0] } ?? [])
  }

  /// How long the next attempt with these keys waits.
  func delay(for keys: [String], now: ContinuousClock.Instant = .now) -> Duration {
    let count =
      keys.compactMap { key in
        failures[key].flatMap { now - $0.last < memory ? $0.count : nil }
      }.max() ?? 0
    guard count > 0 else { return .zero }
    let doubled = first * Int(pow(2.0, Double(min(count - 1, 20))))
    return min(doubled, longest)
  }

  func failed(_ keys: [String], now: ContinuousClock.Instant = .now) {
    if failures.count > 10_000 { failures = failures.filter { now - $0.value.last < memory } }
    for key in keys {
      let previous = failures[key].flatMap { now - $0.last < memory ? $0.count : nil } ?? 0
      failures[key] = (previous + 1, now)
    }
  }

  func succeeded(_ keys: [String]) {
    failures[keys[0]] = nil
  }
}

extension TeamServer {
  func signIn(_ request: Request, context: TeamContext) async throws -> Response {
    let body = try await request.body.collect(upTo: 16 * 1024)
    let fields = SignInPage.form(body)
    let name = (fields["name"] ?? "").trimmingCharacters(in: .whitespaces)
    let password = fields["password"] ?? ""
    let next = SignInPage.safeNext(fields["next"])
    let keys = SignInThrottle.keys(name: name, address: Self.client(of: request, context))
    let wait = await throttle.delay(for: keys)
    if wait > .zero { try await Task.sleep(for: wait) }
    guard !name.isEmpty, !password.isEmpty,
      let person = try await store.person(name: name, password: password)
    else {
      await throttle.failed(keys)
      return .html(
        SignInPage.render(name: name, next: next, problem: SignInPage.failure),
        status: .unauthorized)
    }
    await throttle.succeeded(keys)
    let token = try await store.startSession(for: person)
    let secure = request.headers[.forwardedProto] == "https" ? "; Secure" : ""
    let cookie =
      "\(SessionMiddleware.cookie)=\(token); Path=/; Max-Age=\(TeamStore.sessionLifetime); "
      + "HttpOnly; SameSite=Strict" + secure
    return .seeOther(next, headers: [.setCookie: cookie])
  }

  /// Who is signing in: the peer, or behind a reverse proxy on this host (a loopback peer)
  /// the address the proxy appended last to `X-Forwarded-For`.
  static func client(of request: Request, _ context: TeamContext) -> String? {
    let peer = context.remoteAddress
    guard peer == "127.0.0.1" || peer == "::1",
      let forwarded = request.headers[.forwardedFor]?.split(separator: ",").last
    else { return peer }
    return forwarded.trimmingCharacters(in: .whitespaces)
  }

  func signOut(_ request: Request) async throws -> Response {
    if let token = request.cookies[SessionMiddleware.cookie]?.value {
      try await store.endSession(token)
    }
    let cookie = "\(SessionMiddleware.cookie)=; Path=/; Max-Age=0; HttpOnly; SameSite=Strict"
    return .seeOther("/sign-in", headers: [.setCookie: cookie])
  }
}
