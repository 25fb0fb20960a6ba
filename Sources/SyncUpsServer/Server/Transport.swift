import Foundation
import Hummingbird
import HummingbirdCore
import HummingbirdTLS
import Logging
import NIOCore
import NIOSSL
import Synchronization

/// How the server holds its connections: HTTPS or plain HTTP, how long a connection may stay
/// idle or take to send a request's head, and how many may be open at once.
///
/// Without these, half-sent requests and idle sockets stayed open forever, and enough of them
/// took every file descriptor the process had (PostgreSQL's and the audio files' too).
public struct Transport: Sendable {
  /// A connection with no request in progress is closed after this long.
  public var idleTimeout: Duration
  /// A request whose head (request line and headers) has not arrived whole this long after its
  /// first bytes is closed: a client sending its headers a byte at a time (slowloris) holds a
  /// connection no longer than this.
  public var headerTimeout: Duration
  /// A request whose body has begun and then sends nothing for this long is closed.
  public var bodyTimeout: Duration
  /// Past this many open connections a new one is closed as soon as it is accepted.
  public var maxConnections: Int
  /// Past this many open connections from one address a new one from it is closed as soon as
  /// it is accepted, so that one client cannot take the others' share.
  public var maxConnectionsPerAddress: Int
  /// Addresses not bounded one by one: the trusted reverse proxies, whose connections carry
  /// every client behind them.
  public var unboundedAddresses: Set<String> = []
  /// HTTPS with this certificate and key; plain HTTP when nil.
  public var tls: TLSConfiguration?

  public init(
    idleTimeout: Duration = .seconds(30), headerTimeout: Duration = .seconds(10),
    bodyTimeout: Duration = .seconds(30),
    maxConnections: Int = Transport.defaultMaxConnections, maxConnectionsPerAddress: Int = 100,
    tls: TLSConfiguration? = nil
  ) {
    self.idleTimeout = idleTimeout
    self.bodyTimeout = bodyTimeout
    self.headerTimeout = headerTimeout
    self.maxConnections = maxConnections
    self.maxConnectionsPerAddress = maxConnectionsPerAddress
    self.tls = tls
  }

  /// The descriptors this process may open, less those it keeps for PostgreSQL's pool, audio
  /// files being read or written, and its own (logs, the event loops): so that connections
  /// alone never use them all.
  public static var defaultMaxConnections: Int {
    var limit = rlimit()
    guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 1000 }
    // No limit (RLIM_INFINITY) is the largest number, clamped.
    return max(8, min(10_000, Int(clamping: limit.rlim_cur) - 128))
  }

  /// The server: HTTP/1.1 with the timeouts, over TLS when there is a certificate, with at most
  /// `maxConnections` connections.
  func server(logger: Logger) -> HTTPServerBuilder {
    let headerTimeout = TimeAmount(headerTimeout)
    let http = HTTP1Channel.Configuration(
      additionalChannelHandlers: [
        HeaderTimeoutHandler(timeout: headerTimeout),
        BodyTimeoutHandler(timeout: TimeAmount(bodyTimeout)),
      ],
      idleTimeout: TimeAmount(idleTimeout))
    let gate = ConnectionGate(
      limit: maxConnections, perAddress: maxConnectionsPerAddress, unbounded: unboundedAddresses,
      logger: logger)
    let tls = tls
    return HTTPServerBuilder { responder in
      let plain = HTTP1Channel(responder: responder, configuration: http)
      guard let tls else { return BoundedChannel(base: plain, gate: gate) }
      return BoundedChannel(base: try TLSChannel(plain, tlsConfiguration: tls), gate: gate)
    }
  }

  /// The TLS 1.2 ciphers taken: ECDHE key exchange with AES-GCM or ChaCha20-Poly1305.
  static let modernCiphers = [
    "ECDHE-ECDSA-AES128-GCM-SHA256", "ECDHE-RSA-AES128-GCM-SHA256",
    "ECDHE-ECDSA-AES256-GCM-SHA384", "ECDHE-RSA-AES256-GCM-SHA384",
    "ECDHE-ECDSA-CHACHA20-POLY1305", "ECDHE-RSA-CHACHA20-POLY1305",
  ].joined(separator: ":")

  /// A server's TLS from a PEM certificate (or chain, the server's own first) and its PEM
  /// private key; each problem is one sentence saying which file and what to do.
  public static func tls(certificate: String, key: String) throws -> TLSConfiguration {
    for (path, what) in [(certificate, "--tls-cert"), (key, "--tls-key")] {
      guard FileManager.default.isReadableFile(atPath: path) else {
        let problem =
          FileManager.default.fileExists(atPath: path) ? "cannot be read" : "does not exist"
        throw ServerError.usage("\(what) \(path) \(problem); give a PEM file this user can read")
      }
    }
    let chain: [NIOSSLCertificate]
    do {
      chain = try NIOSSLCertificate.fromPEMFile(certificate)
    } catch {
      chain = []
    }
    guard !chain.isEmpty else {
      throw ServerError.usage(
        "--tls-cert \(certificate) holds no PEM certificate (-----BEGIN CERTIFICATE-----)")
    }
    let privateKey: NIOSSLPrivateKey
    do {
      privateKey = try NIOSSLPrivateKey(file: key, format: .pem)
    } catch {
      throw ServerError.usage(
        "--tls-key \(key) holds no PEM private key (or one with a passphrase, which the server "
          + "cannot ask for)")
    }
    var configuration = TLSConfiguration.makeServerConfiguration(
      certificateChain: chain.map { .certificate($0) }, privateKey: .privateKey(privateKey))
    // TLS 1.2 at least (1.0 and 1.1 are broken and withdrawn), and for 1.2 only forward-secret
    // AEAD ciphers (1.3 has only such).
    configuration.minimumTLSVersion = .tlsv12
    configuration.cipherSuites = modernCiphers
    do {
      // Making the context checks the key against the certificate, here rather than at the
      // first connection.
      _ = try NIOSSLContext(configuration: configuration)
    } catch {
      throw ServerError.usage(
        "--tls-key \(key) is not the private key of the certificate in --tls-cert \(certificate)")
    }
    return configuration
  }
}

