import Foundation
import GRDB
import SyncUpsFeatures
import SyncUpsWire
import Testing

@testable import TeamSync

/// The database records its own changes: triggers fill the outbox and stamp
/// each field's clock, on real SQLite files.
@Suite("Team sync: the outbox the triggers fill")
struct OutboxTests {
  @Test func addingASyncUpStampsEveryFieldAndEntersTheOutbox() throws {
    let laptop = try Laptop()
    let syncUp = standup()
    try laptop.database.add(syncUp)
    let id = syncUp.id.rawValue.uuidString.lowercased()
    #expect(try laptop.outbox().map(\.kind) == ["syncUp"])
    #expect(try laptop.outbox().first?.entityId == id)
    let clocks = try laptop.clocks(id)
    #expect(Set(clocks.keys) == Set(SyncUpsWire.SyncUpDocument.fieldNames))
    for clock in clocks.values { #expect(HybridClock(clock) != nil, "\(clock)") }
  }

  @Test func anEditStampsOnlyWhatItChangedWithALaterClock() throws {
    let laptop = try Laptop()
    let syncUp = standup()
    try laptop.database.add(syncUp)
    let before = try laptop.clocks(syncUp.id.rawValue)
    let generation = try #require(try laptop.outbox().first?.generation)
    var edited = syncUp
    edited.title = "Evening Sync"
    try laptop.database.edit(from: syncUp, to: edited)
    let after = try laptop.clocks(syncUp.id.rawValue)
    #expect(after["title"]! > before["title"]!)
    for field in ["theme", "duration", "attendees", "vocabulary", "deleted"] {
      #expect(after[field] == before[field], "\(field)")
    }
    #expect(try laptop.outbox().first?.generation == generation + 1)
    #expect(try laptop.outbox().count == 1)
  }

  @Test func aRecordingEntersOnlyOnceFinishedAndADiscardedOneNever() throws {
    let laptop = try Laptop()
    let syncUp = standup()
    try laptop.database.add(syncUp)
    let meeting = Meeting(id: Meeting.ID(UUID()), date: Date(), transcript: "")
    try laptop.database.begin(meeting, syncUpID: syncUp.id)
    try laptop.database.append(
      segment("Ana", "the staging server is down", at: 0), meetingID: meeting.id)
    #expect(try laptop.outbox().map(\.kind) == ["syncUp"], "an unfinished recording entered")
    #expect(try laptop.clocks(meeting.id.rawValue).isEmpty)
    _ = try laptop.database.finishRecording(meeting.id, audioFile: nil)
    #expect(try laptop.outbox().map(\.kind) == ["syncUp", "meeting"])
    let discarded = Meeting(id: Meeting.ID(UUID()), date: Date(), transcript: "")
    try laptop.database.begin(discarded, syncUpID: syncUp.id)
    try laptop.database.append(segment("Ben", "never mind", at: 0), meetingID: discarded.id)
    _ = try laptop.database.discard(discarded.id)
    #expect(try laptop.outbox().map(\.kind) == ["syncUp", "meeting"])
    let document = try laptop.database.writer.read { db in
      try StoredDocuments.meeting(discarded.id.rawValue.lowercasedString, audio: nil, db)
    }
    #expect(document == nil)
  }

  /// A deletion is a change too: the sync-up's last state with `deleted`, and each finished
  /// meeting's deletion, ready to push.
  @Test func deletingASyncUpKeepsWhatItWasForThePushThatDeletesIt() throws {
    let laptop = try Laptop()
    let syncUp = standup()
    try laptop.database.add(syncUp)
    let meeting = try laptop.record(into: syncUp.id, segments: [segment("Ana", "hello", at: 0)])
    let before = try laptop.clocks(syncUp.id.rawValue)
    _ = try laptop.database.deleteSyncUps([syncUp.id])
    let after = try laptop.clocks(syncUp.id.rawValue)
    #expect(after["deleted"]! > before["deleted"]!)
    #expect(after["attendees"] == before["attendees"], "the cascade stamped the attendees")
    let (stored, storedMeeting) = try laptop.database.writer.read { db in
      (
        try StoredDocuments.syncUp(syncUp.id.rawValue.lowercasedString, db),
        try StoredDocuments.meeting(meeting.rawValue.lowercasedString, audio: nil, db)
      )
    }
    let document = try #require(stored)
    #expect(document.deleted.value)
    #expect(document.title.value == "Morning Sync")
    #expect(document.attendees.value.map(\.name) == ["Ana", "Ben"])
    #expect(document.vocabulary.value == ["grafana", "terraform"])
    let gone = try #require(storedMeeting)
    #expect(gone.deleted)
    #expect(gone.syncUpID == syncUp.id.rawValue)
    #expect(Set(try laptop.outbox().map(\.kind)) == ["syncUp", "meeting"])
  }

  /// What a pull writes is flagged inside its transaction: it does not enter the outbox.
  @Test func writesAppliedFromAPullDoNotEnterTheOutbox() throws {
    let laptop = try Laptop()
    let remote = SyncUpDocument.sample(title: "Remote", device: "other")
    try laptop.database.writer.write { db in
      _ = try PulledChanges.apply(
        PulledChanges.KeptPage(
          ChangesPage(version: 7, more: false, syncUps: [remote], meetings: []), now: Date()),
        audioFiles: [:], directory: nil, db)
    }
    #expect(try laptop.outbox().isEmpty)
    #expect(try laptop.syncUps().map(\.title) == ["Remote"])
    let flags = try laptop.database.writer.read { db in
      try Int.fetchOne(db, sql: "SELECT count(*) FROM syncApplying")
    }
    #expect(flags == 0)
    // The flag is gone after the pull: a local edit enters again.
    var syncUp = try #require(try laptop.syncUps().first)
    let before = syncUp
    syncUp.title = "Local"
    try laptop.database.edit(from: before, to: syncUp)
    #expect(try laptop.outbox().count == 1)
  }

  /// An outbox row is removed only if it did not change while its push was in flight.
  @Test func aRowThatChangedWhileItsPushWasInFlightStays() throws {
    let laptop = try Laptop()
    let first = standup("First")
    let second = standup("Second")
    try laptop.database.add(first)
    try laptop.database.add(second)
    let pending = try #require(
      try laptop.database.writer.write { try Outbox.prepare($0, audio: [:]) })
    var edited = second
    edited.theme = .navy
    try laptop.database.edit(from: second, to: edited)
    try laptop.database.writer.write { try Outbox.acknowledge(pending, $0) }
    #expect(try laptop.outbox().map(\.entityId) == [second.id.rawValue.lowercasedString])
    #expect(try laptop.database.writer.read { try Outbox.pending($0) } == nil)
  }
}

extension SyncUpDocument {
  static let fieldNames = ["title", "theme", "duration", "attendees", "vocabulary", "deleted"]

  static func sample(
    id: UUID = UUID(), title: String, device: String, milliseconds: Int64 = 1_795_000_000_000
  ) -> SyncUpDocument {
    let clock = HybridClock(milliseconds: milliseconds, device: device)
    return SyncUpDocument(
      id: id, title: Stamped(title, at: clock), theme: Stamped("sky", at: clock),
      duration: Stamped(600, at: clock),
      attendees: Stamped([.init(id: UUID(), name: "Cleo")], at: clock),
      vocabulary: Stamped(["kafka"], at: clock), deleted: Stamped(false, at: clock))
  }
}
