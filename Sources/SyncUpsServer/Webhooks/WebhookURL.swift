import Foundation

/// A team's incoming webhook (`syncups-server team webhook TEAM URL`): an `http` or `https`
/// URL with a host, no user or password in it, at most `longest` bytes of visible ASCII.
///
/// The URL is a secret: whoever has it may post into the team's chat (Slack's and
/// Mattermost's carry their key in the path). No message, listing or log says it whole: they
/// give `redacted`, the scheme and host alone.
public struct WebhookURL: Equatable, Sendable {
  public let text: String
  public let url: URL

  /// The longest URL taken, in bytes (Slack's are about 80, Mattermost's about 60).
  public static let longest = 2048

  public init(_ text: String) throws(ServerError) {
    guard text.utf8.count <= Self.longest else {
      throw .usage(
        "a webhook URL is at most \(Self.longest) bytes; this one has \(text.utf8.count)")
    }
    guard !text.isEmpty, text.unicodeScalars.allSatisfy({ (0x21...0x7E).contains($0.value) })
    else {
      throw .usage(
        "a webhook URL is written in visible ASCII, without spaces (percent-encode the rest), "
          + "as the chat gave it: https://HOST/...")
    }
    guard let components = URLComponents(string: text), let url = components.url,
      let scheme = components.scheme?.lowercased()
    else {
      throw .usage("that is not a URL; give the incoming webhook's URL, https://HOST/...")
    }
    guard scheme == "https" || scheme == "http" else {
      throw .usage(
        "a webhook URL starts with https:// (or http://), not \(scheme.prefix(20))://")
    }
    guard let host = components.host, !host.isEmpty else {
      throw .usage("the webhook URL has no host; give https://HOST/...")
    }
    guard components.user == nil, components.password == nil else {
      throw .usage(
        "the webhook URL has a user or password before its host (\(scheme)://…@\(host.prefix(80))); "
          + "give it without them: the chat's incoming webhook needs none")
    }
    guard components.fragment == nil else {
      throw .usage("the webhook URL has a '#' part, which is never sent; give it without")
    }
    self.text = text
    self.url = url
  }

  /// What may be said of it: `https://HOST/…` (the path, which holds the key, left out).
  public var redacted: String { Self.redacted(text) }

  /// `text`'s scheme and host alone, for a URL stored before (never the whole of it).
  public static func redacted(_ text: String) -> String {
    guard let components = URLComponents(string: text), let scheme = components.scheme,
      let host = components.host
    else { return "(a URL that is not valid)" }
    let port = components.port.map { ":\($0)" } ?? ""
    return "\(scheme.lowercased().prefix(5))://\(host.prefix(255))\(port)/…"
  }
}
