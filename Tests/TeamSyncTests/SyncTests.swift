import Foundation
import GRDB
import SyncClient
import SyncUpsFeatures
import SyncUpsWire
import TestSupport
import Testing

@testable import TeamSync

/// The sync's rules with an injected client (`FakeTeamServer`, the real server's rules in
/// memory) and real SQLite files: push, retry, audio, pull, last writer wins, deletions.
@Suite("Team sync: push and pull rules")
struct SyncTests {
  @Test func aSyncPushesWhatChangedOnceAndThenNothing() async throws {
    let server = FakeTeamServer()
    let laptop = try Laptop()
    let syncUp = standup()
    try laptop.database.add(syncUp)
    try laptop.record(into: syncUp.id, segments: [segment("Ana", "the build is green", at: 1)])
    let report = try await laptop.sync(server)
    #expect(report.pushedSyncUps == 1)
    #expect(report.pushedMeetings == 1)
    #expect(report.line.hasPrefix("pushed 1 sync-up and 1 meeting"))
    #expect(try laptop.outbox().isEmpty)
    #expect(await server.meetings.count == 1)
    let again = try await laptop.sync(server)
    #expect(again.line == "up to date: nothing to push or pull")
    #expect(await server.bodies.count == 1)
  }

  /// The push id is stored before the push is sent; a push whose answer was lost is sent
  /// again byte for byte, and the server saves it once.
  @Test func aPushWhoseAnswerWasLostIsResentByteForByteAndSavedOnce() async throws {
    let server = FakeTeamServer()
    let laptop = try Laptop()
    try laptop.database.add(standup())
    await server.setFault(.answerLost)
    await #expect(throws: SyncFailure.self) { try await laptop.sync(server) }
    #expect(try laptop.outbox().count == 1, "the outbox lost a change")
    // A change meanwhile does not alter the push being retried.
    try laptop.database.add(standup("Second"))
    _ = try await laptop.sync(server)
    let bodies = await server.bodies
    #expect(bodies.count == 3)
    #expect(bodies[0] == bodies[1], "the retry was not the same bytes")
    #expect(bodies[2] != bodies[0])
    #expect(await server.saves == 2)
    #expect(await server.syncUps.count == 2)
    #expect(try laptop.outbox().isEmpty)
  }

  @Test func aServerDownBeforeSavingLosesNothingAndTheNextSyncFinishesIt() async throws {
    let server = FakeTeamServer()
    let laptop = try Laptop()
    try laptop.database.add(standup())
    await server.setFault(.downBeforeSaving)
    await #expect(throws: SyncFailure.self) { try await laptop.sync(server) }
    await server.setUnreachable(true)
    await #expect(throws: SyncFailure.self) { try await laptop.sync(server) }
    #expect(try laptop.outbox().count == 1)
    await server.setUnreachable(false)
    let report = try await laptop.sync(server)
    #expect(report.pushedSyncUps == 1)
    #expect(await server.saves == 1)
  }

