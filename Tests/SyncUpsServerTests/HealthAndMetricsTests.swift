import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import SyncUpsWire
import TestSupport
import Testing

@testable import SyncUpsServer

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// `/healthz` says whether PostgreSQL answers; `/metrics` counts requests by route, pushes and
/// waiting pulls in Prometheus' format, only for the addresses allowed; `--log-format json`.
@Suite(
  .enabled(
    if: TestPostgres.available,
    "skipped: no PostgreSQL for the server's tests (.ci/postgres could not start one)"))
struct HealthAndMetricsTests {
  @Test("/healthz is 200 while PostgreSQL answers, 503 in words within seconds once it is gone")
  func healthFollowsPostgreSQL() async throws {
    guard FileManager.default.isExecutableFile(atPath: PrivateCluster.bin + "/pg_ctl") else {
      return
    }
    let cluster = try await PrivateCluster.start()
    let started = Started()
    defer { started.killAll() }
    do {
      let server = try await TestServer.make(on: try cluster.url)
      let running = try await started.add(ServerProcess.start(server))
      let up = try await running.get("/healthz")
      #expect(up.status == 200 && up.body.contains("PostgreSQL answers"), "\(up)")

      try await cluster.crash()
      let asked = ContinuousClock.now
      let down = try await running.get("/healthz")
      #expect(down.status == 503 && down.body.contains("PostgreSQL does not answer"), "\(down)")
      #expect(ContinuousClock.now - asked < .seconds(10))

      try await cluster.start()
      #expect(await waitUntil { (try? await running.get("/healthz").status) == 200 })
    } catch {
      print("server's log:", started.logs)
      await cluster.remove()
      throw error
    }
    await cluster.remove()
  }

