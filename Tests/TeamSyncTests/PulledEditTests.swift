import Foundation
import GRDB
import SyncUpsFeatures
import SyncUpsWire
import Testing

@testable import TeamSync

/// A teammate's edit, pulled, against what a laptop learned: laptop A learned the voices of a
/// sync-up's people (Ana's and Ben's, Ana's adaptation; Cleo's forgotten) and the team's room
/// (kept on A alone), laptop B edits the sync-up and syncs, A syncs. The pull writes through the
/// same named writes as a local edit, so each kept attendee keeps its row and what hangs off it;
/// the outbox stays empty (nothing pulled goes back) and the cursor is the server's.
@Suite("Team sync: pulled edits keep what was learned")
struct PulledEditTests {
  struct Team {
    let server = FakeTeamServer()
    let a: Laptop
    let b: Laptop
    let syncUp: SyncUp
    /// What A knew of each person before B's edit.
    let learned: [Attendee.ID: PersonLearned]

    init() async throws {
      (a, b) = (try Laptop(), try Laptop())
      syncUp = standup(attendees: ["Ana", "Ben", "Cleo"])
      let (ana, ben, cleo) = (
        syncUp.attendees[0].id, syncUp.attendees[1].id, syncUp.attendees[2].id
      )
      try a.database.add(syncUp)
      try a.database.learnVoices([
        ana: LearnedSyncTests.profile(seconds: 40), ben: LearnedSyncTests.profile(seconds: 55),
        cleo: LearnedSyncTests.profile(seconds: 20),
      ])
      try a.database.saveSpeakerAdaptations([ana: LearnedSyncTests.adaptation])
      try a.database.forgetLearned(attendee: cleo)
      _ = try await a.sync(server)
      _ = try await b.sync(server)
      learned = try a.database.learned(syncUp.id).people
      #expect(learned[ana]?.voice != nil && learned[ana]?.adaptationSeconds == 75)
      #expect(learned[ben]?.voice != nil && learned[cleo]?.forgotten != nil)
      #expect(try b.database.learned(syncUp.id).people == learned)
      try a.database.saveTeamAdaptation(syncUp.id, LearnedSyncTests.adaptation)
    }

    /// B changes the sync-up as `syncups edit` does, syncs; A syncs. Returns the sync-up on A.
    func edit(_ change: (inout SyncUp) -> Void) async throws -> SyncUp {
      let before = try #require(try b.syncUps()[id: syncUp.id])
      var after = before
      change(&after)
      try b.database.edit(from: before, to: after)
      _ = try await b.sync(server)
      let pulled = try await a.sync(server)
      #expect(pulled.pulledSyncUps == 1, "\(pulled.line)")
      return try #require(try a.syncUps()[id: syncUp.id])
    }

