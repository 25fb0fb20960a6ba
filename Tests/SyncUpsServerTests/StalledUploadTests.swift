import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import TestSupport
import Testing

@testable import SyncUpsServer

/// Uploads that stall (slow Wi-Fi, or someone holding them open on purpose) hold no
/// PostgreSQL connection while their bodies stream, so readers never wait for them; one
/// address may have only so many uploads in progress at once; and a body that stops sending is
/// closed after the body timeout.
///
/// Each test spools into a folder of its own: an upload in progress is a file there (made once
/// the upload has its place, removed when it ends), which is the event the tests wait for.
@Suite(.enabled(if: TestPostgres.available, "needs PostgreSQL (.ci/postgres)"))
struct StalledUploadTests {
  /// The head of an upload of `length` bytes under `sha`, written by hand.
  static func head(_ sha: String, length: Int, token: String) -> Data {
    Data(
      ("PUT /api/v1/audio/\(sha) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        + "Authorization: Bearer \(token)\r\nContent-Length: \(length)\r\n\r\n").utf8)
  }

  /// A name no upload has: `number` as 32 hex pairs.
  static func sha(_ number: Int) -> String {
    String(repeating: String(format: "%02x", number), count: 32)
  }

  /// The uploads in progress: the files in `folder`.
  static func spooling(in folder: URL) -> Int {
    spoolFiles(in: folder).count
  }

  /// The regular files in a spool folder (an upload's or a push's body); the audio cache's
  /// folder beside them is not one.
  static func spoolFiles(in folder: URL) -> [String] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
    return names.filter { name in
      var isFolder: ObjCBool = false
      let path = folder.appendingPathComponent(name).path
      return FileManager.default.fileExists(atPath: path, isDirectory: &isFolder)
        && !isFolder.boolValue
    }
  }

  /// Waits until `count` uploads are in progress (false past a safety net far above a normal
  /// run, which takes milliseconds).
  static func waitForSpooling(_ count: Int, in folder: URL) async -> Bool {
    await waitUntil(timeout: .seconds(120)) { spooling(in: folder) == count }
  }

  /// The median time of three readers' requests in turn (each must be answered 200).
  static func medianReader(_ http: some TestClientProtocol, token: String) async throws
    -> Duration
  {
    var times: [Duration] = []
    for _ in 0..<3 {
      let sent = ContinuousClock.now
      let read = try await http.send(.get, "/api/v1/sync-ups", token: token)
      times.append(ContinuousClock.now - sent)
      #expect(read.status == .ok)
    }
    return times.sorted()[1]
  }

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
      // What a reader costs on this machine just now (seconds when many suites run at once on
      // two cores): the median of three, as is the reader's with the uploads stalled, which
      // may add less than a second to it.
      let usual = try await Self.medianReader(http, token: server.readerToken)
      print("before the stalled uploads: a reader answered in \(usual) (median of 3)")
      var stalled: [RawConnection] = []
      defer {
        for connection in stalled { connection.close() }
      }
      for upload in 0..<60 {
        stalled.append(
          try await RawConnection.open(
            port: port,
            sending: Self.head(Self.sha(upload), length: 1_048_576, token: server.writerToken)
              + Data(repeating: 7, count: 1024)))
      }
      // Every upload has begun streaming (its spool file is there), none is finished.
      let began = await Self.waitForSpooling(60, in: spool.url)
      try #require(began, "\(Self.spooling(in: spool.url)) of the 60 stalled uploads are spooling")
      let took = try await Self.medianReader(http, token: server.readerToken)
      print("60 stalled uploads: a reader answered in \(took) (median of 3)")
      #expect(took < .seconds(1) + usual, "usually \(usual)")
      #expect(Self.spooling(in: spool.url) == 60, "a stalled upload ended before its client did")
      let holding = await server.sessions("state = 'idle in transaction'")
      #expect(holding == 0, "\(holding ?? -1) connections held in a transaction")
    }
  }

  /// One address may have `uploadsPerAddress` uploads in progress; one more is 429 in words,
  /// and once one of them ends its place is free again.
  @Test func oneAddressHasOnlySoManyUploadsAtOnce() async throws {
    let spool = try TemporaryDirectory()
    defer { spool.remove() }
    let server = try await TestServer.make(
      limits: Limits(uploadsPerAddress: 3, uploadSpool: spool.url))
    let token = server.writerToken
    try await server.test(.live) { http, _ in
      let port = try #require(http.port)
      var stalled: [RawConnection] = []
      defer {
        for connection in stalled { connection.close() }
      }
      for upload in 0..<3 {
        stalled.append(
          try await RawConnection.open(
            port: port,
            sending: Self.head(Self.sha(upload + 100), length: 4096, token: token)
              + Data(repeating: 7, count: 10)))
      }
      guard await Self.waitForSpooling(3, in: spool.url) else {
        // What ended them: each one's answer, if it got one.
        var answers: [String] = []
        for connection in stalled {
          answers.append(await connection.receive(until: RawConnection.isWholeAnswer).text)
        }
        Issue.record(
          "\(Self.spooling(in: spool.url)) of the 3 stalled uploads are spooling; answered: \(answers)"
        )
        return
      }
      // A fourth from the same address, whole, on a connection of its own: refused at once.
      let bytes = Data("the fourth upload".utf8)
      let fourth = try await RawConnection.open(
        port: port, sending: Self.head(bytes.sha256Hex, length: bytes.count, token: token) + bytes)
      defer { fourth.close() }
      let refused = await fourth.receive(until: RawConnection.isWholeAnswer)
      #expect(refused.text.hasPrefix("HTTP/1.1 429"), "the fourth upload: \(refused.text)")
      #expect(refused.text.contains("uploads from your address"), "\(refused.text)")
      #expect(Self.spooling(in: spool.url) == 3, "a stalled upload ended before its client did")
      // One of the three ends (its client goes away): the fourth is taken.
      stalled.removeFirst().close()
      let ended = await Self.waitForSpooling(2, in: spool.url)
      #expect(ended, "the upload whose client went away is still in progress")
      let taken = try await http.send(
        .put, "/api/v1/audio/\(bytes.sha256Hex)", token: token, body: bytes)
      #expect(taken.status == .created, "\(taken.text)")
    }
  }

  /// A body that begins and then sends nothing is closed after the body timeout (here 1 s;
  /// the idle timeout, which would close it too, is far longer), and its upload leaves nothing.
  @Test func aBodyThatStallsIsClosedAfterTheBodyTimeout() async throws {
    let spool = try TemporaryDirectory()
    defer { spool.remove() }
    let server = try await TestServer.make(limits: Limits(uploadSpool: spool.url))
    let transport = Transport(idleTimeout: .seconds(3600), bodyTimeout: .seconds(1))
    try await server.test(.live, transport: transport) { http, store in
      let port = try #require(http.port)
      let sha = Self.sha(200)
      let begun = ContinuousClock.now
      let stalled = try await RawConnection.open(
        port: port,
        sending: Self.head(sha, length: 4096, token: server.writerToken)
          + Data(repeating: 7, count: 10))
      defer { stalled.close() }
      let answer = await stalled.receive()
      let took = ContinuousClock.now - begun
      print("a stalled body was closed after \(took)")
      #expect(answer.closed, "still open after \(RawConnection.readSafetyNet) s: \(answer.text)")
      #expect(took >= .seconds(1))
      let cleared = await Self.waitForSpooling(0, in: spool.url)
      #expect(cleared, "the stalled upload's spool file is still there")
      #expect(
        try await AudioStore(client: store.client, logger: store.logger).recording(sha) == nil)
    }
  }
}
