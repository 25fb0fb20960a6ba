import Foundation
import PostgresNIO
import SyncUpsServer
import SyncUpsWire
import TestSupport
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The built `syncups-server serve`, as a child process on a port of its own.
final class ServerProcess: Sendable {
  let child: ChildProcess
  let port: Int

  private init(child: ChildProcess, port: Int) {
    self.child = child
    self.port = port
  }

  /// Starts it on a free port (with `options` of `serve`) and returns once it says where it
  /// listens, over HTTP or HTTPS.
  static func start(_ server: TestServer, _ options: [String] = []) async throws -> ServerProcess {
    var environment = ProcessInfo.processInfo.environment
    environment["SYNCUPS_DATABASE_URL"] = server.urlText
    let child = try ChildProcess(
      serverBinary, ["serve", "--port", "0"] + options,
      environment: environment)
    let prefix = "://127.0.0.1:"
    _ = await waitUntil { child.stdout.contains(prefix) || !child.isRunning }
    guard let line = child.stdout.split(separator: "\n").first(where: { $0.contains(prefix) }),
      let port = Int(line.split(separator: ":").last ?? "")
    else {
      child.signal(SIGKILL)
      throw TestPostgresProblem(reason: "syncups-server did not start: \(child.stderr)")
    }
    return ServerProcess(child: child, port: port)
  }

  /// SIGKILL, and its end awaited.
  func kill() async {
    child.signal(SIGKILL)
    await child.waitUntilExit()
  }

  /// A request through URLSession, as a laptop sends it.
  func send(
    _ method: String, _ path: String, token: String, headers: [String: String] = [:],
    body: Data? = nil
  ) async throws -> (status: Int, body: Data) {
    var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)\(path)")!)
    request.httpMethod = method
    request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
    request.setValue("application/json", forHTTPHeaderField: "Content-Type")
    for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
    request.httpBody = body
    request.timeoutInterval = 60
    // A session of its own for each request: several suites send at once, and a request held up
    // in one session (a restart, a turn) must never hold up another suite's.
    let session = URLSession(configuration: .ephemeral)
    defer { session.finishTasksAndInvalidate() }
    let (data, response) = try await session.data(for: request)
    return ((response as? HTTPURLResponse)?.statusCode ?? 0, data)
  }

  /// The head of a push of `length` bytes, for a request written by hand.
  static func pushHead(length: Int, token: String) -> Data {
    Data(
      ("POST /api/v1/sync/push HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(token)\r\n"
        + "Content-Type: application/json\r\nContent-Length: \(length)\r\n\r\n").utf8)
  }
}

/// A TCP connection to 127.0.0.1 written by hand, so a test can stop in the middle of a request
/// or never read its answer. Connecting and writing run on a thread of their own.
struct RawConnection: Sendable {
  let descriptor: Int32

  static func open(port: Int, sending bytes: Data) async throws -> RawConnection {
    try await withCheckedThrowingContinuation { continuation in
      Thread.detachNewThread {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
          $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
          }
        }
        guard descriptor >= 0, connected == 0 else {
          _ = Glibc.close(descriptor)
          continuation.resume(
            throwing: TestPostgresProblem(reason: "cannot connect to port \(port)"))
          return
        }
        var sent = 0
        bytes.withUnsafeBytes { raw in
          while sent < raw.count {
            let count = send(
              descriptor, raw.baseAddress! + sent, raw.count - sent, Int32(MSG_NOSIGNAL))
            if count <= 0 { break }
            sent += count
          }
        }
        continuation.resume(returning: RawConnection(descriptor: descriptor))
      }
    }
  }

  func close() { _ = Glibc.close(descriptor) }
}

/// The servers a test started, to kill at its end.
final class Started: @unchecked Sendable {
  private let lock = NSLock()
  private var servers: [ServerProcess] = []

  func add(_ server: ServerProcess) -> ServerProcess {
    lock.withLock { servers.append(server) }
    return server
  }

  /// What the servers wrote on stderr, for a failing test's message.
  var logs: String { lock.withLock { servers.map(\.child.stderr).joined(separator: "\n") } }

  func killAll() {
    for server in lock.withLock({ servers }) where server.child.isRunning {
      server.child.signal(SIGKILL)
    }
  }
}