  /// Audio goes first, named by its SHA-256 (checked against `sha256sum`), then the meeting
  /// that names it.
  @Test func audioIsUploadedByItsSHA256BeforeTheMeeting() async throws {
    let server = FakeTeamServer()
    let laptop = try Laptop()
    let syncUp = standup()
    try laptop.database.add(syncUp)
    let audio = Data((0..<70_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
    let id = try laptop.record(
      into: syncUp.id, segments: [segment("Ana", "hello", at: 0)], audio: audio)
    let report = try await laptop.sync(server)
    #expect(report.uploadedAudio == 1)
    let expected = try await sha256sum(
      laptop.folder.url.appendingPathComponent(DataDirectory.audioFile(of: id)))
    let calls = await server.calls
    #expect(calls.first == "upload \(expected)")
    #expect(calls.dropFirst().first?.hasPrefix("push ") == true)
    #expect(await server.meeting(id.rawValue)?.audio?.sha256 == expected)
    #expect(await server.meeting(id.rawValue)?.audio?.size == 70_000)
  }

  /// Two laptops that have synced print the same `syncups export`: sync-ups, attendees,
  /// vocabulary, meetings, segments, word times and confidences, audio.
  @Test func twoLaptopsThatSyncedExportTheSame() async throws {
    let server = FakeTeamServer()
    let a = try Laptop()
    let b = try Laptop()
    let syncUp = standup()
    try a.database.add(syncUp)
    try a.record(
      into: syncUp.id,
      segments: [
        segment("Ana", "the staging server is down", at: 0.5),
        segment("Ben", "grafana shows the disk is full", at: 4),
      ], audio: Data("not really flac".utf8))
    try b.database.add(standup("Design Review", attendees: ["Cleo"]))
    _ = try await a.sync(server)
    let pulled = try await b.sync(server)
    #expect(pulled.pulledSyncUps == 1)
    #expect(pulled.pulledMeetings == 1)
    #expect(pulled.downloadedAudio == 1)
    _ = try await a.sync(server)
    #expect(try a.export() == b.export())
    #expect(try a.syncUps().map(\.title) == ["Morning Sync", "Design Review"])
    let meeting = try #require(try b.syncUps().first?.meetings.first)
    let file = try #require(meeting.audioFile)
    #expect(
      try Data(contentsOf: b.folder.url.appendingPathComponent(file))
        == Data("not really flac".utf8))
    #expect(try b.outbox().isEmpty, "pulled writes entered the outbox")
  }

  /// Last writer wins, field by field: edits of different fields on two laptops both stand;
  /// of the same field, the later one.
  @Test func lastWriterWinsPerField() async throws {
    let server = FakeTeamServer()
    let a = try Laptop()
    let b = try Laptop()
    let syncUp = standup()
    try a.database.add(syncUp)
    _ = try await a.sync(server)
    _ = try await b.sync(server)
    var onA = syncUp
    onA.title = "Daily"
    onA.attendees.append(Attendee(id: Attendee.ID(UUID()), name: "Dev"))
    try a.database.edit(from: syncUp, to: onA)
    var onB = try #require(try b.syncUps().first)
    let before = onB
    onB.theme = .navy
    onB.title = "Standup"
    // B's clock runs a minute ahead of A's: its title is the later write, whatever the order
    // of the two commits here.
    try await b.database.writer.write { db in
      try db.execute(
        sql: "UPDATE syncDevice SET milliseconds = ?",
        arguments: [Int64(Date().timeIntervalSince1970 * 1000) + 60_000])
    }
    try b.database.edit(from: before, to: onB)
    _ = try await a.sync(server)
    _ = try await b.sync(server)
    _ = try await a.sync(server)
    for laptop in [a, b] {
      let merged = try #require(try laptop.syncUps().first)
      #expect(merged.title == "Standup")
      #expect(merged.theme == .navy)
      #expect(merged.attendees.map(\.name) == ["Ana", "Ben", "Dev"])
    }
    #expect(try a.export() == b.export())
  }

  @Test func aDeletedSyncUpIsDeletedEverywhere() async throws {
    let server = FakeTeamServer()
    let a = try Laptop()
    let b = try Laptop()
    let syncUp = standup()
    try a.database.add(syncUp)
    let meeting = try a.record(
      into: syncUp.id, segments: [segment("Ana", "hello", at: 0)], audio: Data([1, 2, 3]))
    _ = try await a.sync(server)
    _ = try await b.sync(server)
    let audio = b.folder.url.appendingPathComponent(DataDirectory.audioFile(of: meeting))
    #expect(FileManager.default.fileExists(atPath: audio.path))
    _ = try a.database.deleteSyncUps([syncUp.id])
    _ = try await a.sync(server)
    #expect(await server.syncUp(syncUp.id.rawValue)?.deleted.value == true)
    #expect(await server.meeting(meeting.rawValue)?.deleted == true)
    let report = try await b.sync(server)
    #expect(report.pulledSyncUps >= 1)
    #expect(try b.syncUps().isEmpty)
    #expect(!FileManager.default.fileExists(atPath: audio.path), "the audio stayed")
    #expect(try b.outbox().isEmpty)
    #expect(try a.export() == b.export())
  }

  /// A meeting recorded offline into a sync-up that another laptop deleted brings it back,
  /// on the server and on both laptops, rather than being lost.
  @Test func aMeetingRecordedOfflineIntoADeletedSyncUpBringsItBack() async throws {
    let server = FakeTeamServer()
    let a = try Laptop()
    let b = try Laptop()
    let syncUp = standup()
    try a.database.add(syncUp)
    try a.record(into: syncUp.id, segments: [segment("Ana", "old news", at: 0)])
    _ = try await a.sync(server)
    _ = try await b.sync(server)
    _ = try a.database.deleteSyncUps([syncUp.id])
    _ = try await a.sync(server)
    let offline = try b.record(
      into: syncUp.id, segments: [segment("Ben", "recorded offline", at: 0)])
    _ = try await b.sync(server)
    _ = try await a.sync(server)
    for laptop in [a, b] {
      let back = try #require(try laptop.syncUps().first)
      #expect(back.id == syncUp.id)
      #expect(back.meetings.map(\.id) == [offline])
    }
    #expect(try a.export() == b.export())
  }

  /// The pull side of the same rule: a deletion pulled while a meeting recorded here has not
  /// been pushed keeps the sync-up (and a recording in progress keeps it too).
  @Test func aPulledDeletionKeepsASyncUpWithAMeetingNotYetPushed() throws {
    let laptop = try Laptop()
    let syncUp = standup()
    try laptop.database.add(syncUp)
    try laptop.record(into: syncUp.id, segments: [segment("Ben", "offline", at: 0)])
    var deleted = try laptop.database.writer.read {
      try #require(try StoredDocuments.syncUp(syncUp.id.rawValue.lowercasedString, $0))
    }
    // Later than every clock here, and within the drift a laptop adopts.
    let later = Int64(Date().timeIntervalSince1970 * 1000) + 60_000
    deleted.deleted = Stamped(true, at: HybridClock(milliseconds: later, device: "other"))
    try laptop.database.writer.write { db in
      _ = try PulledChanges.apply(
        PulledChanges.KeptPage(
          ChangesPage(version: 1, more: false, syncUps: [deleted], meetings: []), now: Date()),
        audioFiles: [:], directory: nil, db)
    }
    #expect(try laptop.syncUps().count == 1)
    // Without a meeting waiting, the same deletion deletes it.
    try laptop.database.writer.write { db in try db.execute(sql: "DELETE FROM syncOutbox") }
    try laptop.database.writer.write { db in
      _ = try PulledChanges.apply(
        PulledChanges.KeptPage(
          ChangesPage(version: 2, more: false, syncUps: [deleted], meetings: []), now: Date()),
        audioFiles: [:], directory: nil, db)
    }
    #expect(try laptop.syncUps().isEmpty)
  }

  /// A meeting that arrives before its sync-up (the sync-up changed later, so its version is
  /// later) waits, and is applied when the sync-up comes.
  @Test func aMeetingPulledBeforeItsSyncUpWaitsForIt() async throws {
    let server = FakeTeamServer()
    let a = try Laptop()
    let b = try Laptop()
    let syncUp = standup()
    try a.database.add(syncUp)
    try a.record(into: syncUp.id, segments: [segment("Ana", "first", at: 0)])
    _ = try await a.sync(server)
    var renamed = try #require(try a.syncUps().first)
    let before = renamed
    renamed.title = "Renamed"
    try a.database.edit(from: before, to: renamed)
    _ = try await a.sync(server)
    // Pages of one document: the meeting (version 2) comes before the sync-up (version 3).
    let callsBefore = await server.calls.count
    let report = try await b.sync(server, pageLimit: 1)
    #expect(report.pulledMeetings == 1)
    #expect(try b.syncUps().first?.meetings.count == 1)
    #expect(try b.syncUps().first?.title == "Renamed")
    #expect(await server.calls.dropFirst(callsBefore) == ["changes 0", "changes 2"])
    let parked = try await b.database.writer.read { db in
      try Int.fetchOne(db, sql: "SELECT count(*) FROM syncParked")
    }
    #expect(parked == 0)
  }

  /// The cursor is the truth: a sync asks only for what changed after the last page it applied.
  @Test func eachPullStartsFromTheStoredCursor() async throws {
    let server = FakeTeamServer()
    let a = try Laptop()
    try a.database.add(standup())
    _ = try await a.sync(server)
    _ = try await a.sync(server)
    let pulls = await server.calls.filter { $0.hasPrefix("changes") }
    #expect(pulls == ["changes 0", "changes 1"])
  }

  /// A sync-up deleted here whose deletion has not been pushed comes back when a meeting
  /// recorded elsewhere arrives for it, and its return is pushed.
  @Test func aLocalDeletionNotYetPushedGivesWayToAMeetingFromElsewhere() async throws {
    let server = FakeTeamServer()
    let a = try Laptop()
    let b = try Laptop()
    let syncUp = standup()
    try a.database.add(syncUp)
    _ = try await a.sync(server)
    _ = try await b.sync(server)
    let meeting = try b.record(into: syncUp.id, segments: [segment("Cleo", "from b", at: 0)])
    _ = try await b.sync(server)
    _ = try a.database.deleteSyncUps([syncUp.id])
    // A pulls before it pushes: apply the server's changes by hand.
    let page = try await server.changes(since: 1, limit: 100)
    try await a.database.writer.write { db in
      _ = try PulledChanges.apply(
        PulledChanges.KeptPage(page, now: Date()), audioFiles: [:], directory: nil, db)
    }
    #expect(try a.syncUps().first?.meetings.map(\.id) == [meeting])
    _ = try await a.sync(server)
    _ = try await b.sync(server)
    #expect(await server.syncUp(syncUp.id.rawValue)?.deleted.value == false)
    #expect(try a.export() == b.export())
  }

  /// A change made while its push is in flight keeps its outbox row, and is pushed next (by
  /// the same sync's next push), not dropped.
  @Test func aChangeDuringAPushIsPushedNext() async throws {
    let server = FakeTeamServer()
    let laptop = try Laptop()
    let syncUp = standup()
    try laptop.database.add(syncUp)
    let database = laptop.database
    await server.setDuringPush {
      var edited = syncUp
      edited.title = "Changed in flight"
      try database.edit(from: syncUp, to: edited)
    }
    _ = try await laptop.sync(server)
    #expect(await server.bodies.count == 2)
    #expect(await server.syncUp(syncUp.id.rawValue)?.title.value == "Changed in flight")
    #expect(try laptop.outbox().isEmpty)
  }

  /// One sync at a time per data directory: a second one asked for waits for the first and
  /// finds nothing left to push; `record`'s own leaves at once.
  @Test func twoSyncsAtOnceTakeTurns() async throws {
    let server = FakeTeamServer()
    let laptop = try Laptop()
    try laptop.database.add(standup())
    let held = try SyncLock(directory: laptop.folder.url, waiting: false)
    let sync = TeamSync(database: laptop.database, team: testTeam, client: server.client())
    await #expect(throws: TeamSync.Busy.self) { try await sync.run() }
    held.release()
    async let first = sync.run(waitForOthers: true)
    async let second = sync.run(waitForOthers: true)
    let reports = try await [first, second]
    #expect(reports.map(\.pushedSyncUps).sorted() == [0, 1])
    #expect(await server.bodies.count == 1)
  }

  @Test(arguments: [0, 1, 55, 56, 63, 64, 65, 1_000_003])
  func sha256MatchesSha256sum(size: Int) async throws {
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    let file = folder.file("data")
    try Data((0..<size).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 8) }).write(to: file)
    #expect(try SHA256Hasher.file(file) == (try await sha256sum(file)))
  }
}

func sha256sum(_ file: URL) async throws -> String {
  let child = try ChildProcess(tool: "sha256sum", [file.path])
  let finished = await child.finished()
  return String(finished.stdout.prefix(64))
}
