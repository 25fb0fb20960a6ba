import Crypto
import Foundation
import Hummingbird
import HummingbirdTesting
import SyncUpsServer
import SyncUpsWire
import Testing

@Suite(
  .enabled(
    if: TestPostgres.available,
    "skipped: no PostgreSQL for the server's tests (.ci/postgres could not start one)"))
struct ServerAPITests {
  @Test func twoServersMigratingAtOnceMigrateOnce() async throws {
    let server = try await TestServer.make()
    // make() migrated already; two more at once find nothing to do, and a fresh database
    // migrated by two at once gets each migration once.
    let ran = try await withThrowingTaskGroup(of: Int.self) { group in
      for _ in 0..<2 { group.addTask { try await server.store { try await $0.migrate() } } }
      return try await group.reduce(0, +)
    }
    #expect(ran == 0)
  }

  @Test func everyRouteNeedsAValidToken() async throws {
    let server = try await TestServer.make()
    try await server.test { http, store in
      let missing = try await http.send(.get, "/api/v1/sync-ups", token: nil)
      #expect(missing.status == .unauthorized)
      #expect(missing.errorMessage?.contains("Authorization: Bearer") == true)
      let wrong = try await http.send(
        .get, "/api/v1/sync-ups", token: "sut_" + String(repeating: "0", count: 64))
      #expect(wrong.status == .unauthorized)
      #expect(wrong.errorMessage != nil)
      let audio = try await http.send(.get, "/audio/\(UUID())", token: nil)
      #expect(audio.status == .unauthorized)
      #expect(
        try await http.send(.get, "/api/v1/sync-ups", token: server.readerToken).status == .ok)
      // Revoked: refused at the very next request.
      let (id, token) = try await store.createToken(for: "Ana")
      #expect(try await http.send(.get, "/api/v1/search?q=x", token: token).status == .ok)
      try await store.revokeToken(id: id)
      let revoked = try await http.send(.get, "/api/v1/search?q=x", token: token)
      #expect(revoked.status == .unauthorized)
      #expect(revoked.errorMessage?.contains("revoked") == true)
    }
  }

  @Test func aReaderCannotPush() async throws {
    let server = try await TestServer.make()
    try await server.test { http, store in
      let syncUp = Fixture.syncUp()
      let response = try await http.push(
        Push(device: UUID(), pushID: UUID(), syncUps: [syncUp]), token: server.readerToken)
      #expect(response.status == .forbidden)
      #expect(response.errorMessage?.contains("Ben may read but not push") == true)
      let upload = try await http.send(
        .put, "/api/v1/audio/\(String(repeating: "a", count: 64))", token: server.readerToken,
        body: Data("x".utf8))
      #expect(upload.status == .forbidden)
      #expect(try await store.currentVersion() == 0)
    }
  }

  @Test func pushedMeetingsAreReadSearchedAndPulled() async throws {
    let server = try await TestServer.make()
    try await server.test { http, _ in
      let audio = Data((0..<1000).map { UInt8($0 % 251) })
      let sha = SHA256.hash(data: audio).map { String(format: "%02x", $0) }.joined()
      let upload = try await http.send(
        .put, "/api/v1/audio/\(sha)", token: server.writerToken, body: audio)
      #expect(upload.status == .created)
      let syncUp = Fixture.syncUp()
      let meeting = Fixture.meeting(
        in: syncUp.id,
        said: [
          ("Ana", "it has been very slow since monday"),
          ("Ben", "the staging server is down again"),
          ("Ana", "we should migrate the logs to the new server"),
        ],
        audio: .init(sha256: sha, size: Int64(audio.count), type: "audio/flac"))
      let pushed = try await http.push(
        Push(device: UUID(), pushID: UUID(), syncUps: [syncUp], meetings: [meeting]),
        token: server.writerToken)
      #expect(pushed.status == .ok, "\(pushed.text)")
      let receipt = try pushed.decode(PushReceipt.self)
      #expect(receipt.syncUps == 1 && receipt.meetings == 1 && receipt.version == 2)

      try await expectTheListsShow(meeting, of: syncUp, http: http, server: server)
      try await expectSearchFindsTheMeetingsWords(meeting, of: syncUp, http: http, server: server)
      try await expectAPullGivesWhatWasPushed(meeting, of: syncUp, http: http, server: server)
      try await expectTheAudioIsServedWholeAndInRanges(
        audio, sha: sha, of: meeting, http: http, server: server)
    }
  }

  @Test func aRetriedPushSavesOnce() async throws {
    let server = try await TestServer.make()
    try await server.test { http, store in
      let syncUp = Fixture.syncUp()
      let push = Push(
        device: UUID(), pushID: UUID(), syncUps: [syncUp],
        meetings: [Fixture.meeting(in: syncUp.id, said: [("Ana", "hello team")])])
      let first = try await http.push(push, token: server.writerToken)
      let again = try await http.push(push, token: server.writerToken)
      #expect(first.status == .ok && again.status == .ok)
      #expect(try first.decode(PushReceipt.self) == again.decode(PushReceipt.self))
      #expect(try await store.currentVersion() == 2)
      let hits = try await store.search(TeamSearchQuery(text: "hello"))
      #expect(hits.count == 1)
    }
  }

  @Test func tenLaptopsPushingAtOnceAreAllKept() async throws {
    let server = try await TestServer.make()
    try await server.test { http, store in
      let syncUp = Fixture.syncUp()
      let statuses = try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
        for laptop in 0..<10 {
          group.addTask {
            let push = Push(
              device: UUID(), pushID: UUID(),
              syncUps: [Fixture.syncUp(syncUp.id, at: Int64(laptop))],
              meetings: [Fixture.meeting(in: syncUp.id, said: [("Ana", "laptop number \(laptop)")])]
            )
            return try await http.push(push, token: server.writerToken).status
          }
        }
        return try await group.reduce(into: []) { $0.append($1) }
      }
      #expect(statuses == Array(repeating: .ok, count: 10))
      let summary = try await store.syncUps()
      #expect(summary.map(\.meetings) == [10])
      #expect(try await store.search(TeamSearchQuery(text: "laptop")).count == 10)
    }
  }

  /// The lists read what each write keeps beside a meeting (its number of segments, its first
  /// words, its sync-up's count of live meetings): a meeting pushed again, moved to another
  /// sync-up or deleted is counted and shown as it is now.
  @Test func theListsFollowEveryWriteOfAMeeting() async throws {
    let server = try await TestServer.make()
    try await server.test { http, store in
      let standup = Fixture.syncUp(title: "Standup")
      let retro = Fixture.syncUp(title: "Retro")
      func push(_ meetings: [MeetingDocument], syncUps: [SyncUpDocument] = []) async throws {
        let response = try await http.push(
          Push(device: UUID(), pushID: UUID(), syncUps: syncUps, meetings: meetings),
          token: server.writerToken)
        #expect(response.status == .ok)
      }
      func counts() async throws -> [String: Int] {
        Dictionary(uniqueKeysWithValues: try await store.syncUps().map { ($0.title, $0.meetings) })
      }
      let first = Fixture.meeting(in: standup.id, said: [("Ana", "the build is green")], at: 2)
      let second = Fixture.meeting(in: standup.id, said: [("Ben", "no blockers")], at: 2)
      try await push([first, second], syncUps: [standup, retro])
      #expect(try await counts() == ["Standup": 2, "Retro": 0])

      var longer = Fixture.meeting(
        first.id, in: standup.id,
        said: [("Ana", "the build is green again today after the fix"), ("Ben", "good")], at: 3)
      longer.date = first.date
      try await push([longer])
      let page = try await store.meetings(of: standup.id, limit: 20, before: nil)
      let summary = try #require(page.meetings.first { $0.id == first.id })
      #expect(summary.segments == 2)
      #expect(summary.firstWords == "the build is green again today after the")
      #expect(try await counts() == ["Standup": 2, "Retro": 0])

      var moved = longer
      moved.syncUpID = retro.id
      moved.clock = Fixture.clock(4)
      try await push([moved])
      #expect(try await counts() == ["Standup": 1, "Retro": 1])

      var deleted = second
      deleted.deleted = true
      deleted.clock = Fixture.clock(5)
      try await push([deleted])
      #expect(try await counts() == ["Standup": 0, "Retro": 1])
      #expect(try await store.meetings(of: standup.id, limit: 20, before: nil).meetings.isEmpty)
    }
  }

  @Test func lastWriterWinsPerFieldAndAMeetingBringsADeletedSyncUpBack() async throws {
    let server = try await TestServer.make()
    try await server.test { http, store in
      let original = Fixture.syncUp(title: "Standup", at: 1)
      var ana = original
      ana.title = Stamped("Morning Sync", at: Fixture.clock(5, device: "ana"))
      var ben = original
      ben.theme = Stamped("poppy", at: Fixture.clock(4, device: "ben"))
      ben.title = Stamped("Old title", at: Fixture.clock(3, device: "ben"))
      for document in [original, ana, ben] {
        let response = try await http.push(
          Push(device: UUID(), pushID: UUID(), syncUps: [document]), token: server.writerToken)
        #expect(response.status == .ok)
      }
      var summary = try await store.syncUps()
      #expect(summary.map(\.title) == ["Morning Sync"])
      #expect(summary.map(\.theme) == ["poppy"])

      var deleted = ana
      deleted.deleted = Stamped(true, at: Fixture.clock(10, device: "ana"))
      _ = try await http.push(
        Push(device: UUID(), pushID: UUID(), syncUps: [deleted]), token: server.writerToken)
      #expect(try await store.syncUps().isEmpty)
      // Ben recorded into it offline, before he heard of the deletion.
      let meeting = Fixture.meeting(in: original.id, said: [("Ben", "recorded offline")], at: 8)
      let response = try await http.push(
        Push(device: UUID(), pushID: UUID(), meetings: [meeting]), token: server.writerToken)
      #expect(response.status == .ok)
      summary = try await store.syncUps()
      #expect(summary.map(\.title) == ["Morning Sync"])
      #expect(summary.map(\.meetings) == [1])
    }
  }

  @Test func aWaitingPullIsWokenByAPush() async throws {
    let server = try await TestServer.make()
    try await server.test(.live) { http, store in
      let started = ContinuousClock.now
      async let pulled = http.send(
        .get, "/api/v1/sync/changes?since=0&wait=30", token: server.readerToken)
      try await Task.sleep(for: .milliseconds(300))
      // Another laptop's push (through the store: the test client has one connection, busy).
      let syncUp = Fixture.syncUp()
      let ana = try #require(try await store.person(named: "Ana"))
      _ = try await store.save(Push(device: UUID(), pushID: UUID(), syncUps: [syncUp]), by: ana)
      let page = try await pulled.decode(ChangesPage.self)
      #expect(page.syncUps == [syncUp])
      // Woken by NOTIFY, not by the 30 s timeout (a safety net far above a normal run).
      #expect(ContinuousClock.now - started < .seconds(25))
    }
  }
}

