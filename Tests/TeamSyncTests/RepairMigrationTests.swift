import Foundation
import GRDB
import SyncUpsFeatures
import SyncUpsWire
import TestSupport
import Testing

@testable import SyncUpsStore
@testable import TeamSync

/// What a laptop stored before the rules held it (issue 43): a clock far in the future, a
/// correction with direction marks or an over-long word. Each kept the laptop from ever syncing
/// again; the migrations repair it, and the next sync goes through.
@Suite("Team sync: what was stored before the rules is repaired")
struct RepairMigrationTests {
  static let syncUp = "00000000-0000-4000-8000-000000000001"
  static let meeting = "00000000-0000-4000-8000-000000000002"
  /// 2100-01-01, the instant a poisoned device clock had reached.
  static let future: Int64 = 4_102_444_800_000

  /// A data directory whose database is at migration 12 (before this change), holding a
  /// sync-up and a finished meeting of two segments, made by the schema's own triggers.
  static func oldStore(_ change: (Database) throws -> Void) throws -> TemporaryDirectory {
    let folder = try TemporaryDirectory()
    let queue = try DatabaseQueue(path: folder.file("syncups.sqlite").path)
    try Schema.migrator.migrate(queue, upTo: "v12: words counted")
    let words = { (text: String) in
      let list = text.split(separator: " ").enumerated().map { index, word in
        [
          "word": String(word), "start": 1 + Double(index), "end": 1.5 + Double(index),
          "confidence": 0.5,
        ]
      }
      return String(decoding: try! JSONSerialization.data(withJSONObject: list), as: UTF8.self)
    }
    try queue.write { db in
      try db.execute(
        sql: """
          INSERT INTO syncUp (id, position, title, durationMilliseconds, theme)
            VALUES (:syncUp, 0, 'Old', 300000, 'sky');
          INSERT INTO attendee (id, syncUpId, position, name)
            VALUES ('00000000-0000-4000-8000-0000000000a1', :syncUp, 0, 'Ana');
          INSERT INTO meeting (id, syncUpId, date, isFinished, length)
            VALUES (:meeting, :syncUp, 1795000000, 0, 60);
          INSERT INTO segment (meetingId, ordinal, speaker, startTime, endTime, text, words)
            VALUES (:meeting, 0, 'Ana', 1, 3, 'hello there', :first),
              (:meeting, 1, 'Ana', 4, 6, 'fine thanks', :second);
          UPDATE meeting SET isFinished = 1 WHERE id = :meeting;
          """,
        arguments: [
          "syncUp": syncUp, "meeting": meeting, "first": words("hello there"),
          "second": words("fine thanks"),
        ])
      try change(db)
    }
    try queue.close()
    return folder
  }

  /// The laptop's clocks, none of them ahead of now by more than the drift, and every one
  /// readable as itself.
  static func expectClocksWithinTheDrift(_ laptop: Laptop) throws {
    let now = Date()
    try laptop.database.writer.read { db in
      for text in try String.fetchAll(db, sql: "SELECT clock FROM syncClock") {
        let clock = try #require(HybridClock(text))
        #expect(clock.description == text && !clock.isAhead(of: now), "\(text)")
      }
      let device = try #require(try Int64.fetchOne(db, sql: "SELECT milliseconds FROM syncDevice"))
      #expect(Double(device) <= (now.timeIntervalSince1970 + HybridClock.maximumDrift) * 1000)
    }
  }

  /// Every push the server received keeps the rules it checks (drift included).
  static func expectEveryPushKeepsTheRules(_ server: FakeTeamServer) async throws {
    for body in await server.bodies {
      let push = try WireJSON.decoder().decode(Push.self, from: body)
      #expect(throws: Never.self) { try push.check(now: Date()) }
    }
  }

  @Test func aFarFutureClockStoredBeforeTheFixIsStampedWithinTheDriftAndSyncs() async throws {
    let device = HybridClock(milliseconds: Self.future, counter: 9999, device: "poisoned")
    let folder = try Self.oldStore { db in
      // A device clock pushed to 2100 by a pulled reading, the title stamped by it, a segment
      // corrected then, and a push stored with those clocks (which the server refuses).
      try db.execute(
        sql: "UPDATE syncDevice SET milliseconds = ?, counter = 9999", arguments: [Self.future])
      try db.execute(
        sql: "UPDATE syncClock SET clock = ? WHERE entityId = ? AND field = 'title'",
        arguments: [device.description, Self.syncUp])
      try db.execute(
        sql: "INSERT INTO syncClock (entityId, field, clock) VALUES (?, 'segment:1', ?)",
        arguments: [Self.meeting, device.description])
      try db.execute(
        sql: "INSERT INTO syncClock (entityId, field, clock) VALUES (?, 'learned', 'not-a-clock')",
        arguments: ["00000000-0000-4000-8000-0000000000a1"])
      try db.execute(
        sql: "INSERT INTO syncPendingPush (pushId, body, entries, audio) VALUES (?, ?, '[]', '[]')",
        arguments: [UUID().uuidString.lowercased(), Data("{}".utf8)])
    }
    let laptop = try Laptop(folder: folder)
    try Self.expectClocksWithinTheDrift(laptop)
    let clocks = try laptop.clocks(Self.meeting)
    let (meetingClock, segmentClock) = (clocks["meeting"] ?? "", clocks["segment:1"] ?? "")
    #expect(meetingClock > segmentClock && !segmentClock.isEmpty, "\(clocks)")
    #expect(try await laptop.database.pendingPush() == nil)
    let server = FakeTeamServer()
    let report = try await laptop.sync(server)
    #expect(report.pushedSyncUps == 1 && report.pushedMeetings == 1, "\(report.line)")
    #expect(await server.syncUp(UUID(uuidString: Self.syncUp)!)?.title.value == "Old")
    try await Self.expectEveryPushKeepsTheRules(server)
    #expect(try laptop.outbox().isEmpty)
  }

