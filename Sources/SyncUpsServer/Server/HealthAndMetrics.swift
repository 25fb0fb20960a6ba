import Foundation
import Hummingbird
import Logging
import PostgresNIO
import SyncUpsWire

/// `GET /healthz` for load balancers and service managers (no token: it says only whether the
/// database answers), and `GET /metrics` for Prometheus, from the addresses allowed to read it.
struct HealthAndMetricsRoutes {
  let client: PostgresClient
  let metrics: Metrics
  let metricsFrom: AddressRanges
  let proxies: TrustedProxies
  /// The longest `/healthz` waits for PostgreSQL's answer.
  let healthTimeout: Duration
  let logger: Logger

  var routes: RouteCollection<TeamContext> {
    RouteCollection(context: TeamContext.self)
      .get("healthz", use: health)
      .get("metrics", use: scrape)
  }

  @Sendable func health(_ request: Request, context: TeamContext) async throws -> Response {
    let client = client
    let logger = logger
    do {
      _ = try await answer(within: healthTimeout) {
        try await client.withOpenConnection { try await $0.run("SELECT 1", logger: logger) }
      }
      return Self.text("ok: PostgreSQL answers\n", status: .ok)
    } catch {
      return Self.text(
        "unavailable: PostgreSQL does not answer (waited \(healthTimeout.components.seconds) s)\n",
        status: .serviceUnavailable)
    }
  }

  @Sendable func scrape(_ request: Request, context: TeamContext) async throws -> Response {
    guard metricsFrom.contains(proxies.client(of: request, context)) else {
      return .json(
        ErrorBody("metrics are read only from the addresses of serve --metrics-from"),
        status: .forbidden)
    }
    var response = Self.text(metrics.render(), status: .ok)
    response.headers[.contentType] = "text/plain; version=0.0.4; charset=utf-8"
    return response
  }

  static func text(_ text: String, status: HTTPResponse.Status) -> Response {
    Response(
      status: status,
      headers: [.contentType: "text/plain; charset=utf-8", .cacheControl: "no-store"],
      body: .init(byteBuffer: ByteBuffer(string: text)))
  }
}

/// Counts every request by its route's pattern, method and status, with its time. The first
/// middleware, so it sees the status the error middleware chose.
struct MetricsMiddleware: RouterMiddleware {
  let metrics: Metrics
  static let methods: Set<HTTPRequest.Method> = [
    .get, .head, .post, .put, .patch, .delete, .options,
  ]

  func handle(
    _ request: Request, context: TeamContext,
    next: (Request, TeamContext) async throws -> Response
  ) async throws -> Response {
    let start = ContinuousClock.now
    let method = Self.methods.contains(request.method) ? request.method.rawValue : "other"
    do {
      let response = try await next(request, context)
      record(context, method, response.status.code, since: start)
      return response
    } catch {
      let status = (error as? any HTTPResponseError)?.status.code ?? 500
      record(context, method, status, since: start)
      throw error
    }
  }

  private func record(
    _ context: TeamContext, _ method: String, _ status: Int, since start: ContinuousClock.Instant
  ) {
    let elapsed = (ContinuousClock.now - start).components
    let seconds = Double(elapsed.seconds) + Double(elapsed.attoseconds) * 1e-18
    metrics.request(
      route: context.endpointPath ?? "NotFound", method: method, status: status,
      seconds: seconds)
  }
}

/// What `body` returns, or `TimedOut` once `limit` has passed without an answer. `body` runs in
/// a task of its own, cancelled then: the caller never waits on it longer than `limit`, even
/// when it does not heed the cancellation (a pool waiting for a database that went away).
func answer<T: Sendable>(
  within limit: Duration, _ body: @escaping @Sendable () async throws -> T
) async throws -> T {
  let first = FirstResult<T>()
  let work = Task {
    do { first.settle(.success(try await body())) } catch { first.settle(.failure(error)) }
  }
  let timer = Task {
    try? await Task.sleep(for: limit)
    first.settle(.failure(TimedOut()))
  }
  defer {
    work.cancel()
    timer.cancel()
  }
  return try await first.value.get()
}

struct TimedOut: Error {}

/// The first of several results; later ones are dropped.
final class FirstResult<T: Sendable>: @unchecked Sendable {
  private let lock = NSLock()
  private var result: Result<T, any Error>?
  private var waiter: CheckedContinuation<Result<T, any Error>, Never>?

  func settle(_ value: Result<T, any Error>) {
    let waiter: CheckedContinuation<Result<T, any Error>, Never>? = lock.withLock {
      guard result == nil else { return nil }
      result = value
      defer { self.waiter = nil }
      return self.waiter
    }
    waiter?.resume(returning: value)
  }

  var value: Result<T, any Error> {
    get async {
      await withCheckedContinuation { continuation in
        let settled: Result<T, any Error>? = lock.withLock {
          if result == nil { waiter = continuation }
          return result
        }
        if let settled { continuation.resume(returning: settled) }
      }
    }
  }
}
