import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import PostgresNIO
import SyncUpsServer
import SyncUpsWire
import TestSupport

/// The private PostgreSQL of `.ci/postgres`: from `SYNCUPS_TEST_DATABASE_URL` (set by
/// `eval "$(.ci/postgres)"`), else started here by running `.ci/postgres`.
enum TestPostgres {
  static let url: Result<DatabaseURL, TestPostgresProblem> = {
    if let text = ProcessInfo.processInfo.environment["SYNCUPS_TEST_DATABASE_URL"], !text.isEmpty {
      return Result { try DatabaseURL(text) }.mapError { TestPostgresProblem(reason: "\($0)") }
    }
    let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(
        ".ci/postgres")
    let process = Process()
    process.executableURL = script
    let output = Pipe()
    process.standardOutput = output
    do {
      try process.run()
    } catch {
      return .failure(TestPostgresProblem(reason: "cannot run \(script.path): \(error)"))
    }
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let text = String(decoding: data, as: UTF8.self)
    guard process.terminationStatus == 0,
      let start = text.range(of: "SYNCUPS_TEST_DATABASE_URL='"),
      let end = text[start.upperBound...].firstIndex(of: "'")
    else {
      return .failure(
        TestPostgresProblem(reason: ".ci/postgres could not start PostgreSQL (see its message)"))
    }
    return Result { try DatabaseURL(String(text[start.upperBound..<end])) }
      .mapError { TestPostgresProblem(reason: "\($0)") }
  }()

  static var available: Bool { (try? url.get()) != nil }

  static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(".ci/postgres")
}

struct TestPostgresProblem: Error, CustomStringConvertible {
  var reason: String
  var description: String { "no PostgreSQL for the server's tests: \(reason)" }
}

/// A fresh database and server for one test, with a writer's and a reader's token.
struct TestServer: Sendable {
  let url: DatabaseURL
  let writerToken: String
  let readerToken: String
  let limits: Limits

  static func make(limits: Limits = Limits(), on cluster: DatabaseURL? = nil) async throws
    -> TestServer
  {
    let base = try cluster ?? TestPostgres.url.get()
    let name = TestDatabase.name()
    try await TeamStore.withStore(base) { store in
      try await store.client.query(PostgresQuery(unsafeSQL: "CREATE DATABASE \(name)"))
    }
    let url = base.with(database: String(name))
    let tokens = try await TeamStore.withStore(url) { store in
      try await store.migrate()
      _ = try await store.addPerson(name: "Ana", role: .writer)
      _ = try await store.addPerson(name: "Ben", role: .reader)
      return (
        try await store.createToken(for: "Ana").token, try await store.createToken(for: "ben").token
      )
    }
    return TestServer(
      url: url, writerToken: tokens.0, readerToken: tokens.1, limits: limits)
  }

  /// Runs `body` against the router (or a real socket with `.live`).
  func test<T: Sendable>(
    _ framework: TestingSetup = .router, throttle: SignInThrottle = SignInThrottle(),
    proxies: TrustedProxies = TrustedProxies(), transport: Transport = Transport(),
    webhooks: WebhookSettings = WebhookSettings(),
    _ body: @Sendable @escaping (any TestClientProtocol, TeamStore) async throws -> T
  ) async throws -> T {
    var logger = Logger(label: "syncups-server-test")
    // SYNCUPS_TEST_SERVER_LOG=info (or debug) says what the server does, for a failing test.
    logger.logLevel =
      ProcessInfo.processInfo.environment["SYNCUPS_TEST_SERVER_LOG"].flatMap(
        Logger.Level.init(rawValue:)) ?? .error
    let client = PostgresClientFactory.make(url, logger: logger)
    let server = TeamServer(
      client: client, limits: limits, throttle: throttle, proxies: proxies, webhooks: webhooks,
      logger: logger)
    let app = server.application(transport: transport, logger: logger)
    return try await app.test(framework) { http in
      try await body(http, server.store)
    }
  }

  /// The database as `--database` and `$SYNCUPS_DATABASE_URL` take it (a Unix socket).
  var urlText: String {
    "postgres://\(url.username)@localhost/\(url.database)?host=\(url.socketDirectory ?? "")"
  }

  func store<T: Sendable>(_ body: @Sendable (TeamStore) async throws -> T) async throws -> T {
    try await TeamStore.withStore(url, body)
  }
}

extension TestClientProtocol {
  /// A request with a token (or none) and an optional JSON or raw body.
  func send(
    _ method: HTTPRequest.Method, _ uri: String, token: String?, headers: HTTPFields = [:],
    body: Data? = nil
  ) async throws -> TestResponse {
    var headers = headers
    if let token { headers[.authorization] = "Bearer \(token)" }
    return try await executeRequest(
      uri: uri, method: method, headers: headers, body: body.map { ByteBuffer(bytes: $0) })
  }

  func push(_ push: Push, token: String?) async throws -> TestResponse {
    try await send(.post, "/api/v1/sync/push", token: token, body: WireJSON.encoder().encode(push))
  }
}

extension TestResponse {
  func decode<T: Decodable>(_ type: T.Type) throws -> T {
    try WireJSON.decoder().decode(T.self, from: Data(body.readableBytesView))
  }

  /// The `error` of a JSON error body (nil when the body is not one).
  var errorMessage: String? { try? decode(ErrorBody.self).error }

  var text: String { String(buffer: body) }
}

/// Documents to push.
enum Fixture {
  static let device = "a1b2c3d4"

  static func clock(_ milliseconds: Int64, device: String = device) -> HybridClock {
    HybridClock(milliseconds: milliseconds, device: device)
  }

  static func syncUp(_ id: UUID = UUID(), title: String = "Morning Sync", at time: Int64 = 1)
    -> SyncUpDocument
  {
    let now = clock(time)
    return SyncUpDocument(
      id: id, title: Stamped(title, at: now), theme: Stamped("teal", at: now),
      duration: Stamped(300, at: now),
      attendees: Stamped(
        [.init(id: UUID(), name: "Ana"), .init(id: UUID(), name: "Ben")], at: now),
      vocabulary: Stamped(["staging server"], at: now), deleted: Stamped(false, at: now))
  }

  /// A short stand-up whose digest has an item of each kind: Ana did and will do something,
  /// Ben waits for Ana (segments 2 and 3, at 5 s and 10 s).
  static let standUp: [(String, String)] = [
    ("Ana", "good morning everyone"),
    ("Ana", "yesterday i fixed the staging server today i will write the runbook"),
    ("Ben", "i am waiting for ana to review my pull request"),
  ]

  static func meeting(
    _ id: UUID = UUID(), in syncUp: UUID, said: [(String, String)],
    audio: MeetingDocument.Audio? = nil,
    date: Date = Date(timeIntervalSince1970: 1_764_144_000), at time: Int64 = 2
  ) -> MeetingDocument {
    var start = 0.0
    let segments = said.map { speaker, text -> MeetingDocument.Segment in
      let words = text.split(separator: " ").enumerated().map { index, word in
        MeetingDocument.Word(
          text: String(word), start: start + Double(index) * 0.5,
          end: start + Double(index) * 0.5 + 0.4)
      }
      defer { start += 5 }
      return .init(speaker: speaker, start: start, end: start + 4, text: text, words: words)
    }
    return MeetingDocument(
      id: id, syncUpID: syncUp, date: date, length: start, segments: segments, audio: audio,
      clock: clock(time))
  }
}
