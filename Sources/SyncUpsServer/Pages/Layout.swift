import Foundation
import Hummingbird
import SyncUpsWire

/// The frame every page shares: the head, a header with the search box and who is signed in,
/// the main content, and the error page.
enum Pages {
  /// Scripts, styles, media and forms from this server only; no framing, no inline code.
  static let securityHeaders: HTTPFields = [
    .contentSecurityPolicy:
      "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
      + "media-src 'self'; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; "
      + "base-uri 'none'",
    .xContentTypeOptions: "nosniff",
    .referrerPolicy: "same-origin",
  ]

  /// The sync-up themes (as the laptop names them); anything else is shown as teal.
  static let themes: Set<String> = Rules.themes

  /// The CSS class of a theme: `theme-teal` (the stylesheet gives each its colours).
  static func themeClass(_ theme: String) -> String {
    let name = theme.lowercased()
    return "theme-" + (themes.contains(name) ? name : "teal")
  }

  /// A whole page: the head, the header (with the search box and who is signed in when someone
  /// is) and `content`. `title` and `query` are text.
  static func page(
    title: String, person: Person?, query: String = "", theme: String? = nil, script: Bool = false,
    content: Markup
  ) -> String {
    var out: Markup = """
      <!doctype html>
      <html lang="en">
      <head>
      <meta charset="utf-8">
      <meta name="viewport" content="width=device-width, initial-scale=1">
      <title>\(title) · SyncUps</title>
      <link rel="stylesheet" href="\(Assets.stylesheetPath)">

      """
    out.reserveCapacity(content.bytes.count + 2048)
    if script { out += "<script src=\"\(Assets.scriptPath)\" defer></script>\n" }
    out += "</head>\n<body class=\"\(themeClass(theme ?? "teal"))\">\n"
    out += "<a class=\"skip\" href=\"#main\">Skip to content</a>\n"
    out += "<header class=\"top\"><a class=\"brand\" href=\"/\">SyncUps</a>\n"
    if let person {
      out += "<form class=\"search\" role=\"search\" action=\"/search\" method=\"get\">"
      out += "<label for=\"q\" class=\"visually-hidden\">Search every meeting</label>"
      out += "<input id=\"q\" name=\"q\" type=\"search\" placeholder=\"Search meetings\" "
      out += "value=\"\(query)\" autocomplete=\"off\">"
      out += "<button type=\"submit\">Search</button></form>\n"
      out += "<nav class=\"nav\" aria-label=\"Pages\"><a href=\"/\">Sync-ups</a> "
      out += "<a href=\"/blockers\">Blockers</a></nav>\n"
      out += "<form class=\"account\" action=\"/sign-out\" method=\"post\"><span>\(person.name)"
      out += "</span> <button type=\"submit\" class=\"link\">Sign out</button></form>\n"
    }
    out += "</header>\n<main id=\"main\" tabindex=\"-1\">\n"
    out += content
    out += "</main>\n</body>\n</html>\n"
    return out.description
  }

  /// An error as a page: what went wrong, in words, and where to go from here.
  static func error(_ status: HTTPResponse.Status, _ message: String, person: Person?) -> Response {
    .html(errorPage(status, message, person: person), status: status)
  }

  static func errorPage(_ status: HTTPResponse.Status, _ message: String, person: Person?) -> String
  {
    let content: Markup = """
      <h1>\(status.reasonPhrase)</h1>
      <p class="problem">\(Self.sentence(message))</p>
      <p><a href="/">Back to the sync-ups</a></p>

      """
    return page(title: status.reasonPhrase, person: person, content: content)
  }

  /// A message starting with a capital letter and ending with a full stop.
  static func sentence(_ message: String) -> String {
    guard let first = message.first else { return message }
    let text = first.uppercased() + message.dropFirst()
    return text.hasSuffix(".") ? text : text + "."
  }
}

extension HTTPFields.Element.Name {
  static let referrerPolicy = Self("Referrer-Policy")!
  /// Set by a reverse proxy that terminates TLS (the session cookie is then `Secure`).
  static let forwardedProto = Self("X-Forwarded-Proto")!
  static let forwardedFor = Self("X-Forwarded-For")!
}