  @Test("/metrics counts requests by route pattern and status, and pushes, in Prometheus' format")
  func metricsCountWhatHappened() async throws {
    let server = try await TestServer.make()
    try await server.withMetrics(from: ["127.0.0.1"]) { http in
      for _ in 1...3 { _ = try await http.send(.get, "/api/v1/me", token: server.readerToken) }
      _ = try await http.send(.get, "/api/v1/me", token: "sut_wrong")
      let id = UUID()
      _ = try await http.send(.get, "/api/v1/meetings/\(id)", token: server.readerToken)
      _ = try await http.send(.get, "/no/such/page/\(id)", token: nil)
      let syncUp = Fixture.syncUp()
      let push = Push(device: UUID(), pushID: UUID(), syncUps: [syncUp], meetings: [])
      let bytes = try WireJSON.encoder().encode(push).count
      #expect(try await http.push(push, token: server.writerToken).status == .ok)

      let scrape = try await http.send(.get, "/metrics", token: nil)
      #expect(scrape.status == .ok)
      #expect(scrape.headers[.contentType]?.hasPrefix("text/plain; version=0.0.4") == true)
      let text = scrape.text
      let bad = text.split(separator: "\n").filter { !Prometheus.isValid($0) }
      #expect(bad.isEmpty, "lines not in the text format: \(bad)")
      let me = #"syncups_http_requests_total{route="/api/v1/me",method="GET",status="#
      #expect(Prometheus.value(text, me + #""200"}"#) == 3)
      #expect(Prometheus.value(text, me + #""401"}"#) == 1)
      #expect(
        Prometheus.value(
          text, #"syncups_http_request_duration_seconds_count{route="/api/v1/me"}"#) == 4)
      // Routes by their pattern: the identifiers asked for never become labels.
      #expect(!text.contains(id.uuidString) && !text.contains(id.uuidString.lowercased()))
      #expect(text.contains(#"route="/api/v1/meetings/{id}",method="GET",status="404"}"#))
      #expect(text.contains(#"route="NotFound",method="GET",status="404"}"#))
      #expect(Prometheus.value(text, "syncups_push_bytes_count") == 1)
      #expect(Prometheus.value(text, "syncups_push_bytes_sum") == Double(bytes))
      for gauge in [
        "syncups_pulls_waiting", "syncups_postgres_connections_in_use",
        "syncups_postgres_connections_waiting", "syncups_postgres_connections_max",
      ] {
        #expect(Prometheus.value(text, gauge) != nil, "no \(gauge)")
      }
    }
  }

  @Test("a long-polling pull counts as waiting until a push wakes it")
  func waitingPullsAreAGauge() async throws {
    let server = try await TestServer.make()
    try await server.withMetrics(from: ["127.0.0.1"]) { http async throws in
      #expect(try await Self.waitingPulls(http) == 0)
      // On a connection of its own (the test client's one waits for each answer in turn).
      let port = try #require(http.port)
      let pull = Task { () async throws -> Int in
        var request = URLRequest(
          url: URL(string: "http://127.0.0.1:\(port)/api/v1/sync/changes?since=0&wait=30")!)
        request.setValue("Bearer \(server.readerToken)", forHTTPHeaderField: "Authorization")
        let session = URLSession(configuration: .ephemeral)
        defer { session.finishTasksAndInvalidate() }
        let (_, response) = try await session.data(for: request)
        return (response as? HTTPURLResponse)?.statusCode ?? 0
      }
      #expect(try await waitUntil { try await Self.waitingPulls(http) == 1 })
      let push = Push(device: UUID(), pushID: UUID(), syncUps: [Fixture.syncUp()], meetings: [])
      #expect(try await http.push(push, token: server.writerToken).status == .ok)
      #expect(try await pull.value == 200)
      #expect(try await waitUntil { try await Self.waitingPulls(http) == 0 })
    }
  }

  static func waitingPulls(_ http: any TestClientProtocol) async throws -> Double? {
    let text = try await http.send(.get, "/metrics", token: nil).text
    return Prometheus.value(text, "syncups_pulls_waiting")
  }

  @Test("/metrics is refused in JSON to addresses not allowed, a proxy's client included")
  func metricsOnlyForAllowedAddresses() async throws {
    let server = try await TestServer.make()
    try await server.withMetrics(from: ["10.0.0.0/8"], proxies: ["127.0.0.1"]) { http in
      let direct = try await http.send(.get, "/metrics", token: nil)
      #expect(direct.status == .forbidden)
      #expect(direct.errorMessage?.contains("--metrics-from") == true, "\(direct.text)")
      let allowed = try await http.send(
        .get, "/metrics", token: nil, headers: [.forwardedFor: "10.1.2.3"])
      #expect(allowed.status == .ok)
      let outside = try await http.send(
        .get, "/metrics", token: nil, headers: [.forwardedFor: "192.0.2.7"])
      #expect(outside.status == .forbidden)
    }
    // Without a trusted proxy, X-Forwarded-For is the client's own claim.
    try await server.withMetrics(from: ["10.0.0.0/8"]) { http in
      let claimed = try await http.send(
        .get, "/metrics", token: nil, headers: [.forwardedFor: "10.1.2.3"])
      #expect(claimed.status == .forbidden)
    }
  }

  @Test("addresses and networks match as CIDR says, IPv4 mapped into IPv6 as IPv4")
  func addressRanges() throws {
    let ranges = try AddressRanges(["10.0.0.0/8", "192.168.1.7", "fd00::/8"])
    #expect(ranges.contains("10.200.3.4") && ranges.contains("::ffff:10.1.1.1"))
    #expect(!ranges.contains("11.0.0.1") && !ranges.contains("192.168.1.8"))
    #expect(
      ranges.contains("192.168.1.7") && ranges.contains("fd12::1") && !ranges.contains("fe80::1"))
    #expect(!ranges.contains(nil) && !ranges.contains("not an address"))
    #expect(AddressRanges.loopback.contains("127.0.0.1") && AddressRanges.loopback.contains("::1"))
    #expect(!AddressRanges.loopback.contains("192.0.2.1"))
    #expect(try AddressRanges.list(" 10.0.0.0/8, ,::1 ").contains("::1"))
    for wrong in ["10.0.0.0/33", "example.org", "10.0.0.0/", "::1/129"] {
      #expect(throws: ServerError.self) { try AddressRanges([wrong]) }
    }
  }

