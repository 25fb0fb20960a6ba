import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import SyncUpsServer
import TestSupport
import Testing

/// What a connection written by hand read before it ended.
struct Received: Sendable {
  var bytes = Data()
  /// The server closed the connection (end of stream, or reset).
  var closed = false
  var text: String { String(decoding: bytes, as: UTF8.self) }
}

extension RawConnection {
  /// The longest a read here waits for the server: a safety net far above the short timeouts the
  /// tests give the server, so that a server that never closes fails the test instead of
  /// hanging it.
  static let readSafetyNet = 60

  /// Reads on a thread of its own until `enough` says so, the server closes the connection, or
  /// nothing arrives for `readSafetyNet` seconds.
  func receive(until enough: @escaping @Sendable (Data) -> Bool = { _ in false }) async
    -> Received
  {
    await withCheckedContinuation { continuation in
      Thread.detachNewThread {
        var limit = timeval(tv_sec: RawConnection.readSafetyNet, tv_usec: 0)
        setsockopt(
          descriptor, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        var received = Received()
        var chunk = [UInt8](repeating: 0, count: 65536)
        while !enough(received.bytes) {
          let count = recv(descriptor, &chunk, chunk.count, 0)
          if count > 0 {
            received.bytes.append(contentsOf: chunk[0..<count])
          } else {
            // 0: the end of the stream; ECONNRESET: closed before our bytes were read; a
            // timeout (EAGAIN) leaves `closed` false.
            received.closed = count == 0 || errno == ECONNRESET
            break
          }
        }
        continuation.resume(returning: received)
      }
    }
  }

  /// Writes more bytes (false when the server has closed the connection).
  func write(_ bytes: Data) async -> Bool {
    await withCheckedContinuation { continuation in
      Thread.detachNewThread {
        let sent = bytes.withUnsafeBytes { raw in
          Glibc.send(descriptor, raw.baseAddress!, raw.count, Int32(MSG_NOSIGNAL))
        }
        continuation.resume(returning: sent == bytes.count)
      }
    }
  }

  /// A whole `GET` of the reader's list of sync-ups, and its answer read to the end of its body
  /// (the connection stays open: HTTP/1.1 keeps it alive).
  func listSyncUps(token: String) async -> Received {
    _ = await write(RawConnection.listHead(token: token))
    return await receive(until: RawConnection.isWholeAnswer)
  }

  /// Whether `bytes` hold an answer's head and as much body as its `Content-Length` says.
  @Sendable static func isWholeAnswer(_ bytes: Data) -> Bool {
    guard let end = bytes.range(of: Data("\r\n\r\n".utf8)) else { return false }
    let head = String(decoding: bytes[..<end.lowerBound], as: UTF8.self).lowercased()
    let length = head.split(separator: "\r\n").first { $0.hasPrefix("content-length:") }
      .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) }
    return bytes.count - end.upperBound >= (length ?? 0)
  }

  static func listHead(token: String) -> Data {
    Data(
      ("GET /api/v1/sync-ups HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(token)\r\n\r\n")
        .utf8)
  }
}

/// The server's connections under attack: requests whose head never ends or comes a byte at a
/// time (slowloris), connections left idle, and more connections than it may hold. Against the
/// built `syncups-server`, with its timeouts set short.
@Suite(
  .enabled(
    if: TestPostgres.available,
    "skipped: no PostgreSQL for the server's tests (.ci/postgres could not start one)"))
struct ConnectionLimitTests {
  @Test func aRequestWhoseHeadDoesNotArriveWholeIsClosedAfterTheHeaderTimeout() async throws {
    let server = try await TestServer.make()
    let started = Started()
    defer { started.killAll() }
    // The idle timeout far longer than the safety net: only the header timeout can close these.
    let running = try await started.add(
      ServerProcess.start(server, ["--header-timeout", "1", "--idle-timeout", "3600"]))
    let head = RawConnection.listHead(token: server.readerToken)
    let begun = ContinuousClock.now

    // Half a head, then nothing.
    let half = try await RawConnection.open(port: running.port, sending: head.prefix(30))
    defer { half.close() }
    // A head a byte at a time, each byte well within any idle timeout (slowloris).
    let slow = try await RawConnection.open(port: running.port, sending: head.prefix(1))
    defer { slow.close() }
    let trickle = Task {
      for byte in head.dropFirst().dropLast() {
        try await Task.sleep(for: .milliseconds(100))
        guard await slow.write(Data([byte])) else { return }
      }
    }
    defer { trickle.cancel() }

    let halfRead = await half.receive()
    let slowRead = await slow.receive()
    #expect(halfRead.closed && halfRead.bytes.isEmpty, "\(halfRead.text)")
    #expect(slowRead.closed && slowRead.bytes.isEmpty, "\(slowRead.text)")
    #expect(ContinuousClock.now - begun >= .seconds(1))
    // A whole request is answered as before.
    let whole = try await RawConnection.open(port: running.port, sending: Data())
    defer { whole.close() }
    #expect(await whole.listSyncUps(token: server.readerToken).text.hasPrefix("HTTP/1.1 200"))
  }

