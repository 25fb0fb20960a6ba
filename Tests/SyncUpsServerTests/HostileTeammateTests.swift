import Crypto
import Foundation
import Hummingbird
import HummingbirdTesting
import PostgresNIO
import SyncUpsServer
import SyncUpsWire
import TestSupport
import Testing

/// A teammate who means harm (or makes a mistake) reaches everyone through the server: what
/// breaks the rules is refused in words, and whatever is stored, every page still answers.
@Suite(.enabled(if: TestPostgres.available, "needs PostgreSQL (.ci/postgres)"))
struct HostileTeammateTests {
  @Test func aMeetingPageAskedForAnAbsurdTimeIsRefusedInWords() async throws {
    let server = try await TestServer.make()
    try await server.test { http, _ in
      let syncUp = Fixture.syncUp()
      let meeting = Fixture.meeting(in: syncUp.id, said: [("Ana", "hello there")])
      let pushed = try await http.push(
        Push(device: UUID(), pushID: UUID(), syncUps: [syncUp], meetings: [meeting]),
        token: server.writerToken)
      #expect(pushed.status == .ok)
      for time in ["1e300", "1e19", "-1", "nan", "inf", "86401"] {
        let page = try await http.send(
          .get, "/meetings/\(meeting.id)?t=\(time)", token: server.readerToken)
        #expect(page.status == .badRequest, "?t=\(time)")
        #expect(page.text.contains("?t= takes seconds"), "?t=\(time)")
      }
      let fine = try await http.send(
        .get, "/meetings/\(meeting.id)?t=2.5", token: server.readerToken)
      #expect(fine.status == .ok)
    }
  }

  @Test func documentsThatBreakTheRulesAreRefusedInWordsAndNothingIsWritten() async throws {
    let server = try await TestServer.make()
    try await server.test { http, store in
      let now = Int64(Date().timeIntervalSince1970 * 1000)
      var cases: [(String, Push)] = []
      func syncUp(_ change: (inout SyncUpDocument) -> Void) -> Push {
        var document = Fixture.syncUp()
        change(&document)
        return Push(device: UUID(), pushID: UUID(), syncUps: [document])
      }
      func meeting(_ change: (inout MeetingDocument) -> Void) -> Push {
        let parent = Fixture.syncUp()
        var document = Fixture.meeting(in: parent.id, said: [("Ana", "hello there")])
        change(&document)
        return Push(device: UUID(), pushID: UUID(), syncUps: [parent], meetings: [document])
      }
      cases.append(("between 1s and 24h", syncUp { $0.duration.value = 1e300 }))
      cases.append(("between 1s and 24h", syncUp { $0.duration.value = -1 }))
      cases.append(("is not between 0 and 86400 s", meeting { $0.length = 1e300 }))
      cases.append(
        ("has a word with times outside", meeting { $0.segments[0].words[0].start = 1e300 }))
      cases.append(("has times outside", meeting { $0.segments[0].end = 1e300 }))
      cases.append(
        (
          "at most 100 attendees",
          syncUp { document in
            document.attendees.value = (0..<100_000).map { .init(id: UUID(), name: "P\($0)") }
          }
        ))
      cases.append(
        (
          "the title is too long",
          syncUp { $0.title.value = String(repeating: "t", count: 5 << 20) }
        )
      )
      cases.append(
        ("is not a theme", syncUp { $0.theme.value = String(repeating: "t", count: 1 << 20) }))
      cases.append(("control characters", syncUp { $0.title.value = "\u{1B}]0;owned\u{07}" }))
      cases.append(
        (
          "is of type 'text/html'",
          meeting {
            $0.audio = .init(sha256: String(repeating: "a", count: 64), size: 10, type: "text/html")
          }
        ))
      cases.append(
        (
          "minutes ahead of this computer's time",
          syncUp {
            $0.title.clock = HybridClock(milliseconds: 9_999_999_999_999_999, device: "zzzz")
          }
        ))
      cases.append(
        (
          "minutes ahead of this computer's time",
          meeting { $0.clock = HybridClock(milliseconds: now + 3_600_000, device: "zzzz") }
        ))
      for (expected, push) in cases {
        let response = try await http.push(push, token: server.writerToken)
        #expect(response.status == .unprocessableContent, "\(expected)")
        #expect(response.errorMessage?.contains(expected) == true, "\(response.errorMessage ?? "")")
      }
      let soon = HybridClock(milliseconds: now + 60_000, device: "laptop-a")
      let justAhead = try await http.push(
        syncUp { $0.title.clock = soon }, token: server.writerToken)
      #expect(justAhead.status == .ok, "a clock within the drift is taken")
      #expect(try await store.syncUps().count == 1)
    }
  }

