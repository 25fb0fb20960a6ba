import Foundation
import Hummingbird
import HummingbirdTesting
import SyncUpsWire
import Testing

@testable import SyncUpsServer

/// A correction pushed to the server: the meeting page shows the corrected words (timed), says
/// the segment was corrected and what was recognised, and search finds the correction.
@Suite(
  .enabled(
    if: TestPostgres.available,
    "skipped: no PostgreSQL for the server's tests (.ci/postgres could not start one)"))
struct CorrectionPageTests {
  @Test func theMeetingPageAndSearchShowTheCorrection() async throws {
    let server = try await TestServer.make()
    let syncUp = Fixture.syncUp()
    let heard = Fixture.meeting(
      in: syncUp.id, said: [("Ana", "the staging server is down"), ("Ben", "thanks everyone")])
    var edited = heard
    edited.clock = Fixture.clock(3)
    let original = heard.segments[0]
    edited.segments[0].speaker = "Ben"
    edited.segments[0].text = "the grafana server is down"
    edited.segments[0].words[1].text = "grafana"
    edited.segments[0].original = MeetingDocument.Original(
      speaker: original.speaker, text: original.text, words: original.words)
    let corrected = edited
    try await server.test { http, _ in
      for (index, meeting) in [heard, corrected].enumerated() {
        let push = Push(
          device: UUID(), pushID: UUID(), syncUps: index == 0 ? [syncUp] : [], meetings: [meeting])
        #expect(try await http.push(push, token: server.writerToken).status == .ok)
      }
      let page = try await http.send(.get, "/meetings/\(heard.id)", token: server.writerToken)
      #expect(page.status == .ok)
      let word = corrected.segments[0].words[1]
      #expect(
        page.text.contains(
          "<span data-start=\"\(HTML.seconds(word.start))\" data-end=\"\(HTML.seconds(word.end))\">grafana</span>"
        ))
      #expect(!page.text.contains(">staging</span>"))
      #expect(
        page.text.contains(
          "<span class=\"corrected\" title=\"Recognised as: Ana: the staging server is down\">corrected</span>"
        ))
      #expect(page.text.components(separatedBy: "class=\"corrected\"").count == 2)

      let document = try await http.send(
        .get, "/api/v1/meetings/\(heard.id)", token: server.writerToken
      ).decode(MeetingDocument.self)
      #expect(document.segments == corrected.segments)

      let found = try await http.send(.get, "/search?q=grafana", token: server.writerToken)
      #expect(found.text.contains("<mark>grafana</mark>"))
      let gone = try await http.send(.get, "/api/v1/search?q=staging", token: server.writerToken)
      #expect(gone.text == "[]")
      let text = try await http.send(
        .get, "/meetings/\(heard.id)/transcript.txt", token: server.writerToken)
      #expect(text.text.contains("Ben: the grafana server is down"))
    }
  }
}
