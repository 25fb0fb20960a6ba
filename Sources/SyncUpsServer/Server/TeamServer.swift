import Foundation
import Hummingbird
import Logging
import NIOCore
import PostgresNIO
import ServiceLifecycle
import SyncUpsWire

/// Everything a running server needs: its store, the audio, the limits, the watcher. It keeps
/// nothing of its own: every server on one database answers alike.
public struct TeamServer: Sendable {
  public let store: TeamStore
  public let audio: AudioStore
  public let limits: Limits
  public let watcher: ChangesWatcher
  /// Slows down failed sign-ins on the web pages.
  public let throttle: SignInThrottle
  /// Pushes larger than `limits.largePush` are decoded and saved one at a time.
  public let largePushes = Turns(1)
  /// The reverse proxies whose `X-Forwarded-*` headers are believed.
  public let proxies: TrustedProxies
  /// What `/metrics` says, and who may read it.
  public let metrics: Metrics
  public let metricsFrom: AddressRanges
  /// The longest `/healthz` waits for PostgreSQL's answer.
  public var healthTimeout: Duration = .seconds(2)
  /// The transcripts of meeting pages read lately.
  let meetingPages = MeetingPageCache()
  /// Posts new meetings' digests to the teams' chats, in the background.
  public let poster: WebhookPoster

  public init(
    client: PostgresClient, limits: Limits = Limits(),
    throttle: SignInThrottle = SignInThrottle(), proxies: TrustedProxies = TrustedProxies(),
    metrics: Metrics = Metrics(), metricsFrom: AddressRanges = .loopback,
    webhooks: WebhookSettings = WebhookSettings(), logger: Logger
  ) {
    store = TeamStore(client: client, logger: logger)
    audio = AudioStore(
      client: client, logger: logger, spoolFolder: limits.uploadSpool,
      cacheBytes: limits.audioCache)
    self.limits = limits
    self.throttle = throttle
    self.proxies = proxies
    self.metrics = metrics
    self.metricsFrom = metricsFrom
    watcher = ChangesWatcher(client: client, logger: logger)
    poster = WebhookPoster(store: store, watcher: watcher, settings: webhooks, logger: logger)
  }

  /// The HTTP application: the routes, with the PostgreSQL client, the watcher and the webhook
  /// poster as services, its connections held as `transport` says. `onServerRunning` gets the
  /// port it listens on once it does (port 0 picks a free one).
  public func application(
    configuration: ApplicationConfiguration = .init(), transport: Transport = Transport(),
    logger: Logger, onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }
  ) -> some ApplicationProtocol {
    Application(
      router: router(logger: logger), server: transport.server(logger: logger),
      configuration: configuration,
      services: [ClientService(client: store.client), watcher, poster],
      onServerRunning: { channel in await onServerRunning(channel.localAddress?.port ?? 0) },
      logger: logger)
  }

  /// The routes, by concern, behind the doors they need: the JSON API takes a bearer token; the
  /// audio a token or the web session (401 without); the pages the session (else the sign-in
  /// page); signing in and the assets take nothing. Every error is answered in words, and
  /// every form must come from this server's own pages. Health and metrics take no token
  /// (metrics are read only from the addresses allowed).
  public func router(logger: Logger) -> Router<TeamContext> {
    let router = Router(context: TeamContext.self)
    router.middlewares.add(MetricsMiddleware(metrics: metrics))
    router.middlewares.add(ErrorMiddleware(logger: logger))
    router.middlewares.add(SameOriginForms(proxies: proxies, logger: logger))
    let auth = AuthRoutes(store: store, throttle: throttle, proxies: proxies)
    let audio = AudioRoutes(store: store, audio: self.audio, limits: limits, proxies: proxies)
    let sync = SyncRoutes(
      store: store, limits: limits, watcher: watcher, largePushes: largePushes, metrics: metrics)
    let pages = PageRoutes(server: self)
    let corrections = CorrectionRoutes(store: store)

    router.group("api/v1").add(middleware: TokenMiddleware(store: store))
      .addRoutes(auth.whoAmI)
      .addRoutes(ReadingRoutes(store: store).routes)
      .addRoutes(DigestRoutes(store: store).routes)
      .addRoutes(sync.routes)
      .addRoutes(audio.uploads)
      .addRoutes(corrections.routes)
    // Outside /api/v1 so that a web page's <audio> can play it with the session.
    router.group("audio")
      .add(middleware: SessionMiddleware(store: store, signedOut: .unauthorized, logger: logger))
      .addRoutes(audio.playback)
    router.addRoutes(
      HealthAndMetricsRoutes(
        client: store.client, metrics: metrics, metricsFrom: metricsFrom, proxies: proxies,
        healthTimeout: healthTimeout, logger: logger
      ).routes)
    router.addRoutes(pages.assets)
    router.addRoutes(auth.signing)
    router.group()
      .add(middleware: SessionMiddleware(store: store, signedOut: .signIn, logger: logger))
      .addRoutes(pages.pages)
      .addRoutes(corrections.routes)
    return router
  }
}

/// Runs the PostgreSQL client's pool as one of the application's services, until the
/// application shuts down (gracefully: the HTTP server stops first).
struct ClientService: Service {
  let client: PostgresClient
  func run() async throws {
    try await cancelWhenGracefulShutdown { await client.run() }
  }
}