extension TimeAmount {
  init(_ duration: Duration) {
    let (seconds, attoseconds) = duration.components
    self = .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
  }
}

/// Counts the open connections, in all and by address, and says when one more is one too many.
final class ConnectionGate: Sendable {
  let limit: Int
  let perAddress: Int
  let unbounded: Set<String>
  let logger: Logger

  private struct State {
    var open = 0
    var byAddress: [String: Int] = [:]
    /// Whether the last one was refused, for all or for its address (to log once per run of
    /// refusals).
    var refusing = false
    var refusingAddress = false
  }
  private let state = Mutex(State())

  init(limit: Int, perAddress: Int, unbounded: Set<String>, logger: Logger) {
    self.limit = limit
    self.perAddress = perAddress
    self.unbounded = unbounded
    self.logger = logger
  }

  /// The address a connection's peer is counted under (nil: not counted by address).
  func key(_ peer: SocketAddress?) -> String? {
    guard let text = peer?.ipAddress else { return nil }
    let address = TrustedProxies.canonical(text) ?? text
    return unbounded.contains(address) ? nil : address
  }

  /// Counts a new connection from `address` in, or returns false when `limit` are already
  /// open, or `perAddress` from that address.
  func enter(_ address: String?) -> Bool {
    let (entered, warning): (Bool, String?) = state.withLock { state in
      guard state.open < limit else {
        defer { state.refusing = true }
        return (
          false,
          state.refusing
            ? nil
            : "\(limit) connections are open (--max-connections): closing new ones until some close"
        )
      }
      if let address {
        guard state.byAddress[address, default: 0] < perAddress else {
          defer { state.refusingAddress = true }
          return (
            false,
            state.refusingAddress
              ? nil
              : "\(perAddress) connections are open from \(address) "
                + "(--max-connections-per-address): closing its new ones until some close"
          )
        }
        state.byAddress[address, default: 0] += 1
      }
      state.open += 1
      state.refusing = false
      state.refusingAddress = false
      return (true, nil)
    }
    if let warning { logger.warning("\(warning)") }
    return entered
  }

  func leave(_ address: String?) {
    state.withLock { state in
      state.open -= 1
      if let address {
        let left = state.byAddress[address, default: 1] - 1
        state.byAddress[address] = left > 0 ? left : nil
      }
    }
  }
}

/// A child channel that counts itself in the gate for as long as it is open; past the limit it
/// is closed before anything is read from it (its descriptor is given back at once).
struct BoundedChannel<Base: ServerChildChannel>: ServerChildChannel {
  typealias Value = Base.Value
  let base: Base
  let gate: ConnectionGate

  struct TooManyConnections: Error {}

  func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
    let address = gate.key(channel.remoteAddress)
    guard gate.enter(address) else {
      channel.close(promise: nil)
      // NIO drops a connection whose setup failed; the close above is what ends it.
      return channel.eventLoop.makeFailedFuture(TooManyConnections())
    }
    let gate = gate
    channel.closeFuture.whenComplete { _ in gate.leave(address) }
    return base.setup(channel: channel, logger: logger)
  }

  func handle(value: Value, logger: Logger) async {
    await base.handle(value: value, logger: logger)
  }
}
