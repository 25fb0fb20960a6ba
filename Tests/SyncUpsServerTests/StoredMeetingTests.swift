import Crypto
import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import PostgresNIO
import SyncUpsWire
import Testing

@testable import SyncUpsServer

/// A meeting's JSON is stored when it is pushed and served as it is, tagged with its clock;
/// its page's transcript is cached by clock, and what is someone's own never is.
@Suite(.enabled(if: TestPostgres.available, "skipped: no PostgreSQL for the server's tests"))
struct StoredMeetingTests {
  /// A meeting with audio (of `size` bytes uploaded), a corrected segment, text beyond ASCII and
  /// quotes, word confidences.
  static func meeting(in syncUp: UUID, audio sha: String, size: Int64) -> MeetingDocument {
    var meeting = Fixture.meeting(
      in: syncUp,
      said: [
        ("Ana", "the staging server is down"), ("Ben", "Zoë said \"ça va\" / ok"),
        ("Cleo", "thanks everyone"),
      ],
      audio: .init(sha256: sha, size: 1, type: "audio/flac"))
    meeting.segments[0].original = MeetingDocument.Original(
      speaker: "Ben", text: "the stage in server is down", words: meeting.segments[0].words)
    meeting.segments[1].words[0].confidence = 0.875
    meeting.segments[2].words = []
    return meeting
  }

  /// Uploads some audio; its SHA-256 and size.
  static func upload(_ http: any TestClientProtocol, token: String) async throws -> (
    String, Int64
  ) {
    let audio = Data((0..<1000).map { UInt8($0 % 251) })
    let sha = SHA256.hash(data: audio).map { String(format: "%02x", $0) }.joined()
    let upload = try await http.send(.put, "/api/v1/audio/\(sha)", token: token, body: audio)
    #expect(upload.status == .created)
    return (sha, Int64(audio.count))
  }

  static func push(
    _ http: any TestClientProtocol, _ syncUps: [SyncUpDocument], _ meetings: [MeetingDocument],
    token: String
  ) async throws {
    let pushed = try await http.push(
      Push(device: UUID(), pushID: UUID(), syncUps: syncUps, meetings: meetings), token: token)
    #expect(pushed.status == .ok, "\(pushed.text)")
  }

  /// The meeting's JSON as made from its rows (what the API gave before it was stored).
  static func fromRows(_ id: UUID, _ store: TeamStore) async throws -> [UInt8]? {
    try await store.meetingDocument(id).map { try WireJSON.bytes(of: $0) }
  }

  @Test("the stored JSON of a pushed meeting is byte for byte a fresh read of its rows")
  func storedBytesEqualTheRows() async throws {
    let server = try await TestServer.make()
    try await server.test { http, store in
      let (sha, size) = try await Self.upload(http, token: server.writerToken)
      let syncUp = Fixture.syncUp()
      let meeting = Self.meeting(in: syncUp.id, audio: sha, size: size)
      var deleted = Fixture.meeting(in: syncUp.id, said: [("Ana", "gone soon")])
      try await Self.push(http, [syncUp], [meeting, deleted], token: server.writerToken)
      deleted.deleted = true
      deleted.clock = Fixture.clock(5)
      try await Self.push(http, [], [deleted], token: server.writerToken)
      for id in [meeting.id, deleted.id] {
        let stored = try #require(try await store.storedJSON(id))
        let rows = try #require(try await Self.fromRows(id, store))
        #expect(Array(stored.readableBytesView) == rows)
        let made = try #require(try await store.meetingJSONFromRows(id))
        #expect(Array(made.readableBytesView) == rows)
      }
      let served = try await http.send(
        .get, "/api/v1/meetings/\(meeting.id)", token: server.readerToken)
      #expect(Array(served.body.readableBytesView) == (try await Self.fromRows(meeting.id, store)))
      // The audio's size is the one uploaded, not the one the laptop said.
      #expect(try served.decode(MeetingDocument.self).audio?.size == size)
    }
  }