  /// Values kept before the rules existed (written here straight into PostgreSQL) still render.
  @Test func everyPageAnswersWhateverNumbersAreStored() async throws {
    let server = try await TestServer.make()
    try await server.test { http, store in
      let syncUp = Fixture.syncUp()
      let meeting = Fixture.meeting(in: syncUp.id, said: [("Ana", "hello there")])
      _ = try await http.push(
        Push(device: UUID(), pushID: UUID(), syncUps: [syncUp], meetings: [meeting]),
        token: server.writerToken)
      for sql in [
        "UPDATE sync_up SET duration = 1e300",
        "UPDATE meeting SET length = 1e300",
        "UPDATE segment SET start_time = -1e300, end_time = 1e300",
        """
        UPDATE segment SET words = '[{"text": "x", "start": 1e300, "end": -1e300}]'::jsonb
        """,
      ] {
        try await store.client.query(PostgresQuery(unsafeSQL: sql))
      }
      for path in [
        "/", "/sync-ups/\(syncUp.id)", "/meetings/\(meeting.id)", "/api/v1/sync-ups",
        "/api/v1/meetings/\(meeting.id)", "/meetings/\(meeting.id)/transcript.srt",
        "/api/v1/sync-ups/\(syncUp.id)/meetings",
      ] {
        let response = try await http.send(.get, path, token: server.readerToken)
        #expect(response.status == .ok, "\(path): \(response.text.prefix(200))")
      }
    }
  }

  @Test func audioIsServedAsAudioNeverAsAPage() async throws {
    let server = try await TestServer.make()
    try await server.test { http, store in
      let bytes = Data("<html><script>alert(document.cookie)</script></html>".utf8)
      let sha = bytes.sha256Hex
      let uploaded = try await http.send(
        .put, "/api/v1/audio/\(sha)", token: server.writerToken, body: bytes)
      #expect(uploaded.status == .created)
      let syncUp = Fixture.syncUp()
      let meeting = Fixture.meeting(
        in: syncUp.id, said: [("Ana", "hi")],
        audio: .init(sha256: sha, size: Int64(bytes.count), type: "audio/flac"))
      let pushed = try await http.push(
        Push(device: UUID(), pushID: UUID(), syncUps: [syncUp], meetings: [meeting]),
        token: server.writerToken)
      #expect(pushed.status == .ok)
      let audio = try await http.send(.get, "/audio/\(meeting.id)", token: server.readerToken)
      #expect(audio.status == .ok)
      #expect(audio.headers[.contentType] == "audio/flac")
      #expect(audio.headers[.xContentTypeOptions] == "nosniff")
      #expect(audio.headers[.contentSecurityPolicy]?.contains("sandbox") == true)
      #expect(audio.headers[.contentSecurityPolicy]?.contains("default-src 'none'") == true)
      // A type kept before the rules is not served as what it claims.
      try await store.client.query(
        PostgresQuery(unsafeSQL: "UPDATE meeting SET audio_type = 'text/html'"))
      let legacy = try await http.send(.get, "/audio/\(meeting.id)", token: server.readerToken)
      #expect(legacy.headers[.contentType] == "application/octet-stream")
      #expect(legacy.headers[.xContentTypeOptions] == "nosniff")
    }
  }

  /// Random documents, absurd and odd: every push and every page is answered 2xx or 4xx (in
  /// words), and the server keeps answering.
  @Test func randomDocumentsAreAnsweredInWordsAndTheServerStaysUp() async throws {
    let server = try await TestServer.make()
    try await server.test { http, store in
      var documents = HostileDocuments(seed: 31)
      var accepted = 0
      for round in 0..<300 {
        let body = documents.push()
        let response = try await http.send(
          .post, "/api/v1/sync/push", token: server.writerToken, body: body)
        #expect((200..<500).contains(response.status.code), "push \(round): \(response.text)")
        if response.status == .ok {
          accepted += 1
        } else {
          #expect(response.errorMessage != nil, "push \(round) is refused in words")
        }
      }
      var paths = ["/", "/api/v1/sync-ups", "/api/v1/sync/changes?since=0&limit=1000"]
      for summary in try await store.syncUps() {
        paths += ["/sync-ups/\(summary.id)", "/api/v1/sync-ups/\(summary.id)/meetings"]
        for meeting in try await store.meetings(of: summary.id, limit: 50, before: nil).meetings {
          paths += [
            "/meetings/\(meeting.id)", "/meetings/\(meeting.id)/transcript.vtt",
            "/api/v1/meetings/\(meeting.id)",
          ]
        }
      }
      for path in paths {
        let response = try await http.send(.get, path, token: server.readerToken)
        #expect(response.status == .ok, "\(path): \(response.text.prefix(300))")
      }
      #expect(accepted > 0, "some random documents keep the rules")
    }
  }
}
