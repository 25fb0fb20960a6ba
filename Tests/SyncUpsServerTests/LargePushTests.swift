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
@Suite(.enabled(if: TestPostgres.available, "skipped: no PostgreSQL for the server's tests"))
struct LargePushTests {
  @Test func aLargePushWaitsForItsTurnWhileASmallOneGoesStraightThrough() async throws {
    let server = try await TestServer.make(limits: Limits(largePush: 10_000))
    var logger = Logger(label: "syncups-server-test")
    logger.logLevel = .error
    let team = TeamServer(
      client: PostgresClientFactory.make(server.url, logger: logger), limits: server.limits,
      logger: logger)
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
}