extension TestServer {
  func count(_ table: String) async throws -> Int {
    try await store { store in
      var count = 0
      for try await value in try await store.client.query(
        PostgresQuery(unsafeSQL: "SELECT count(*) FROM \(table)")
      ).decode(Int.self) {
        count = value
      }
      return count
    }
  }
}

@Suite(
  .enabled(
    if: TestPostgres.available,
    "skipped: no PostgreSQL for the server's tests (.ci/postgres could not start one)"))
struct ServerProcessTests {
  /// The server SIGKILLed while a push arrives, and again after a push committed but before the
  /// laptop read the answer: each time the laptop resends the same bytes, and one copy is kept.
  @Test func aServerKilledMidPushThenARetrySavesOnce() async throws {
    let server = try await TestServer.make()
    let syncUp = Fixture.syncUp()
    let said = (0..<300).map { ("Ana", "part \($0) of a long stand-up about the staging server") }
    let first = try WireJSON.encoder().encode(
      Push(
        device: UUID(), pushID: UUID(), syncUps: [syncUp],
        meetings: [Fixture.meeting(in: syncUp.id, said: said)]))

    // Every server this test starts is killed at its end, whatever happens.
    let started = Started()
    defer { started.killAll() }

    // 1. Killed while the body is still arriving: nothing is saved.
    var running = try await started.add(ServerProcess.start(server))
    let half = try await RawConnection.open(
      port: running.port,
      sending: ServerProcess.pushHead(length: first.count, token: server.writerToken)
        + first.prefix(first.count / 2))
    await running.kill()
    half.close()
    #expect(try await server.count("meeting") == 0)
    #expect(try await server.count("push_receipt") == 0)

    running = try await started.add(ServerProcess.start(server))
    let retried = try await running.send(
      "POST", "/api/v1/sync/push", token: server.writerToken, body: first)
    #expect(retried.status == 200, "\(String(decoding: retried.body, as: UTF8.self))")
    #expect(try await server.count("meeting") == 1)
    #expect(try await server.count("segment") == 300)

    // 2. Killed after the push committed, before the laptop read the answer.
    let pushID = UUID()
    let second = try WireJSON.encoder().encode(
      Push(
        device: UUID(), pushID: pushID,
        meetings: [Fixture.meeting(in: syncUp.id, said: [("Ben", "after the crash")], at: 9)]))
    let unanswered = try await RawConnection.open(
      port: running.port,
      sending: ServerProcess.pushHead(length: second.count, token: server.writerToken) + second)
    var committed = false
    let deadline = ContinuousClock.now + safetyNet
    while !committed && ContinuousClock.now < deadline {
      committed = try await server.count("push_receipt") == 2
      if !committed { try await Task.sleep(for: .milliseconds(20)) }
    }
    try #require(committed)
    await running.kill()
    unanswered.close()

    running = try await started.add(ServerProcess.start(server))
    let again = try await running.send(
      "POST", "/api/v1/sync/push", token: server.writerToken, body: second)
    #expect(again.status == 200)
    let receipt = try WireJSON.decoder().decode(PushReceipt.self, from: again.body)
    #expect(receipt.pushID == pushID && receipt.meetings == 1)
    #expect(try await server.count("meeting") == 2)
    #expect(try await server.count("segment") == 301)
    #expect(try await server.count("push_receipt") == 2)
    await running.kill()
  }

  /// `serve` says where it listens, answers a laptop's request through a real socket, and a
  /// wrong token there is a 401 in words.
  @Test func theServerAnswersOnARealPort() async throws {
    let server = try await TestServer.make()
    let started = Started()
    defer { started.killAll() }
    let running = try await started.add(ServerProcess.start(server))
    let list = try await running.send("GET", "/api/v1/sync-ups", token: server.readerToken)
    #expect(list.status == 200 && String(decoding: list.body, as: UTF8.self) == "[]")
    let wrong = try await running.send("GET", "/api/v1/sync-ups", token: "sut_nothing")
    #expect(wrong.status == 401)
    #expect(
      (try? WireJSON.decoder().decode(ErrorBody.self, from: wrong.body))?.error.contains("token")
        == true)
    await running.kill()
  }
}