  @Test func aCorrectionThatBreaksTheRulesIsRepairedAndSyncs() async throws {
    let long = String(repeating: "a", count: 150)
    let folder = try Self.oldStore { db in
      // Corrected before the rules held corrections: a direction mark, a 150-letter word.
      try db.execute(
        sql: """
          UPDATE segment SET originalSpeaker = speaker, originalText = text,
            originalWords = words, text = ? WHERE meetingId = ? AND ordinal = 0;
          UPDATE segment SET originalSpeaker = speaker, originalText = text,
            originalWords = words, text = ? WHERE meetingId = ? AND ordinal = 1;
          UPDATE segment SET words = json_array(json_object('word', text, 'start', startTime,
            'end', endTime, 'confidence', 1)) WHERE meetingId = ?;
          """,
        arguments: ["x \u{202E} y", Self.meeting, "fine \(long)", Self.meeting, Self.meeting])
    }
    let laptop = try Laptop(folder: folder)
    let meeting = try #require(
      try laptop.syncUps().first?.meetings.first {
        $0.id.rawValue.uuidString.lowercased() == Self.meeting
      })
    #expect(
      meeting.segments.map(\.text) == [
        "x y", "fine \(String(long.prefix(100))) \(String(long.suffix(50)))",
      ])
    #expect(meeting.segments.map { $0.original?.text } == ["hello there", "fine thanks"])
    for (index, segment) in meeting.segments.enumerated() {
      #expect(throws: Never.self) { try segment.document.check(number: index + 1) }
    }
    // The repair is a correction of its own: its meeting waits to be pushed, and goes.
    #expect(try laptop.outbox().contains { $0.kind == "meeting" })
    let server = FakeTeamServer()
    let report = try await laptop.sync(server)
    #expect(report.pushedMeetings == 1, "\(report.line)")
    try await Self.expectEveryPushKeepsTheRules(server)
    #expect(
      await server.meeting(UUID(uuidString: Self.meeting)!)?.segments.map(\.text)
        == meeting.segments.map(\.text))
  }

  /// A corrected segment whose words cannot be read is left as it is: the database opens.
  @Test func anUnreadableCorrectedSegmentIsLeftAndTheDatabaseOpens() throws {
    let folder = try Self.oldStore { db in
      try db.execute(
        sql: """
          UPDATE segment SET originalSpeaker = speaker, originalText = text,
            originalWords = words, text = 'x \u{202E} y', words = x'00ff' WHERE ordinal = 0
          """)
    }
    let laptop = try Laptop(folder: folder)
    #expect(try laptop.database.syncStatus().waiting == 2)
  }

  /// A correction is held to the push rules in the store itself, whatever front end made it.
  @Test func theStoreRefusesACorrectionThePushRulesRefuse() throws {
    let laptop = try Laptop()
    let syncUp = standup()
    try laptop.database.add(syncUp)
    let id = try laptop.record(
      into: syncUp.id, segments: [segment("Ana", "the build is green", at: 1)])
    let refused = #expect(throws: (any Error).self) {
      try laptop.database.correctSegment(id, number: 1, SegmentChange(text: "x \u{202E} y"))
    }
    #expect(refused.map { "\($0)" } == "segment 1 has control characters in its text")
    #expect(throws: Never.self) {
      try laptop.database.correctSegment(id, number: 1, SegmentChange(text: "the build is red"))
    }
  }

  @Test func theRepairKeepsWhatTheRulesAllow() {
    #expect(SegmentCorrection.repaired("a\u{202E}b \u{200F} c\td") == "ab c d")
    #expect(
      SegmentCorrection.repaired(String(repeating: "é", count: 201)).split(separator: " ")
        .map(\.count) == [100, 100, 1])
    #expect(SegmentCorrection.repaired("\u{202E}") == "")
    #expect(
      SegmentCorrection.repaired(String(repeating: "ab ", count: 5000)).count <= Rules.longestText)
  }

  /// Item 4: the segment walk is written once; an import (`Meeting.validated`) and a push
  /// (`MeetingDocument.check`) refuse a meeting in the same words.
  @Test func anImportAndAPushRefuseABadSegmentAlike() throws {
    let bad = Meeting.Segment(
      speaker: "Ana", start: 1, end: 2, text: "ok",
      words: [
        Meeting.Word(word: String(repeating: "w", count: 101), start: 1, end: 2, confidence: 1)
      ])
    let meeting = Meeting(
      id: Meeting.ID(UUID()), date: Date(timeIntervalSince1970: 1_795_000_000), transcript: "",
      segments: [segment("Ana", "fine", at: 0), bad])
    #expect(throws: MeetingProblem.segment(2, "has a word that is not one word of text")) {
      try meeting.validated()
    }
    let document = MeetingDocument(
      id: meeting.id.rawValue, syncUpID: UUID(), date: meeting.date, length: 60,
      segments: meeting.segments.map(\.document), audio: nil, clock: StoredDocuments.zero)
    #expect(
      throws: DocumentProblem(
        "meeting \(meeting.id.rawValue.uuidString.lowercased()): segment 2 has a word that is not one word of text"
      )
    ) {
      try document.check(now: Date())
    }
  }
}
