import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import SyncUpsWire
import Testing

@testable import SyncUpsServer

/// Correcting a segment on the server (`POST /meetings/ID/segments/N` from the meeting page,
/// and under `/api/v1`): a writer's correction goes through the rules of `syncups correct`,
/// is its own change (a later clock for that segment alone), and merges with laptops' pushes.
@Suite(
  .enabled(
    if: TestPostgres.available,
    "skipped: no PostgreSQL for the server's tests (.ci/postgres could not start one)"))
struct CorrectionRouteTests {
  static let json: HTTPFields = [
    .origin: TestServer.origin, .contentType: "application/json",
  ]

  static func body(_ value: [String: Any]) throws -> Data {
    try JSONSerialization.data(withJSONObject: value)
  }

  /// A server with a sync-up of Ana and Ben and a meeting of three segments.
  static func withMeeting(
    _ body:
      @Sendable @escaping (TestServer, any TestClientProtocol, MeetingDocument) async throws
      -> Void
  ) async throws {
    let server = try await TestServer.make()
    let syncUp = Fixture.syncUp()
    let meeting = Fixture.meeting(
      in: syncUp.id,
      said: [("Ana", "the staging server is down"), ("Ben", "thanks"), ("Ana", "see you")])
    try await server.test { http, _ in
      let push = Push(device: UUID(), pushID: UUID(), syncUps: [syncUp], meetings: [meeting])
      #expect(try await http.push(push, token: server.writerToken).status == .ok)
      try await body(server, http, meeting)
    }
  }

  static func stored(_ http: any TestClientProtocol, _ server: TestServer, _ id: UUID)
    async throws -> MeetingDocument
  {
    try await http.send(.get, "/api/v1/meetings/\(id)", token: server.writerToken)
      .decode(MeetingDocument.self)
  }

  @Test("a writer corrects a segment's speaker and text, then puts back what was recognised")
  func aWriterCorrectsAndUndoes() async throws {
    try await Self.withMeeting { server, http, meeting in
      let answer = try await http.send(
        .post, "/meetings/\(meeting.id)/segments/1", token: server.writerToken,
        headers: Self.json,
        body: Self.body(["speaker": " ben ", "text": "the  grafana\nserver is down"]))
      #expect(answer.status == .ok)
      let saved = try answer.decode(CorrectedSegment.self)
      #expect(saved.segment.speaker == "Ben")
      #expect(saved.segment.text == "the grafana server is down")
      // Words the recogniser heard keep their times.
      #expect(saved.segment.words.map(\.text) == ["the", "grafana", "server", "is", "down"])
      #expect(saved.segment.words[0] == meeting.segments[0].words[0])
      #expect(saved.segment.original?.text == "the staging server is down")
      #expect(saved.meetingClock > meeting.clock)
      #expect(saved.segment.clock == saved.meetingClock)

      let document = try await Self.stored(http, server, meeting.id)
      #expect(document.clock == saved.meetingClock)
      #expect(document.segments[0].text == "the grafana server is down")
      #expect(document.segments[1...].map(\.text) == ["thanks", "see you"])
      // The other segments keep the meeting's earlier clock.
      #expect(document.clock(ofSegment: 1) == meeting.clock)

      let page = try await http.send(.get, "/meetings/\(meeting.id)", token: server.writerToken)
      #expect(page.text.contains(">grafana</span>"))
      #expect(page.text.contains("<span class=\"recognised-text\">the staging server is down"))
      #expect(page.text.contains("<template id=\"correcting\""))

      let undone = try await http.send(
        .post, "/api/v1/meetings/\(meeting.id)/segments/1", token: server.writerToken,
        headers: [.contentType: "application/json"], body: Self.body(["undo": true]))
      #expect(undone.status == .ok)
      let back = try await Self.stored(http, server, meeting.id)
      var expected = meeting.segments[0]
      expected.clock = back.segments[0].clock
      #expect(back.segments[0] == expected)
      #expect(back.clock > saved.meetingClock)
    }
  }

  @Test("a reader may not correct (403), nor see the form; nothing changes")
  func aReaderMayNot() async throws {
    try await Self.withMeeting { server, http, meeting in
      for path in [
        "/meetings/\(meeting.id)/segments/1", "/api/v1/meetings/\(meeting.id)/segments/1",
      ] {
        let answer = try await http.send(
          .post, path, token: server.readerToken, headers: Self.json,
          body: Self.body(["speaker": "Ben", "text": "hello"]))
        #expect(answer.status == .forbidden)
        #expect(answer.errorMessage?.contains("writer role") == true)
      }
      let page = try await http.send(.get, "/meetings/\(meeting.id)", token: server.readerToken)
      #expect(!page.text.contains("id=\"correcting\""))
      #expect(try await Self.stored(http, server, meeting.id) == meeting)
    }
  }