  @Test("a meeting's JSON has its clock as ETag, 304 when asked with it, new after a correction")
  func meetingJSONETag() async throws {
    let server = try await TestServer.make()
    try await server.test { http, _ in
      let syncUp = Fixture.syncUp()
      let meeting = Fixture.meeting(in: syncUp.id, said: [("Ana", "the staging server is down")])
      try await Self.push(http, [syncUp], [meeting], token: server.writerToken)
      let path = "/api/v1/meetings/\(meeting.id)"
      let first = try await http.send(.get, path, token: server.readerToken)
      #expect(first.status == .ok)
      let tag = try #require(first.headers[.eTag])
      #expect(tag.hasPrefix("\"\(meeting.clock).") && tag.hasSuffix("\""))
      for named in [tag, "W/\(tag)", "\"other\", \(tag)", "*"] {
        let again = try await http.send(
          .get, path, token: server.readerToken, headers: [.ifNoneMatch: named])
        #expect(again.status == .notModified, "\(named)")
        #expect(again.body.readableBytes == 0)
        #expect(again.headers[.eTag] == tag)
      }
      let other = try await http.send(
        .get, path, token: server.readerToken, headers: [.ifNoneMatch: "\"other\""])
      #expect(other.status == .ok)
      // The token is checked first, always.
      for token in [nil, "not-a-token"] {
        let refused = try await http.send(.get, path, token: token, headers: [.ifNoneMatch: tag])
        #expect(refused.status == .unauthorized)
      }

      var corrected = meeting
      corrected.clock = Fixture.clock(3)
      corrected.segments[0].text = "the grafana server is down"
      corrected.segments[0].original = .init(
        speaker: "Ana", text: meeting.segments[0].text, words: meeting.segments[0].words)
      try await Self.push(http, [], [corrected], token: server.writerToken)
      let after = try await http.send(
        .get, path, token: server.readerToken, headers: [.ifNoneMatch: tag])
      #expect(after.status == .ok)
      // The tag is the meeting's clock and the version of its last write.
      #expect(after.headers[.eTag]?.hasPrefix("\"\(corrected.clock).") == true)
      #expect(after.headers[.eTag] != tag)
      #expect(try after.decode(MeetingDocument.self) == corrected)

      // A deleted meeting is gone, whatever tag is asked with.
      var deleted = corrected
      deleted.deleted = true
      deleted.clock = Fixture.clock(4)
      try await Self.push(http, [], [deleted], token: server.writerToken)
      let gone = try await http.send(
        .get, path, token: server.readerToken, headers: [.ifNoneMatch: "*"])
      #expect(gone.status == .notFound)
    }
  }

