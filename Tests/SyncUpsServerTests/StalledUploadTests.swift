import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import TestSupport
import Testing

@testable import SyncUpsServer

/// Uploads that stall (slow Wi-Fi, or someone holding them open on purpose) hold no
/// PostgreSQL connection while their bodies stream, so readers never wait for them; and one
/// address may have only so many uploads open at once.
@Suite(.enabled(if: TestPostgres.available, "needs PostgreSQL (.ci/postgres)"))
struct StalledUploadTests {
  /// Break 9: 60 uploads of 1 MB that send 1 KB each and stop: a reader is answered within 1 s.
  @Test func sixtyStalledUploadsLeaveAReaderAnsweredWithinOneSecond() async throws {
    let spool = try TemporaryDirectory()
    defer { spool.remove() }
    let server = try await TestServer.make(
      limits: Limits(uploadsPerAddress: 100, uploadSpool: spool.url))
    try await server.test(.live) { http, _ in
      let port = try #require(http.port)
      // The reader once before: its pool has a connection open (opening one is PostgreSQL's
      // time, slow when many tests connect at once, not what the uploads cost).
      #expect(
        try await http.send(.get, "/api/v1/sync-ups", token: server.readerToken).status == .ok)
      var stalled: [RawConnection] = []
      defer { for connection in stalled { connection.close() } }
      for upload in 0..<60 {
        let sha = String(repeating: String(format: "%02x", upload), count: 32)
        let head =
          "PUT /api/v1/audio/\(sha) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
          + "Authorization: Bearer \(server.writerToken)\r\nContent-Length: 1048576\r\n\r\n"
        stalled.append(
          try await RawConnection.open(
            port: port, sending: Data(head.utf8) + Data(repeating: 7, count: 1024)))
      }
      // Every upload has begun streaming (its spool file is there), none is finished.
      #expect(
        await waitUntil {
          let names = try? FileManager.default.contentsOfDirectory(atPath: spool.url.path)
          return names?.count == 60
        })
      let sent = ContinuousClock.now
      let read = try await http.send(.get, "/api/v1/sync-ups", token: server.readerToken)
      let took = ContinuousClock.now - sent
      print("60 stalled uploads: a reader answered \(read.status) in \(took)")
      #expect(read.status == .ok)
      #expect(took < .seconds(1))
      let holding = await server.sessions("state = 'idle in transaction'")
      #expect(holding == 0, "\(holding ?? -1) connections held in a transaction")
    }
  }

  /// One address may have `uploadsPerAddress` uploads in progress; one more is 429 in words.
  @Test func oneAddressHasOnlySoManyUploadsAtOnce() async throws {
    let server = try await TestServer.make(limits: Limits(uploadsPerAddress: 3))
    try await server.test(.live) { http, _ in
      let port = try #require(http.port)
      var stalled: [RawConnection] = []
      defer { for connection in stalled { connection.close() } }
      for upload in 0..<3 {
        let sha = String(repeating: String(format: "%02x", upload + 100), count: 32)
        let head =
          "PUT /api/v1/audio/\(sha) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
          + "Authorization: Bearer \(server.writerToken)\r\nContent-Length: 4096\r\n\r\n"
        stalled.append(
          try await RawConnection.open(
            port: port, sending: Data(head.utf8) + Data(repeating: 7, count: 10)))
      }
      var refused: TestResponse?
      // The three are in progress once the fourth is refused (they begin in their own time).
      _ = await waitUntil {
        // New bytes each time: bytes already stored are 200 at once, before any count.
        let bytes = Data(UUID().uuidString.utf8)
        let answer = try? await http.send(
          .put, "/api/v1/audio/\(bytes.sha256Hex)", token: server.writerToken, body: bytes)
        refused = answer
        return answer?.status == .tooManyRequests
      }
      #expect(refused?.status == .tooManyRequests)
      #expect(refused?.errorMessage?.contains("uploads from your address") == true)
    }
  }
}