  @Test func aConnectionWithNoRequestIsClosedAfterTheIdleTimeout() async throws {
    let server = try await TestServer.make()
    let started = Started()
    defer { started.killAll() }
    let running = try await started.add(
      ServerProcess.start(server, ["--idle-timeout", "1", "--header-timeout", "3600"]))

    // Opened and never used.
    let unused = try await RawConnection.open(port: running.port, sending: Data())
    defer { unused.close() }
    // Used for one request, then left open (HTTP/1.1 keeps it alive).
    let used = try await RawConnection.open(port: running.port, sending: Data())
    defer { used.close() }
    let answer = await used.listSyncUps(token: server.readerToken)
    #expect(answer.text.hasPrefix("HTTP/1.1 200") && answer.text.hasSuffix("[]"), "\(answer.text)")

    let unusedRead = await unused.receive()
    let usedRead = await used.receive()
    #expect(unusedRead.closed && unusedRead.bytes.isEmpty, "\(unusedRead.text)")
    #expect(usedRead.closed && usedRead.bytes.isEmpty, "\(usedRead.text)")
  }

  @Test func pastTheConnectionBoundANewConnectionIsClosedUntilOthersClose() async throws {
    let server = try await TestServer.make()
    let started = Started()
    defer { started.killAll() }
    let running = try await started.add(ServerProcess.start(server, ["--max-connections", "3"]))

    // Three connections, each answered once (so the server holds them), kept open.
    var held: [RawConnection] = []
    defer {
      for connection in held { connection.close() }
    }
    for _ in 0..<3 {
      let connection = try await RawConnection.open(port: running.port, sending: Data())
      held.append(connection)
      let answer = await connection.listSyncUps(token: server.readerToken)
      #expect(answer.text.hasPrefix("HTTP/1.1 200"), "\(answer.text)")
    }

    // A fourth is closed without an answer.
    let extra = try await RawConnection.open(
      port: running.port, sending: RawConnection.listHead(token: server.readerToken))
    defer { extra.close() }
    let refused = await extra.receive()
    #expect(refused.closed && refused.bytes.isEmpty, "\(refused.text)")
    // The log line may reach its pipe after the connection is closed: wait for it.
    let said = await waitUntil { running.child.stderr.contains("--max-connections") }
    #expect(said, "\(running.child.stderr)")

    // Once the three close, requests are answered again.
    for connection in held { connection.close() }
    held = []
    let served = await waitUntil(timeout: .seconds(60)) {
      let status = try? await running.send("GET", "/api/v1/sync-ups", token: server.readerToken)
        .status
      return status == 200
    }
    #expect(served)
  }

  /// One address may hold `maxConnectionsPerAddress` connections; past that its new ones are
  /// closed without an answer until one of its others closes.
  @Test func oneAddressHasOnlySoManyConnectionsOpen() async throws {
    let server = try await TestServer.make()
    let token = server.readerToken
    try await server.test(.live, transport: Transport(maxConnectionsPerAddress: 3)) { http, _ in
      let port = try #require(http.port)
      // The test's own client holds one (answered, so it is open).
      #expect(try await http.send(.get, "/api/v1/sync-ups", token: token).status == .ok)
      var held: [RawConnection] = []
      defer {
        for connection in held { connection.close() }
      }
      for _ in 0..<2 {
        let connection = try await RawConnection.open(port: port, sending: Data())
        held.append(connection)
        let answer = await connection.listSyncUps(token: token)
        #expect(answer.text.hasPrefix("HTTP/1.1 200"), "\(answer.text)")
      }
      let extra = try await RawConnection.open(
        port: port, sending: RawConnection.listHead(token: token))
      defer { extra.close() }
      let refused = await extra.receive()
      #expect(refused.closed && refused.bytes.isEmpty, "a fourth was answered: \(refused.text)")
      // Once one of the three closes, the address may open another.
      held.removeFirst().close()
      let served = await waitUntil(timeout: .seconds(60)) {
        guard let again = try? await RawConnection.open(port: port, sending: Data()) else {
          return false
        }
        defer { again.close() }
        return await again.listSyncUps(token: token).text.hasPrefix("HTTP/1.1 200")
      }
      #expect(served, "no connection was answered after one of the three closed")
    }
  }
}
