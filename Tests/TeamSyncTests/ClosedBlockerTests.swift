import Foundation
import GRDB
import SyncUpsFeatures
import SyncUpsWire
import Testing

@testable import TeamSync

/// Blockers closed by hand in the laptop's store (`blockerClosed`): the named write, the fetch
/// request, the push that carries a closing once, the pull that keeps the server's, and the
/// meeting's deletion that takes them, on real SQLite files.
@Suite("Team sync: blockers closed by hand")
struct ClosedBlockerTests {
  static let key = "c426110e5a6b3f4f"
  static let otherKey = "2fb4aa0b11c2d3e4"

  static func closings(_ laptop: Laptop, pushed: Bool? = nil) throws -> Int {
    try laptop.database.writer.read { db in
      let filter = pushed.map { $0 ? " WHERE pushed" : " WHERE NOT pushed" } ?? ""
      return try Int.fetchOne(db, sql: "SELECT count(*) FROM blockerClosed" + filter) ?? 0
    }
  }

  static func meetingWithBlockers(_ laptop: Laptop) throws -> (SyncUp, Meeting.ID) {
    let syncUp = standup()
    try laptop.database.add(syncUp)
    let meeting = try laptop.record(
      into: syncUp.id,
      segments: [segment("Ben", "i am waiting on legal to approve the new terms", at: 0)])
    return (syncUp, meeting)
  }

  @Test func aClosingIsKeptOnceAndReadBackByItsRequest() throws {
    let laptop = try Laptop()
    let (syncUp, meeting) = try Self.meetingWithBlockers(laptop)
    let at = Date(timeIntervalSince1970: 1_795_000_100)
    #expect(try laptop.database.closeBlocker(meeting, segment: 1, key: Self.key, at: at) == .closed)
    #expect(
      try laptop.database.closeBlocker(meeting, segment: 1, key: Self.key, at: Date())
        == .alreadyClosed)
    let read = try laptop.database.writer.read { db in
      try ClosedBlockersRequest(meetingIDs: [meeting]).fetch(db)
    }
    #expect(read == [ClosedBlocker(meetingID: meeting, segment: 1, key: Self.key, closedAt: at)])
    let none = try laptop.database.writer.read { db in
      try ClosedBlockersRequest(meetingIDs: [Meeting.ID(UUID())]).fetch(db)
    }
    #expect(none.isEmpty)
    #expect(try laptop.database.writer.read { try ClosedBlockersRequest().fetch($0) }.count == 1)