  @Test("migrating stores the JSON of meetings saved before, and a rewrite without it drops it")
  func migrationFillsJSON() async throws {
    let server = try await TestServer.make()
    try await server.test { http, store in
      let (sha, size) = try await Self.upload(http, token: server.writerToken)
      let syncUp = Fixture.syncUp()
      let meetings =
        [Self.meeting(in: syncUp.id, audio: sha, size: size)]
        + (0..<60).map { Fixture.meeting(in: syncUp.id, said: [("Ana", "meeting \($0)")]) }
      try await Self.push(http, [syncUp], meetings, token: server.writerToken)
      // As a database of the version before: no JSON kept.
      try await store.run("UPDATE meeting SET json = NULL", logger: store.logger)
      #expect(try await store.storedJSON(meetings[0].id) == nil)
      let served = try await http.send(
        .get, "/api/v1/meetings/\(meetings[0].id)", token: server.readerToken)
      #expect(served.status == .ok)
      #expect(
        Array(served.body.readableBytesView) == (try await Self.fromRows(meetings[0].id, store)))

      #expect(try await store.migrate() == 0)
      for meeting in meetings {
        let stored = try #require(try await store.storedJSON(meeting.id))
        #expect(Array(stored.readableBytesView) == (try await Self.fromRows(meeting.id, store)))
      }
      // A server of the version before rewrites a meeting (its clock) without its JSON.
      try await store.run(
        "UPDATE meeting SET clock = \(Fixture.clock(9).description) WHERE id = \(meetings[1].id)",
        logger: store.logger)
      #expect(try await store.storedJSON(meetings[1].id) == nil)
      #expect(try await store.storedJSON(meetings[2].id) != nil)
    }
  }

  @Test("a meeting page's cache keeps no one's own parts, and a push makes the page new")
  func meetingPageCache() async throws {
    let server = try await TestServer.make()
    try await server.test { http, _ in
      let syncUp = Fixture.syncUp()
      let meeting = Fixture.meeting(in: syncUp.id, said: [("Cleo", "the staging server is down")])
      try await Self.push(http, [syncUp], [meeting], token: server.writerToken)
      let path = "/meetings/\(meeting.id)"
      let ana = try await http.send(.get, path, token: server.writerToken)
      let ben = try await http.send(.get, path, token: server.readerToken)
      #expect(ana.status == .ok && ben.status == .ok)
      #expect(ana.text.contains("<span>Ana</span>") && !ana.text.contains("<span>Ben</span>"))
      #expect(ben.text.contains("<span>Ben</span>") && !ben.text.contains("<span>Ana</span>"))
      #expect(ben.text.contains(">staging</span>"))
      let anaTag = try #require(ana.headers[.eTag])
      let benTag = try #require(ben.headers[.eTag])
      #expect(anaTag != benTag)
      #expect(ana.headers[.cacheControl] == "private, no-cache")
      // Each one's own tag is current for them, never for the other.
      let anaAgain = try await http.send(
        .get, path, token: server.writerToken, headers: [.ifNoneMatch: anaTag])
      #expect(anaAgain.status == .notModified)
      let benWithAnas = try await http.send(
        .get, path, token: server.readerToken, headers: [.ifNoneMatch: anaTag])
      #expect(benWithAnas.status == .ok)
      #expect(benWithAnas.text == ben.text)
      // A time asked for is its own page.
      let at = try await http.send(
        .get, path + "?t=0", token: server.readerToken, headers: [.ifNoneMatch: benTag])
      #expect(at.status == .ok)
      #expect(at.text.contains("class=\"segment here\""))

      var corrected = meeting
      corrected.clock = Fixture.clock(3)
      corrected.segments[0].text = "the grafana server is down"
      corrected.segments[0].words[1].text = "grafana"
      try await Self.push(http, [], [corrected], token: server.writerToken)
      let after = try await http.send(
        .get, path, token: server.readerToken, headers: [.ifNoneMatch: benTag])
      #expect(after.status == .ok)
      #expect(after.text.contains(">grafana</span>") && !after.text.contains(">staging</span>"))
      #expect(after.headers[.eTag] != benTag)

      // The sync-up renamed: the page (its heading) is new too.
      let afterTag = try #require(after.headers[.eTag])
      let renamed = try await http.send(
        .get, path, token: server.readerToken, headers: [.ifNoneMatch: afterTag])
      #expect(renamed.status == .notModified)
      var syncUpRenamed = syncUp
      syncUpRenamed.title = Stamped("Evening Sync", at: Fixture.clock(4))
      try await Self.push(http, [syncUpRenamed], [], token: server.writerToken)
      let retitled = try await http.send(
        .get, path, token: server.readerToken, headers: [.ifNoneMatch: afterTag])
      #expect(retitled.status == .ok)
      #expect(retitled.text.contains("Evening Sync"))
    }
  }

  @Test("the page cache stays within its bytes, dropping the least recently read first")
  func pageCacheBound() {
    let cache = MeetingPageCache(limit: 4000)
    let ids = (0..<5).map { _ in UUID() }
    let version: Int64 = 1
    func transcript(_ n: Int) -> Markup {
      var markup: Markup = ""
      for _ in 0..<(n / 10) { markup += "<p>123</p>" }
      return markup
    }
    for id in ids.prefix(3) { cache.keep(transcript(1000), of: id, at: version) }
    #expect(cache.transcript(of: ids[0], at: version) != nil)
    cache.keep(transcript(1000), of: ids[3], at: version)
    cache.keep(transcript(1000), of: ids[4], at: version)
    #expect(cache.bytes <= 4000)
    #expect(cache.transcript(of: ids[0], at: version) != nil)
    #expect(cache.transcript(of: ids[1], at: version) == nil)
    #expect(cache.transcript(of: ids[4], at: version) != nil)
    // Another version is another meeting's state: not served, and an earlier one never replaces.
    #expect(cache.transcript(of: ids[4], at: 2) == nil)
    cache.keep(transcript(10), of: ids[4], at: 0)
    #expect(cache.transcript(of: ids[4], at: version)?.bytes.count == 1000)
    // Too large for the cache: not kept.
    cache.keep(transcript(2000), of: UUID(), at: version)
    #expect(cache.bytes <= 4000)
  }

  @Test("a segment in the plain shape reads as JSONDecoder reads it; any other shape is left to it")
  func segmentJSON() throws {
    let decoder = WireJSON.decoder()
    func fast(_ text: String) -> MeetingDocument.Segment? {
      let bytes = Array(text.utf8)
      return bytes.withUnsafeBytes { SegmentJSON.segment(in: $0, 0..<bytes.count) }
    }
    let numbers = [
      "0", "-0", "1", "0.1", "1.5", "12.345678901234567", "1e2", "1E-7", "2.5e+3", "-3.25",
      "123456789012345678901234567890", "0.30000000000000004", "5e-324",
    ]
    for (index, number) in numbers.enumerated() {
      let text =
        #"{ "end" : \#(number), "speaker":"Zoë", "start":\#(number), "text":"ça va 🎉","words":"#
        + #"[{"confidence":\#(number),"end":\#(number),"start":0,"text":"ça"},"#
        + #" {"text":"va","start":\#(number),"end":1}]}"# + (index % 2 == 0 ? " " : "")
      let read = try #require(fast(text), "\(number)")
      #expect(read == (try decoder.decode(MeetingDocument.Segment.self, from: Data(text.utf8))))
      #expect(read.words[1].confidence == nil)
    }
    let plain = #"{"end":1,"speaker":"A","start":0,"text":"hi","words":[]}"#
    #expect(fast(plain) != nil)
    for other in [
      #"{"end":1,"speaker":"A"","start":0,"text":"hi","words":[]}"#,
      #"{"end":1,"speaker":"A","start":0,"text":"hi","words":[],"original":null}"#,
      #"{"end":1,"speaker":"A","start":0,"text":"hi","words":[],"extra":1}"#,
      #"{"end":1,"speaker":"A","start":0,"text":"hi","text":"ho","words":[]}"#,
      #"{"end":01,"speaker":"A","start":0,"text":"hi","words":[]}"#,
      #"{"end":1.,"speaker":"A","start":0,"text":"hi","words":[]}"#,
      #"{"end":1e999,"speaker":"A","start":0,"text":"hi","words":[]}"#,
      #"{"end":NaN,"speaker":"A","start":0,"text":"hi","words":[]}"#,
      #"{"end":1,"speaker":"A","start":0,"text":"hi"}"#,
      #"{"end":1,"speaker":"A","start":0,"text":"hi","words":[{"text":"a","start":0}]}"#,
      #"{"end":1,"speaker":"A","start":0,"text":"hi","words":[{"text":"a","start":0,"end":1,"confidence":null}]}"#,
      #"{"end":1,"speaker":"A","start":0,"text":"hi","words":[]} x"#,
      #"{"end":1,"speaker":"A\#tB","start":0,"text":"hi","words":[]}"#,
    ] {
      #expect(fast(other) == nil, "\(other)")
    }
    // Not UTF-8: left to JSONDecoder too.
    var bytes = Array(plain.utf8)
    bytes[bytes.firstIndex(of: UInt8(ascii: "A"))!] = 0xFF
    #expect(bytes.withUnsafeBytes { SegmentJSON.segment(in: $0, 0..<bytes.count) } == nil)
  }

  @Test("a meeting's stored JSON is byte for byte WireJSON's, and each segment's words too")
  func meetingJSONIsWireJSON() throws {
    var generator = SystemRandomNumberGenerator()
    let texts = [
      "plain", "Zoë 🎉", "quote \" and \\ back", "tab\tnew\nline\u{1}\u{1f}", "/slash/", "",
      "\u{7f}\u{2028}",
    ]
    let numbers: [Double] = [
      0, -0.0, 1, 0.1, 1.5, 1e-7, 1e21, 123456.789, 5e-324, .greatestFiniteMagnitude, 2.5e-5,
    ]
    var meeting = Fixture.meeting(in: UUID(), said: [])
    for index in 0..<200 {
      let words = (0..<Int.random(in: 0...6, using: &generator)).map { _ in
        MeetingDocument.Word(
          text: texts.randomElement(using: &generator)!,
          start: numbers.randomElement(using: &generator)! * Double.random(in: 0...1),
          end: numbers.randomElement(using: &generator)!,
          confidence: Bool.random() ? nil : Double.random(in: 0...1))
      }
      var segment = MeetingDocument.Segment(
        speaker: texts.randomElement(using: &generator)!,
        start: Double(index) * 1.25, end: numbers.randomElement(using: &generator)!,
        text: texts.randomElement(using: &generator)!, words: words)
      if index % 17 == 0 {
        segment.original = .init(speaker: "Ana", text: "as heard", words: words)
      }
      // A segment's own clock (a correction's, or the recognition's) is written first.
      if index % 3 == 0 {
        segment.clock =
          index % 2 == 0
          ? MeetingDocument.recognitionClock : Fixture.clock(Int64(index), device: "b-\(index)")
      }
      meeting.segments.append(segment)
    }
    let json = try MeetingJSON(meeting)
    #expect(Array(json.bytes.readableBytesView) == (try WireJSON.bytes(of: meeting)))
    for (index, segment) in meeting.segments.enumerated() {
      #expect(Array(json.words(of: index).utf8) == (try WireJSON.bytes(of: segment.words)))
    }
  }
}
