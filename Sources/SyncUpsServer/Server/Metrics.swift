import CoreMetrics
import Foundation
import Prometheus

/// The server's counters, gauges and histograms, kept through swift-metrics and written out in
/// Prometheus' text format by the swift-prometheus exporter (`GET /metrics`).
///
/// Each `Metrics` has a registry of its own (not the process-wide `MetricsSystem`), so that
/// every server in a process (the tests run many) counts only its own requests.
///
/// Every label value comes from a short list the server knows (a route's pattern, a method the
/// router takes, a status code), never from what a client wrote, so the series stay few.
public final class Metrics: @unchecked Sendable {
  private let registry = PrometheusCollectorRegistry()
  private let factory: PrometheusMetricsFactory
  private let pushSizes: Recorder
  private let waitingPulls: Meter
  private let poolInUse: CoreMetrics.Gauge
  private let poolWaiting: CoreMetrics.Gauge
  private let poolMaximum: CoreMetrics.Gauge

  /// Seconds: a request is answered in milliseconds; a long-polling pull waits up to a minute.
  static let latencyBounds: [Double] = [
    0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60,
  ]
  /// Bytes of a push's body, from one edit to the largest push the server takes.
  static let pushBounds: [Double] = [1e3, 1e4, 1e5, 1e6, 4e6, 16e6, 64e6]

  static let requests = "syncups_http_requests_total"
  static let latency = "syncups_http_request_duration_seconds"

  public init() {
    var factory = PrometheusMetricsFactory(registry: registry)
    factory.durationHistogramBuckets[Self.latency] = Self.latencyBounds.map {
      .nanoseconds(Int64($0 * 1e9))
    }
    factory.valueHistogramBuckets["syncups_push_bytes"] = Self.pushBounds
    self.factory = factory
    pushSizes = Recorder(label: "syncups_push_bytes", aggregate: true, factory: factory)
    waitingPulls = Meter(label: "syncups_pulls_waiting", factory: factory)
    poolInUse = CoreMetrics.Gauge(label: "syncups_postgres_connections_in_use", factory: factory)
    poolWaiting = CoreMetrics.Gauge(label: "syncups_postgres_connections_waiting", factory: factory)
    poolMaximum = CoreMetrics.Gauge(label: "syncups_postgres_connections_max", factory: factory)
  }

  /// A request answered: `route` is its pattern (`/api/v1/meetings/{id}`), or `NotFound`.
  func request(route: String, method: String, status: Int, seconds: Double) {
    CoreMetrics.Counter(
      label: Self.requests,
      dimensions: [("route", route), ("method", method), ("status", String(status))],
      factory: factory
    ).increment()
    CoreMetrics.Timer(label: Self.latency, dimensions: [("route", route)], factory: factory)
      .recordSeconds(seconds)
  }

  /// A push's body arrived whole.
  func push(bytes: Int) {
    pushSizes.record(bytes)
  }

  /// `body` counted as a pull waiting for changes while it runs.
  func waitingPull(_ body: () async -> Void) async {
    waitingPulls.increment()
    await body()
    waitingPulls.decrement()
  }

  /// Everything, in the Prometheus text exposition format (version 0.0.4); the pool's gauges
  /// as they are now.
  public func render(pool: PoolUsage.Reading = PoolUsage.shared.reading) -> String {
    poolInUse.record(pool.inUse)
    poolWaiting.record(pool.waiting)
    poolMaximum.record(pool.maximum)
    return registry.emitToString()
  }
}
