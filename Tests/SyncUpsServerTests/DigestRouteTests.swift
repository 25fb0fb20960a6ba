import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import SyncUpsWire
import Testing

@testable import SyncUpsServer

/// `GET /api/v1/meetings/ID/digest`: the stand-up digest of a pushed meeting, as `syncups
/// digest --format json` prints it, following a correction at once; 404 for no such meeting.
@Suite(
  .enabled(
    if: TestPostgres.available,
    "skipped: no PostgreSQL for the server's tests (.ci/postgres could not start one)"))
struct DigestRouteTests {
  @Test("a reader gets the digest of a meeting, and a correction changes it at once")
  func aReaderGetsTheDigest() async throws {
    let server = try await TestServer.make()
    let syncUp = Fixture.syncUp()
    let meeting = Fixture.meeting(in: syncUp.id, said: Fixture.standUp)
    try await server.test { http, _ in
      let push = Push(device: UUID(), pushID: UUID(), syncUps: [syncUp], meetings: [meeting])
      #expect(try await http.push(push, token: server.writerToken).status == .ok)
      let path = "/api/v1/meetings/\(meeting.id)/digest"
      let answer = try await http.send(.get, path, token: server.readerToken)
      #expect(answer.status == .ok)
      let id = meeting.id.uuidString.lowercased()
      #expect(
        answer.text == """
          {"meeting":"\(id)","people":[{"name":"Ana","yesterday":["fixed the staging server"],\
          "today":["write the runbook"],"blockers":[],"sources":{"yesterday":[{"segment":2,\
          "time":5,"reason":"past tense 'fixed'"}],"today":[{"segment":2,"time":5,\
          "reason":"future 'will'"}],"blockers":[]}},{"name":"Ben","yesterday":[],"today":[],\
          "blockers":["waiting for ana to review my pull request"],"sources":{"yesterday":[],\
          "today":[],"blockers":[{"segment":3,"time":10,"person":"Ana",\
          "reason":"blocker cue 'waiting for'"}]}}]}
          """)

      let corrected = try await http.send(
        .post, "/meetings/\(meeting.id)/segments/2", token: server.writerToken,
        headers: [.origin: TestServer.origin, .contentType: "application/json"],
        body: try JSONSerialization.data(withJSONObject: [
          "speaker": "Ana", "text": "yesterday i fixed the grafana alerts",
        ]))
      #expect(corrected.status == .ok)
      let after = try await http.send(.get, path, token: server.readerToken)
      #expect(after.text.contains(#""yesterday":["fixed the grafana alerts"],"today":[]"#))

      let missing = try await http.send(
        .get, "/api/v1/meetings/\(UUID())/digest", token: server.readerToken)
      #expect(missing.status == .notFound)
      let signedOut = try await http.send(.get, path, token: nil)
      #expect(signedOut.status == .unauthorized)
    }
  }
}
