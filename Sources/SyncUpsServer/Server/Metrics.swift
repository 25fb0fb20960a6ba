import Foundation

/// The server's counters, gauges and histograms, written out in Prometheus' text format by
/// `GET /metrics`. One lock guards them all: a request costs a dictionary update or two.
///
/// Every label value comes from a short list the server knows (a route's pattern, a method the
/// router takes, a status code), never from what a client wrote, so the series stay few.
public final class Metrics: @unchecked Sendable {
  private let lock = NSLock()
  private var requests: [RequestKey: Int] = [:]
  private var latency: [String: Histogram] = [:]
  private var pushSizes = Histogram(bounds: Metrics.pushBounds)
  private var waitingPulls = 0

  /// Seconds: a request is answered in milliseconds; a long-polling pull waits up to a minute.
  static let latencyBounds: [Double] = [
    0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60,
  ]
  /// Bytes of a push's body, from one edit to the largest push the server takes.
  static let pushBounds: [Double] = [1e3, 1e4, 1e5, 1e6, 4e6, 16e6, 64e6]

  public init() {}

  struct RequestKey: Hashable {
    var route: String
    var method: String
    var status: Int
  }

  /// A request answered: `route` is its pattern (`/api/v1/meetings/{id}`), or `NotFound`.
  func request(route: String, method: String, status: Int, seconds: Double) {
    lock.withLock {
      requests[RequestKey(route: route, method: method, status: status), default: 0] += 1
      latency[route, default: Histogram(bounds: Self.latencyBounds)].observe(seconds)
    }
  }

  /// A push's body arrived whole.
  func push(bytes: Int) {
    lock.withLock { pushSizes.observe(Double(bytes)) }
  }

  /// `body` counted as a pull waiting for changes while it runs.
  func waitingPull(_ body: () async -> Void) async {
    lock.withLock { waitingPulls += 1 }
    await body()
    lock.withLock { waitingPulls -= 1 }
  }

  /// Everything, in the Prometheus text exposition format (version 0.0.4).
  public func render(pool: PoolUsage.Reading = PoolUsage.shared.reading) -> String {
    let (requests, latency, pushSizes, waitingPulls) = lock.withLock {
      (self.requests, self.latency, self.pushSizes, self.waitingPulls)
    }
    var out = ""
    out.family("syncups_http_requests_total", "counter", "Requests answered, by route and status.")
    for (key, count) in requests.sorted(by: { "\($0.key)" < "\($1.key)" }) {
      let labels = #"route="\#(key.route.escaped)",method="\#(key.method)",status="\#(key.status)""#
      out.sample("syncups_http_requests_total", labels, Double(count))
    }
    out.family(
      "syncups_http_request_duration_seconds", "histogram",
      "Time from a request's head to its answer's head, by route.")
    for (route, histogram) in latency.sorted(by: { $0.key < $1.key }) {
      histogram.write(
        "syncups_http_request_duration_seconds", labels: #"route="\#(route.escaped)""#, to: &out)
    }
    out.family("syncups_push_bytes", "histogram", "Pushes received and the size of their bodies.")
    pushSizes.write("syncups_push_bytes", labels: "", to: &out)
    out.family("syncups_pulls_waiting", "gauge", "Pulls waiting for a change now (long polls).")
    out.sample("syncups_pulls_waiting", "", Double(waitingPulls))
    out.family(
      "syncups_postgres_connections_in_use", "gauge",
      "PostgreSQL connections lent to the server's work now (the change listener's not counted).")
    out.sample("syncups_postgres_connections_in_use", "", Double(pool.inUse))
    out.family(
      "syncups_postgres_connections_waiting", "gauge",
      "The server's work waiting for a PostgreSQL connection now.")
    out.sample("syncups_postgres_connections_waiting", "", Double(pool.waiting))
    out.family(
      "syncups_postgres_connections_max", "gauge", "The most connections the pool opens.")
    out.sample("syncups_postgres_connections_max", "", Double(pool.maximum))
    return out
  }
}

/// Counts of observations at or under each bound, their sum and their number.
struct Histogram {
  let bounds: [Double]
  private var counts: [Int]
  private var sum = 0.0
  private var count = 0

  init(bounds: [Double]) {
    self.bounds = bounds
    counts = Array(repeating: 0, count: bounds.count)
  }

  mutating func observe(_ value: Double) {
    if let index = bounds.firstIndex(where: { value <= $0 }) { counts[index] += 1 }
    sum += value
    count += 1
  }

  /// Its `_bucket` lines (cumulative, up to `+Inf`), `_sum` and `_count`.
  func write(_ name: String, labels: String, to out: inout String) {
    let prefix = labels.isEmpty ? "" : labels + ","
    var cumulative = 0
    for (bound, inBucket) in zip(bounds, counts) {
      cumulative += inBucket
      out.sample(name + "_bucket", prefix + #"le="\#(bound.prometheus)""#, Double(cumulative))
    }
    out.sample(name + "_bucket", prefix + #"le="+Inf""#, Double(count))
    out.sample(name + "_sum", labels, sum)
    out.sample(name + "_count", labels, Double(count))
  }
}

extension String {
  fileprivate mutating func family(_ name: String, _ type: String, _ help: String) {
    self += "# HELP \(name) \(help)\n# TYPE \(name) \(type)\n"
  }

  fileprivate mutating func sample(_ name: String, _ labels: String, _ value: Double) {
    self += labels.isEmpty ? name : "\(name){\(labels)}"
    self += " \(value.prometheus)\n"
  }

  /// A label value with `\`, `"` and line feeds escaped.
  fileprivate var escaped: String {
    replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
      .replacingOccurrences(of: "\n", with: "\\n")
  }
}

extension Double {
  /// Whole numbers without a fraction (`3`, not `3.0`), others as Swift writes them.
  fileprivate var prometheus: String {
    if self == self.rounded(), abs(self) < 1e15 { return String(Int64(self)) }
    return "\(self)"
  }
}