    /// What A knows of people is what it knew of those still attendees, and A keeps the team's
    /// room; its outbox is empty, its cursor the server's, and a second sync has nothing to do.
    /// B knows the same of people.
    func expectLearnedKept(for attendees: IdentifiedArrayOf<Attendee>) async throws {
      #expect(try a.database.teamAdaptation(syncUp.id) == LearnedSyncTests.adaptation)
      let kept = learned.filter { attendees[id: $0.key] != nil }
      #expect(
        try a.database.learned(syncUp.id).people.filter { $0.value != PersonLearned() } == kept)
      #expect(
        try b.database.learned(syncUp.id).people.filter { $0.value != PersonLearned() } == kept)
      let version = await server.version
      for laptop in [a, b] {
        #expect(try laptop.outbox().isEmpty)
        #expect(try laptop.database.syncStatus().waiting == 0)
        #expect(try await laptop.database.syncCursor() == version)
      }
      #expect(try await a.sync(server).line == "up to date: nothing to push or pull")
    }
  }

  @Test("an attendee added on B: A keeps every voice, adaptation and forgotten mark")
  func attendeeAdded() async throws {
    let team = try await Team()
    let zoe = Attendee(id: Attendee.ID(UUID()), name: "Zoe")
    let pulled = try await team.edit { $0.attendees.append(zoe) }
    #expect(pulled.attendees.map(\.name) == ["Ana", "Ben", "Cleo", "Zoe"])
    try await team.expectLearnedKept(for: pulled.attendees)
    #expect(try team.a.database.voiceProfiles(team.syncUp.id).count == 2)
  }

  @Test("an attendee added before the others on B keeps B's order on A, and what A learned")
  func attendeeAddedFirst() async throws {
    let team = try await Team()
    let zoe = Attendee(id: Attendee.ID(UUID()), name: "Zoe")
    let pulled = try await team.edit { $0.attendees.insert(zoe, at: 0) }
    #expect(pulled.attendees.map(\.name) == ["Zoe", "Ana", "Ben", "Cleo"])
    try await team.expectLearnedKept(for: pulled.attendees)
  }

  @Test("an attendee removed on B: A forgets only that attendee's voice")
  func attendeeRemoved() async throws {
    let team = try await Team()
    let pulled = try await team.edit { $0.attendees.remove(id: team.syncUp.attendees[1].id) }
    #expect(pulled.attendees.map(\.name) == ["Ana", "Cleo"])
    try await team.expectLearnedKept(for: pulled.attendees)
    #expect(
      try team.a.database.voiceProfiles(team.syncUp.id).keys.sorted() == [pulled.attendees[0].id])
  }

  @Test("an attendee renamed on B keeps their voice on A under the new name")
  func attendeeRenamed() async throws {
    let team = try await Team()
    let pulled = try await team.edit { $0.attendees[0].name = "Anna" }
    #expect(pulled.attendees.map(\.name) == ["Anna", "Ben", "Cleo"])
    #expect(pulled.attendees.ids == team.syncUp.attendees.ids)
    try await team.expectLearnedKept(for: pulled.attendees)
  }

  @Test("attendees reordered on B: A has B's order and every voice")
  func attendeesReordered() async throws {
    let team = try await Team()
    let pulled = try await team.edit { $0.attendees.reverse() }
    #expect(pulled.attendees.map(\.name) == ["Cleo", "Ben", "Ana"])
    try await team.expectLearnedKept(for: pulled.attendees)
  }

  @Test("the vocabulary changed on B: A has B's words and every voice")
  func vocabularyChanged() async throws {
    let team = try await Team()
    let pulled = try await team.edit { $0.vocabulary = ["kafka", "grafana"] }
    #expect(pulled.vocabulary == ["kafka", "grafana"])
    try await team.expectLearnedKept(for: pulled.attendees)
  }

  @Test("the title and duration changed on B: A has them and every voice")
  func titleAndDurationChanged() async throws {
    let team = try await Team()
    let pulled = try await team.edit {
      $0.title = "Evening Sync"
      $0.duration = .seconds(420)
    }
    #expect(pulled.title == "Evening Sync" && pulled.duration == .seconds(420))
    try await team.expectLearnedKept(for: pulled.attendees)
  }

  @Test(
    "B deletes the sync-up while A records a meeting into it offline: A keeps the sync-up, its meeting and what it learned, and B gets it back"
  )
  func deletionKeptOffAndRestored() async throws {
    let team = try await Team()
    let meeting = try team.a.record(
      into: team.syncUp.id, segments: [segment("Ana", "the release is out", at: 0)])
    _ = try team.b.database.deleteSyncUps([team.syncUp.id])
    _ = try await team.b.sync(team.server)
    _ = try await team.a.sync(team.server)
    #expect(try team.a.syncUps()[id: team.syncUp.id]?.meetings.ids.contains(meeting) == true)
    #expect(try team.a.database.learned(team.syncUp.id).people == team.learned)
    #expect(try team.a.database.teamAdaptation(team.syncUp.id) == LearnedSyncTests.adaptation)
    let restored = try await team.b.sync(team.server)
    #expect(restored.pulledSyncUps == 1, "\(restored.line)")
    let back = try #require(try team.b.syncUps()[id: team.syncUp.id])
    #expect(back.attendees == team.syncUp.attendees && back.meetings.ids == [meeting])
    let version = await team.server.version
    for laptop in [team.a, team.b] {
      #expect(try laptop.outbox().isEmpty)
      #expect(try await laptop.database.syncCursor() == version)
    }
  }

  @Test(
    "B deletes the sync-up: A deletes it with what it learned of its people, and pushes nothing")
  func deletion() async throws {
    let team = try await Team()
    _ = try team.b.database.deleteSyncUps([team.syncUp.id])
    _ = try await team.b.sync(team.server)
    _ = try await team.a.sync(team.server)
    #expect(try team.a.syncUps().isEmpty)
    #expect(try team.a.database.voiceProfiles(team.syncUp.id).isEmpty)
    #expect(try team.a.database.teamAdaptation(team.syncUp.id) == nil)
    #expect(try team.a.outbox().isEmpty)
    #expect(try await team.a.database.syncCursor() == (await team.server.version))
    #expect(try await team.a.sync(team.server).line == "up to date: nothing to push or pull")
  }

  @Test("a pulled sync-up whose attendee is another sync-up's here is left out, in words")
  func borrowedAttendeeIsLeftOut() async throws {
    let team = try await Team()
    var borrowed = SyncUpDocument.sample(title: "Borrowed", device: "other")
    borrowed.attendees.value = [.init(id: team.syncUp.attendees[0].id.rawValue, name: "Ana")]
    let thief = borrowed
    let applied = try await team.a.database.writer.write { db in
      try PulledChanges.apply(
        PulledChanges.KeptPage(
          ChangesPage(version: 99, more: false, syncUps: [thief], meetings: []), now: Date()),
        audioFiles: [:], directory: nil, db)
    }
    #expect(applied.skipped.count == 1)
    #expect(applied.skipped.first?.contains("belongs to another sync-up here") == true)
    #expect(try team.a.syncUps()[id: SyncUp.ID(thief.id)] == nil)
    #expect(try team.a.syncUps()[id: team.syncUp.id]?.attendees == team.syncUp.attendees)
    #expect(try team.a.database.learned(team.syncUp.id).people == team.learned)
  }
}