  @Test("bad input is a 4xx with the problem in words, as JSON")
  func badInput() async throws {
    try await Self.withMeeting { server, http, meeting in
      let cases: [(String, Data, HTTPResponse.Status, String)] = [
        (
          "1", try Self.body(["speaker": "Eve", "text": "hello"]), .unprocessableContent,
          "'Eve' is not an attendee"
        ),
        (
          "1", try Self.body(["speaker": "Ana", "text": " \n "]), .unprocessableContent,
          "the text is empty"
        ),
        (
          "1", try Self.body(["speaker": "Ana", "text": "a\u{7}b"]), .unprocessableContent,
          "control characters"
        ),
        (
          "1", try Self.body(["speaker": "Ana", "text": String(repeating: "a", count: 10_001)]),
          .unprocessableContent, "too long"
        ),
        (
          "4", try Self.body(["speaker": "Ana", "text": "hello"]), .notFound,
          "numbered 1 to 3"
        ),
        ("0", try Self.body(["speaker": "Ana", "text": "hello"]), .badRequest, "numbered from 1"),
        ("x", try Self.body(["speaker": "Ana", "text": "hello"]), .badRequest, "numbered from 1"),
        ("1", Data("not json".utf8), .badRequest, "not the JSON this route takes"),
        ("1", try Self.body(["speaker": "Ana"]), .badRequest, "both the speaker and the text"),
        ("1", try Self.body(["undo": true, "text": "x"]), .badRequest, "send it alone"),
        (
          "1", Data(repeating: 32, count: CorrectionRoutes.bodyLimit + 1), .contentTooLarge,
          "larger than"
        ),
      ]
      for (number, body, status, words) in cases {
        let answer = try await http.send(
          .post, "/meetings/\(meeting.id)/segments/\(number)", token: server.writerToken,
          headers: Self.json, body: body)
        #expect(answer.status == status, "\(words)")
        #expect(answer.errorMessage?.contains(words) == true, "\(answer.text.prefix(200))")
      }
      let unknown = try await http.send(
        .post, "/meetings/\(UUID())/segments/1", token: server.writerToken, headers: Self.json,
        body: Self.body(["speaker": "Ana", "text": "hello"]))
      #expect(unknown.status == .notFound)
      #expect(try await Self.stored(http, server, meeting.id) == meeting)
    }
  }

  @Test("a correction from another site's page (or one that says no page) is refused: 403")
  func crossSiteIsRefused() async throws {
    try await Self.withMeeting { server, http, meeting in
      for origin in ["https://evil.example", nil] {
        var headers: HTTPFields = [.contentType: "application/json"]
        if let origin { headers[.origin] = origin }
        let answer = try await http.send(
          .post, "/meetings/\(meeting.id)/segments/1", token: server.writerToken,
          headers: headers, body: Self.body(["speaker": "Ben", "text": "hello"]))
        #expect(answer.status == .forbidden)
      }
      #expect(try await Self.stored(http, server, meeting.id) == meeting)
    }
  }

  @Test(
    "a web correction and a laptop's of another segment are both kept; an older laptop's whole meeting still saves"
  )
  func webAndLaptopCorrectionsMerge() async throws {
    try await Self.withMeeting { server, http, meeting in
      // A laptop corrects the second segment (before the web's, by its clock) and pushes after.
      var laptop = meeting
      laptop.clock = Fixture.clock(3)
      for index in laptop.segments.indices {
        laptop.segments[index].clock = MeetingDocument.recognitionClock
      }
      laptop.segments[1] = laptop.segments[1].corrected(SegmentCorrection(text: "thanks all"))
      laptop.segments[1].clock = Fixture.clock(3)
      let web = try await http.send(
        .post, "/meetings/\(meeting.id)/segments/1", token: server.writerToken,
        headers: Self.json, body: Self.body(["speaker": "Ana", "text": "the grafana server"]))
      #expect(web.status == .ok)
      let push = Push(device: UUID(), pushID: UUID(), meetings: [laptop])
      #expect(try await http.push(push, token: server.writerToken).status == .ok)
      let merged = try await Self.stored(http, server, meeting.id)
      #expect(merged.segments.map(\.text) == ["the grafana server", "thanks all", "see you"])

      // An older laptop sends its whole meeting, without segment clocks, later: it wins.
      var older = meeting
      older.clock = try web.decode(CorrectedSegment.self).meetingClock.tick(
        now: Date(), device: "older")
      older.segments[2].text = "see you soon"
      older.segments[2].words = []
      let again = Push(device: UUID(), pushID: UUID(), meetings: [older])
      #expect(try await http.push(again, token: server.writerToken).status == .ok)
      #expect(try await Self.stored(http, server, meeting.id).segments == older.segments)
    }
  }
}
