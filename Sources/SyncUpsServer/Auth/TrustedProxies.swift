import Foundation
import Hummingbird
import NIOCore

/// The reverse proxies this server believes (`serve --trusted-proxy ADDR`, repeatable). Only when
/// a request comes from one of them do `X-Forwarded-For`, `X-Forwarded-Proto` and
/// `X-Forwarded-Host` say who the client is, whether it used HTTPS and which host it asked for.
/// From anyone else they are the client's own claims and are ignored: believed, they would let
/// anyone pick the address its failed sign-ins count against.
public struct TrustedProxies: Sendable, Equatable {
  /// Written the way a connection reports its peer (`::1`, not `0:0:0:0:0:0:0:1`).
  public let addresses: Set<String>
  /// This server ends TLS itself (`serve --tls-cert`): every browser used HTTPS.
  public var servesHTTPS = false

  /// None: every peer is the client itself.
  public init() {
    addresses = []
  }

  public init(_ addresses: [String]) throws {
    self.addresses = Set(
      try addresses.map { text in
        guard let address = Self.canonical(text) else {
          throw ServerError.usage(
            "--trusted-proxy takes the IP address of a reverse proxy (such as 127.0.0.1 or ::1), "
              + "not '\(text.prefix(100))'")
        }
        return address
      })
  }

  /// An IP address written as connections report theirs, or nil when the text is not one. An
  /// IPv4 address mapped into IPv6 (a peer of a server listening on `::`) is the IPv4 one.
  static func canonical(_ text: some StringProtocol) -> String? {
    let trimmed = text.trimmingCharacters(in: .whitespaces)
    guard trimmed.utf8.count <= 64,
      let address = (try? SocketAddress(ipAddress: trimmed, port: 0))?.ipAddress
    else { return nil }
    let mapped = "::ffff:"
    return address.hasPrefix(mapped) && address.contains(".")
      ? String(address.dropFirst(mapped.count)) : address
  }

  func trusts(_ peer: String?) -> Bool {
    peer.flatMap { Self.canonical($0) }.map(addresses.contains) ?? false
  }

  /// Who the client is: the connection's peer, or behind trusted proxies the last address of
  /// `X-Forwarded-For` that is not one of them (each proxy appends who it heard from). An
  /// entry that is not a plain IP address (`203.0.113.9:443`, `unknown`, garbage), an empty
  /// header or one too long is someone the proxy could not name: `untrusted`, which is no
  /// address (never in `--metrics-from`), and whose sign-ins count together. Never the proxy.
  func client(peer: String?, forwardedFor: String?) -> String? {
    guard trusts(peer), let forwardedFor else { return peer }
    guard forwardedFor.utf8.count <= Self.longestForwardedFor else { return Self.untrusted }
    for item in forwardedFor.split(separator: ",", omittingEmptySubsequences: false).reversed() {
      guard let address = Self.canonical(item) else { return Self.untrusted }
      if !addresses.contains(address) { return address }
    }
    // Every entry a proxy of ours: the request began at one of them.
    return peer
  }

  /// The client behind a trusted proxy that did not name it as an address.
  static let untrusted = "untrusted-forwarded-client"
  /// The longest `X-Forwarded-For` read (a chain of dozens of proxies).
  static let longestForwardedFor = 2048

  /// The last value of a header a trusted proxy sets (`X-Forwarded-Proto: https`), or nil when
  /// the peer is not a trusted proxy or did not set it.
  func forwarded(_ value: String?, peer: String?) -> String? {
    guard trusts(peer), let last = value?.split(separator: ",").last else { return nil }
    let trimmed = last.trimmingCharacters(in: .whitespaces).lowercased()
    return trimmed.isEmpty ? nil : trimmed
  }
}

extension TrustedProxies {
  func client(of request: Request, _ context: TeamContext) -> String? {
    client(peer: context.remoteAddress, forwardedFor: request.headers[.forwardedFor])
  }

  /// Whether the browser used HTTPS, as only a trusted proxy that ended the TLS can say.
  func isHTTPS(_ request: Request, _ context: TeamContext) -> Bool {
    scheme(of: request, context) == "https"
  }

  /// The scheme the browser used: HTTPS when this server ends TLS itself, else what a trusted
  /// proxy says (nil: not known here).
  func scheme(of request: Request, _ context: TeamContext) -> String? {
    servesHTTPS ? "https" : forwarded(request.headers[.forwardedProto], peer: context.remoteAddress)
  }

  /// The host (and port) the browser asked for: a trusted proxy's `X-Forwarded-Host`, else the
  /// request's own `Host`.
  func host(of request: Request, _ context: TeamContext) -> String? {
    forwarded(request.headers[.forwardedHost], peer: context.remoteAddress)
      ?? request.head.authority?.lowercased()
  }
}

extension HTTPFields.Element.Name {
  /// Set by a reverse proxy to the `Host` the browser asked it for.
  static let forwardedHost = Self("X-Forwarded-Host")!
}
