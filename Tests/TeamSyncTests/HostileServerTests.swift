import Foundation
import GRDB
import SyncClient
import SyncUpsFeatures
import SyncUpsWire
import TestSupport
import Testing

@testable import TeamSync

/// What a server sends (a teammate's mistake passed on, or a server that means harm) is kept
/// by the rules the laptop's own commands save by: what breaks them is left out and said, the
/// cursor moves on, and no clock from the far future is adopted.
struct HostileServerTests {
  /// A server that answers each pull with the next of `pages` (then nothing), and takes pushes.
  actor PageServer {
    var pages: [ChangesPage]
    var pushed: [Push] = []
    init(_ pages: [ChangesPage]) { self.pages = pages }

    func next(since: Int64) -> ChangesPage {
      pages.isEmpty
        ? ChangesPage(version: since, more: false, syncUps: [], meetings: [])
        : pages.removeFirst()
    }

    func push(_ body: Data) throws -> PushReceipt {
      let push = try WireJSON.decoder().decode(Push.self, from: body)
      pushed.append(push)
      return PushReceipt(pushID: push.pushID, version: 0, syncUps: push.syncUps.count, meetings: 0)
    }

    nonisolated var client: SyncClient {
      SyncClient(
        check: { _ in TeamMember() }, push: { _, body in try await self.push(body) },
        changes: { _, since, _, _ in await self.next(since: since) },
        uploadAudio: { _, _, _ in }, downloadAudio: { _, _, _ in false }, search: { _, _ in [] })
    }
  }

  static func document(title: String = "Planning", duration: Double = 300, at clock: HybridClock)
    -> SyncUpDocument
  {
    SyncUpDocument(
      id: UUID(), title: Stamped(title, at: clock), theme: Stamped("teal", at: clock),
      duration: Stamped(duration, at: clock),
      attendees: Stamped([.init(id: UUID(), name: "Ana")], at: clock),
      vocabulary: Stamped([], at: clock), deleted: Stamped(false, at: clock))
  }

  static var now: Int64 { Int64(Date().timeIntervalSince1970 * 1000) }

  @Test func aDocumentThatBreaksTheRulesIsLeftOutSaidAndPassedOver() async throws {
    let laptop = try Laptop()
    let clock = HybridClock(milliseconds: Self.now - 1000, device: "other")
    let absurd = Self.document(title: "Absurd", duration: 1e300, at: clock)
    let fine = Self.document(at: clock)
    var long = MeetingDocument(
      id: UUID(), syncUpID: fine.id, date: Date(), length: 1e300, segments: [], audio: nil,
      clock: clock)
    long.segments = [.init(speaker: "Ana", start: 0, end: 1, text: "hi")]
    let server = PageServer([
      ChangesPage(version: 7, more: false, syncUps: [absurd, fine], meetings: [long])
    ])
    let report = try await TeamSync(
      database: laptop.database, team: testTeam, client: server.client
    )
    .run()
    #expect(try laptop.syncUps().map(\.title) == ["Planning"])
    #expect(report.pulledSyncUps == 1)
    #expect(report.skipped.count == 2)
    #expect(report.line.contains("left out 2 documents that break the rules"))
    let status = try TeamSyncStatus.read(laptop.database)
    #expect(status.version == 7, "the cursor moves past what was left out")
    #expect(status.lastSkipped?.contains("is not between 0 and 86400 s") == true)
    #expect(report.skipped.first?.contains("a sync-up lasts between 1s and 24h") == true)
  }

  @Test func aClockFromTheFarFutureIsNeitherKeptNorAdoptedAndLaterEditsStillLand() async throws {
    let laptop = try Laptop()
    let local = standup()
    try laptop.database.add(local)
    let poisoned = HybridClock(milliseconds: 9_999_999_999_999_999, device: "zzzz")
    var takeover = try await laptop.database.writer.read {
      try #require(try StoredDocuments.syncUp(local.id.rawValue.lowercasedString, $0))
    }
    takeover.title = Stamped("Owned", at: poisoned)
    let server = PageServer([
      ChangesPage(version: 3, more: false, syncUps: [takeover], meetings: [])
    ])
    let sync = TeamSync(database: laptop.database, team: testTeam, client: server.client)
    let report = try await sync.run()
    #expect(report.skipped.count == 1)
    #expect(report.skipped.first?.contains("minutes ahead of this computer's time") == true)
    #expect(try laptop.syncUps().first?.title == "Morning Sync")
    let device = try await laptop.database.writer.read { db in
      try Int64.fetchOne(db, sql: "SELECT milliseconds FROM syncDevice")
    }
    #expect(try #require(device) < Self.now + 60_000, "the far clock is not adopted")
    // A later edit here is stamped with a clock that reads, and is pushed.
    var renamed = try #require(try laptop.syncUps().first)
    let before = renamed
    renamed.title = "Renamed here"
    try laptop.database.edit(from: before, to: renamed)
    _ = try await sync.run()
    let pushed = await server.pushed.last?.syncUps.first
    #expect(pushed?.title.value == "Renamed here")
    #expect(try #require(pushed?.title.clock).milliseconds > 1_700_000_000_000)
    #expect(try #require(pushed?.title.clock).isAhead(of: Date()) == false)
  }

  @Test func aStoredClockThatCannotBeReadIsAnErrorNeverTheZeroClock() async throws {
    let laptop = try Laptop()
    let local = standup()
    try laptop.database.add(local)
    let id = local.id.rawValue.lowercasedString
    try await laptop.database.writer.write { db in
      try db.execute(
        sql: "UPDATE syncClock SET clock = '10000000000000000-0000-x' WHERE entityId = ?",
        arguments: [id])
    }
    #expect(throws: UnreadableClock.self) {
      try laptop.database.writer.read { try StoredDocuments.clocks(id, $0) }
    }
    let sync = TeamSync(database: laptop.database, team: testTeam, client: PageServer([]).client)
    await #expect(throws: SyncFailure.self) { try await sync.run() }
    #expect(try TeamSyncStatus.read(laptop.database).waiting == 1, "nothing was lost")
  }

  /// Random pages, absurd and odd, pulled by a laptop: each document is applied or left out in
  /// words, nothing crashes, and the laptop's own commands still read what it holds.
  @Test func randomPagesArePulledWithoutCrashing() async throws {
    let laptop = try Laptop()
    var documents = HostileDocuments(seed: 32)
    var pages: [ChangesPage] = []
    var undecodable = 0
    for version in 1...200 {
      do {
        pages.append(
          try WireJSON.decoder().decode(
            ChangesPage.self, from: documents.page(version: Int64(version))))
      } catch {
        undecodable += 1
      }
    }
    let server = PageServer(pages)
    let sync = TeamSync(database: laptop.database, team: testTeam, client: server.client)
    var skipped = 0
    var pulled = 0
    for _ in pages {
      // Waiting for the sync lock: a child another test spawns at that moment can hold a copy
      // of its descriptor (and so the lock) until it execs.
      let report = try await sync.run(waitForOthers: true)
      skipped += report.skipped.count
      pulled += report.pulledSyncUps + report.pulledMeetings
    }
    #expect(skipped > 0)
    #expect(pulled > 0, "\(pages.count) pages, \(undecodable) undecodable, \(skipped) skipped")
    for syncUp in try laptop.syncUps() {
      #expect(throws: Never.self) { try syncUp.validated() }
      for meeting in syncUp.meetings {
        #expect(throws: Never.self) { try meeting.validated() }
      }
    }
    _ = try laptop.export()
  }
}