/// The checks of what a push keeps, as the API serves it back to a reader.
extension ServerAPITests {
  /// The sync-up's list, its page of meetings and the meeting itself.
  func expectTheListsShow(
    _ meeting: MeetingDocument, of syncUp: SyncUpDocument, http: any TestClientProtocol,
    server: TestServer,
    sourceLocation: SourceLocation = #_sourceLocation
  ) async throws {
    let list = try await http.send(.get, "/api/v1/sync-ups", token: server.readerToken)
    #expect(
      try list.decode([SyncUpSummary].self) == [
        SyncUpSummary(
          id: syncUp.id, title: "Morning Sync", theme: "teal", duration: 300,
          attendees: ["Ana", "Ben"], meetings: 1, team: "team")
      ], sourceLocation: sourceLocation)
    let page = try await http.send(
      .get, "/api/v1/sync-ups/\(syncUp.id)/meetings", token: server.readerToken
    ).decode(MeetingsPage.self)
    #expect(page.meetings.map(\.id) == [meeting.id], sourceLocation: sourceLocation)
    #expect(
      page.meetings.first?.firstWords == "it has been very slow since monday",
      sourceLocation: sourceLocation)
    #expect(page.next == nil, sourceLocation: sourceLocation)

    let read = try await http.send(
      .get, "/api/v1/meetings/\(meeting.id)", token: server.readerToken)
    #expect(try read.decode(MeetingDocument.self) == meeting, sourceLocation: sourceLocation)
  }

  /// Stop words are kept, so phrases of them match as in FTS5; stems match (servers).
  func expectSearchFindsTheMeetingsWords(
    _ meeting: MeetingDocument, of syncUp: SyncUpDocument, http: any TestClientProtocol,
    server: TestServer,
    sourceLocation: SourceLocation = #_sourceLocation
  ) async throws {
    for (query, expected) in [
      ("\"it has been\"", ["it has been very slow since monday"]),
      ("\"staging server\"", ["the staging server is down again"]),
      ("migr*", ["we should migrate the logs to the new server"]),
      (
        "servers",
        ["the staging server is down again", "we should migrate the logs to the new server"]
      ),
      ("kubernetes", []),
    ] {
      let encoded = query.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
      let hits = try await http.send(
        .get, "/api/v1/search?q=\(encoded)", token: server.readerToken
      )
      .decode([SearchHit].self)
      #expect(Set(hits.map(\.text)) == Set(expected), "\(query)", sourceLocation: sourceLocation)
    }
    let filtered = try await http.send(
      .get, "/api/v1/search?q=server&speaker=ben&since=2025-11-26&syncUp=\(syncUp.id)",
      token: server.readerToken
    ).decode([SearchHit].self)
    #expect(
      filtered == [
        SearchHit(
          syncUp: "Morning Sync", meeting: meeting.id.uuidString.lowercased(), date: meeting.date,
          speaker: "Ben", start: 5, end: 9, text: "the staging server is down again")
      ], sourceLocation: sourceLocation)
    let later = try await http.send(
      .get, "/api/v1/search?q=server&since=2026-01-01", token: server.readerToken)
    #expect(try later.decode([SearchHit].self).isEmpty, sourceLocation: sourceLocation)
  }

  /// Changes since 0 are the push; since its version, nothing.
  func expectAPullGivesWhatWasPushed(
    _ meeting: MeetingDocument, of syncUp: SyncUpDocument, http: any TestClientProtocol,
    server: TestServer,
    sourceLocation: SourceLocation = #_sourceLocation
  ) async throws {
    let changes = try await http.send(
      .get, "/api/v1/sync/changes?since=0", token: server.readerToken
    )
    .decode(ChangesPage.self)
    #expect(
      changes.syncUps == [syncUp] && changes.meetings == [meeting], sourceLocation: sourceLocation)
    #expect(changes.version == 2 && !changes.more, sourceLocation: sourceLocation)
    let none = try await http.send(
      .get, "/api/v1/sync/changes?since=2", token: server.readerToken
    )
    .decode(ChangesPage.self)
    #expect(
      none.syncUps.isEmpty && none.meetings.isEmpty && none.version == 2,
      sourceLocation: sourceLocation)
  }

  /// The meeting's audio whole, in ranges, past its end and unchanged since the tag.
  func expectTheAudioIsServedWholeAndInRanges(
    _ audio: Data, sha: String, of meeting: MeetingDocument, http: any TestClientProtocol,
    server: TestServer,
    sourceLocation: SourceLocation = #_sourceLocation
  ) async throws {
    let whole = try await http.send(.get, "/audio/\(meeting.id)", token: server.readerToken)
    #expect(whole.status == .ok, sourceLocation: sourceLocation)
    #expect(Data(whole.body.readableBytesView) == audio, sourceLocation: sourceLocation)
    #expect(whole.headers[.acceptRanges] == "bytes", sourceLocation: sourceLocation)
    #expect(whole.headers[.eTag] == "\"\(sha)\"", sourceLocation: sourceLocation)
    #expect(whole.headers[.contentType] == "audio/flac", sourceLocation: sourceLocation)
    for (range, expected, contentRange) in [
      ("bytes=0-9", audio[0..<10], "bytes 0-9/1000"),
      ("bytes=990-", audio[990..<1000], "bytes 990-999/1000"),
      ("bytes=-5", audio[995..<1000], "bytes 995-999/1000"),
      ("bytes=995-5000", audio[995..<1000], "bytes 995-999/1000"),
    ] {
      let part = try await http.send(
        .get, "/audio/\(meeting.id)", token: server.readerToken, headers: [.range: range])
      #expect(part.status == .partialContent, "\(range)", sourceLocation: sourceLocation)
      #expect(
        Data(part.body.readableBytesView) == Data(expected), "\(range)",
        sourceLocation: sourceLocation)
      #expect(part.headers[.contentRange] == contentRange, sourceLocation: sourceLocation)
    }
    let past = try await http.send(
      .get, "/audio/\(meeting.id)", token: server.readerToken, headers: [.range: "bytes=1000-"])
    #expect(past.status == .rangeNotSatisfiable, sourceLocation: sourceLocation)
    #expect(past.headers[.contentRange] == "bytes */1000", sourceLocation: sourceLocation)
    #expect(past.errorMessage?.contains("past the end") == true, sourceLocation: sourceLocation)
    let cached = try await http.send(
      .get, "/audio/\(meeting.id)", token: server.readerToken,
      headers: [.ifNoneMatch: "\"\(sha)\""])
    #expect(cached.status == .notModified, sourceLocation: sourceLocation)
  }
}