  @Test("serve --log-format json writes one JSON object a line on stderr")
  func jsonLogLines() async throws {
    let server = try await TestServer.make()
    let started = Started()
    defer { started.killAll() }
    let running = try await started.add(ServerProcess.start(server, ["--log-format", "json"]))
    _ = try await running.get("/healthz")
    await running.kill()
    let lines = running.child.stderr.split(separator: "\n")
    #expect(!lines.isEmpty)
    for line in lines {
      let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
      #expect(object?["time"] is String && object?["level"] is String, "\(line)")
      #expect(object?["message"] is String, "\(line)")
    }
    let wrong = try await runServer(["serve", "--log-format", "xml"], database: server.urlText)
    #expect(
      wrong.status != 0 && wrong.stderr.contains("--log-format takes text or json, not 'xml'"))
    let badFrom = try await runServer(
      ["serve", "--metrics-from", "everyone"], database: server.urlText)
    #expect(badFrom.status != 0 && badFrom.stderr.contains("not 'everyone'"))
    // The same settings from the environment.
    for (name, value) in [("SYNCUPS_LOG_FORMAT", "xml"), ("SYNCUPS_METRICS_FROM", "::1,everyone")] {
      let run = try await runProgram(
        serverBinary, ["serve", "--port", "0"],
        environment: ["SYNCUPS_DATABASE_URL": server.urlText, name: value])
      #expect(run.status != 0 && run.stderr.contains("$\(name)"), "\(run.stderr)")
    }
  }
}

extension TestServer {
  /// A live server whose `/metrics` is read from `from`, behind `proxies`.
  func withMetrics(
    from: [String], proxies: [String] = [],
    _ body: @Sendable @escaping (any TestClientProtocol) async throws -> Void
  ) async throws {
    var logger = Logger(label: "syncups-server-test")
    logger.logLevel = .error
    let server = TeamServer(
      client: PostgresClientFactory.make(url, logger: logger), limits: limits,
      proxies: try TrustedProxies(proxies), metricsFrom: try AddressRanges(from), logger: logger)
    try await server.application(logger: logger).test(.live) { try await body($0) }
  }
}

extension ServerProcess {
  /// A GET with no token.
  func get(_ path: String) async throws -> (status: Int, body: String) {
    var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)\(path)")!)
    request.timeoutInterval = 60
    let session = URLSession(configuration: .ephemeral)
    defer { session.finishTasksAndInvalidate() }
    let (data, response) = try await session.data(for: request)
    return ((response as? HTTPURLResponse)?.statusCode ?? 0, String(decoding: data, as: UTF8.self))
  }
}

/// Reading Prometheus' text format.
enum Prometheus {
  /// A comment, or `name{label="value",…} number`.
  static func isValid(_ line: Substring) -> Bool {
    if line.hasPrefix("# ") { return true }
    let pattern =
      #"^[a-zA-Z_:][a-zA-Z0-9_:]*(\{[a-zA-Z_][a-zA-Z0-9_]*="([^"\\]|\\.)*"(,[a-zA-Z_][a-zA-Z0-9_]*="([^"\\]|\\.)*")*\})? (-?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?|[-+]Inf|NaN)$"#
    return line.range(of: pattern, options: .regularExpression) != nil
  }

  /// The value of one series (its name and labels exactly as written), nil when absent.
  static func value(_ text: String, _ series: String) -> Double? {
    text.split(separator: "\n").first { $0.hasPrefix(series + " ") }
      .flatMap { Double($0.dropFirst(series.count + 1)) }
  }
}