    // A meeting that is not here, or still being recorded, has nothing to close.
    #expect(
      try laptop.database.closeBlocker(Meeting.ID(UUID()), segment: 1, key: Self.key, at: at)
        == .noSuchMeeting)
    let recording = Meeting(id: Meeting.ID(UUID()), date: Date(), transcript: "")
    try laptop.database.begin(recording, syncUpID: syncUp.id)
    #expect(
      try laptop.database.closeBlocker(recording.id, segment: 1, key: Self.key, at: at)
        == .noSuchMeeting)
    // What breaks the rules is refused before anything is written.
    #expect(throws: DocumentProblem.self) {
      try laptop.database.closeBlocker(meeting, segment: 0, key: Self.key, at: at)
    }
    #expect(throws: DocumentProblem.self) {
      try laptop.database.closeBlocker(meeting, segment: 1, key: "NOT-A-KEY", at: at)
    }
    #expect(try Self.closings(laptop) == 1)
  }

  @Test func aClosingIsPushedOnceAfterItsMeeting() throws {
    let laptop = try Laptop()
    let (_, meeting) = try Self.meetingWithBlockers(laptop)
    _ = try laptop.database.closeBlocker(meeting, segment: 1, key: Self.key, at: Date())
    let pending = try #require(
      try laptop.database.writer.write { try Outbox.prepare($0, audio: [:]) })
    let push = try WireJSON.decoder().decode(Push.self, from: pending.body)
    #expect(push.meetings.map(\.id) == [meeting.rawValue])
    #expect(push.blockers.map(\.key) == [Self.key])
    #expect(push.blockers.first?.closedBy == nil)
    #expect(pending.blockers == 1)
    #expect(pending.entries.last?.kind == "blocker")
    try laptop.database.writer.write { try Outbox.acknowledge(pending, $0) }
    #expect(try Self.closings(laptop, pushed: true) == 1)
    #expect(try laptop.database.writer.write { try Outbox.prepare($0, audio: [:]) } == nil)
    // Another server: it waits to be pushed again.
    try laptop.database.startSyncOver()
    #expect(try Self.closings(laptop, pushed: false) == 1)
  }

  @Test func aPushCarriesABoundedNumberOfClosingsAndTheNextTheRest() throws {
    let laptop = try Laptop()
    let (_, meeting) = try Self.meetingWithBlockers(laptop)
    for segment in 1...(Rules.mostClosingsInAPush + 1) {
      _ = try laptop.database.closeBlocker(meeting, segment: segment, key: Self.key, at: Date())
    }
    let first = try #require(
      try laptop.database.writer.write { try Outbox.prepare($0, audio: [:]) })
    #expect(first.blockers == Rules.mostClosingsInAPush)
    try laptop.database.writer.write { try Outbox.acknowledge(first, $0) }
    let second = try #require(
      try laptop.database.writer.write { try Outbox.prepare($0, audio: [:]) })
    #expect(second.blockers == 1 && second.meetings == 0)
    try laptop.database.writer.write { try Outbox.acknowledge(second, $0) }
    #expect(try Self.closings(laptop, pushed: false) == 0)
  }

  @Test func aPulledClosingIsKeptAsTheServerHasItAndNeverPushed() throws {
    let laptop = try Laptop()
    let (_, meeting) = try Self.meetingWithBlockers(laptop)
    try laptop.database.writer.write {
      try Outbox.acknowledge(try #require(try Outbox.prepare($0, audio: [:])), $0)
    }
    _ = try laptop.database.closeBlocker(meeting, segment: 1, key: Self.key, at: Date())
    let closedAt = Date(timeIntervalSince1970: 1_795_000_200)
    let theirs = BlockerClosure(
      meetingID: meeting.rawValue, segment: 1, key: Self.key, closedBy: "ana", closedAt: closedAt)
    // One of a meeting that is not here yet waits for it.
    let early = BlockerClosure(
      meetingID: UUID(), segment: 2, key: Self.otherKey, closedAt: closedAt)
    let bad = BlockerClosure(
      meetingID: meeting.rawValue, segment: 3, key: "zz", closedBy: "ana", closedAt: closedAt)
    let kept = PulledChanges.KeptPage(
      ChangesPage(
        version: 9, more: false, syncUps: [], meetings: [], blockers: [theirs, early, bad]),
      now: Date())
    #expect(kept.skipped.count == 1 && kept.skipped[0].contains("16 lowercase hex digits"))
    let applied = try laptop.database.writer.write { db in
      try PulledChanges.apply(kept, audioFiles: [:], directory: nil, db)
    }
    #expect(applied.blockers == 1)
    let read = try laptop.database.writer.read { db in
      try ClosedBlockersRequest(meetingIDs: [meeting]).fetch(db)
    }
    #expect(read.map(\.closedBy) == ["ana"] && read.map(\.closedAt) == [closedAt])
    #expect(try Self.closings(laptop, pushed: false) == 0)
    #expect(try Self.closings(laptop) == 2)
    #expect(try laptop.database.writer.write { try Outbox.prepare($0, audio: [:]) } == nil)

    // The server deletes the early one's meeting: its closing goes though it never came.
    var deleted = try #require(
      try laptop.database.writer.read { db in
        try StoredDocuments.meeting(meeting.rawValue.lowercasedString, audio: nil, db)
      })
    deleted.id = early.meetingID
    deleted.deleted = true
    try laptop.database.writer.write { db in
      _ = try PulledChanges.apply(
        PulledChanges.KeptPage(
          ChangesPage(version: 10, more: false, syncUps: [], meetings: [deleted]), now: Date()),
        audioFiles: [:], directory: nil, db)
    }
    #expect(try Self.closings(laptop) == 1)
  }

  @Test func deletingTheMeetingTakesItsClosings() throws {
    let laptop = try Laptop()
    let (syncUp, meeting) = try Self.meetingWithBlockers(laptop)
    _ = try laptop.database.closeBlocker(meeting, segment: 1, key: Self.key, at: Date())
    _ = try laptop.database.deleteSyncUps([syncUp.id])
    #expect(try Self.closings(laptop) == 0)
    #expect(try laptop.database.writer.read { try ClosedBlockersRequest().fetch($0) }.isEmpty)
  }
}
