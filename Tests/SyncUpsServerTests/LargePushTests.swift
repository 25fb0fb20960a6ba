import Foundation
import HummingbirdTesting
import Logging
import SyncUpsServer
import SyncUpsWire
import TestSupport
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Pushes arriving together were all decoded at once (eight 30 MB pushes held 883 MB), though
/// they are saved one after another: a large one now waits for its turn before it is decoded.
/// Their bodies then still waited in memory (eight held +295 MB): a large one now waits in a
/// spool file.
@Suite(.enabled(if: TestPostgres.available, "skipped: no PostgreSQL for the server's tests"))
struct LargePushTests {
  /// The test server's team server with a database client of its own, and its logger, to
  /// test on a real socket.
  static func team(_ server: TestServer) -> (TeamServer, Logger) {
    var logger = Logger(label: "syncups-server-test")
    logger.logLevel = .error
    let team = TeamServer(
      client: PostgresClientFactory.make(server.url, logger: logger), limits: server.limits,
      logger: logger)
    return (team, logger)
  }

  @Test func aLargePushWaitsForItsTurnWhileASmallOneGoesStraightThrough() async throws {
    let server = try await TestServer.make(limits: Limits(largePush: 10_000))
    let (team, logger) = Self.team(server)
    try await team.application(logger: logger).test(.live) { http in
      let port = try #require(http.port)
      let syncUp = Fixture.syncUp()
      let said = (0..<100).map { ("Ana", "part \($0) of a long stand-up about the staging server") }
      let large = try WireJSON.encoder().encode(
        Push(
          device: UUID(), pushID: UUID(), syncUps: [syncUp],
          meetings: [Fixture.meeting(in: syncUp.id, said: said)]))
      try #require(large.count > 10_000)

      // The test holds the only turn, as a large push being saved would.
      await team.largePushes.begin()
      let waited = Task {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)/api/v1/sync/push")!)
        request.httpMethod = "POST"
        request.setValue("Bearer \(server.writerToken)", forHTTPHeaderField: "Authorization")
        request.httpBody = large
        let (_, response) = try await URLSession.shared.data(for: request)
        return (response as? HTTPURLResponse)?.statusCode
      }
      let waiting = await waitUntil(timeout: .seconds(60)) { team.largePushes.waiting == 1 }
      #expect(waiting, "the large push did not wait for its turn")

      // A small push does not wait for it.
      let small = try await http.push(
        Push(device: UUID(), pushID: UUID(), syncUps: [Fixture.syncUp()]),
        token: server.writerToken)
      #expect(small.status == .ok, "\(small.text)")
      #expect(try await server.count("meeting") == 0)

      // Its turn comes, and it is saved.
      team.largePushes.end()
      #expect(try await waited.value == 200)
      #expect(try await server.count("meeting") == 1)
    }
  }

  @Test func largePushesWaitingForTheirTurnWaitInSpoolFilesNotInMemory() async throws {
    let spool = try TemporaryDirectory()
    defer { spool.remove() }
    let server = try await TestServer.make(
      limits: Limits(json: 200_000, largePush: 10_000, uploadSpool: spool.url))
    let (team, logger) = Self.team(server)
    try await team.application(logger: logger).test(.live) { http in
      let port = try #require(http.port)
      let said = (0..<100).map { ("Ana", "part \($0) of a long stand-up about the staging server") }
      let bodies = try (0..<3).map { _ in
        let syncUp = Fixture.syncUp()
        return try WireJSON.encoder().encode(
          Push(
            device: UUID(), pushID: UUID(), syncUps: [syncUp],
            meetings: [Fixture.meeting(in: syncUp.id, said: said)]))
      }
      try #require(bodies.allSatisfy { $0.count > 10_000 })
      func post(_ body: Data) async throws -> Int? {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)/api/v1/sync/push")!)
        request.httpMethod = "POST"
        request.setValue("Bearer \(server.writerToken)", forHTTPHeaderField: "Authorization")
        request.httpBody = body
        let (_, response) = try await URLSession.shared.data(for: request)
        return (response as? HTTPURLResponse)?.statusCode
      }
      func spooled() throws -> [String: Int] {
        var sizes: [String: Int] = [:]
        for name in StalledUploadTests.spoolFiles(in: spool.url) {
          sizes[name] =
            try FileManager.default.attributesOfItem(atPath: spool.file(name).path)[
              .size] as? Int
        }
        return sizes
      }

      // The test holds the only turn; three large pushes arrive and wait, each in a file of
      // its own holding its whole body.
      await team.largePushes.begin()
      let waited = bodies.map { body in Task { try await post(body) } }
      let waiting = await waitUntil(timeout: .seconds(60)) { team.largePushes.waiting == 3 }
      #expect(waiting, "the large pushes did not wait for their turn")
      let files = try spooled()
      #expect(files.count == 3)
      #expect(files.keys.allSatisfy { $0.hasPrefix("syncups-push-") })
      #expect(files.values.sorted() == bodies.map(\.count).sorted())

      // A push past the limit is refused in words, and leaves no file behind.
      let tooLarge = try await http.send(
        .post, "/api/v1/sync/push", token: server.writerToken,
        body: Data(repeating: UInt8(ascii: " "), count: 300_000))
      #expect(tooLarge.status == .contentTooLarge, "\(tooLarge.text)")
      #expect(try spooled().count == 3)

      // Their turns come: each is saved, and its file is gone.
      team.largePushes.end()
      for push in waited { #expect(try await push.value == 200) }
      #expect(try await server.count("meeting") == 3)
      #expect(try spooled().isEmpty)
    }
  }
}
