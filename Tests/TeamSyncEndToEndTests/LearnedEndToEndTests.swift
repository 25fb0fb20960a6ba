import Foundation
import GRDB
import SyncUpsTestSupport
import TestSupport
import Testing

/// What a laptop learns of a person reaches a laptop that joins later, and forgetting it on one
/// laptop forgets it on the other at its next sync: the real `syncups-server` on PostgreSQL and
/// the real `syncups`.
@Suite("Team sync end to end: what is learned of people", .serialized)
struct LearnedEndToEndTests {
  /// Ana's voice as the laptop keeps it, written as learning after a meeting writes it.
  static let voice = """
    {"model":{"dimension":2,"weights":[0.5,0.5],"means":[0,1,2,3],"variances":[1,1,1,1],\
    "counts":[10,10]},"meetings":2,"seconds":94,"features":"warped-cepstra"}
    """

  @Test(
    "a voice learned on A reaches B when B joins; A forgets it and B forgets it at its next sync")
  func aVoiceIsSyncedAndForgotten() async throws {
    let team = try await TeamFixture.start()
    defer { team.stop() }
    let a = try team.laptop()
    try await a.expect("team", "join", team.url, "--token", team.writerToken)
    try await a.expect("add", "--title", "Morning Sync", "--attendee", "Ana", "--attendee", "Ben")
    let database = try DatabaseQueue(path: a.data.appendingPathComponent("syncups.sqlite").path)
    try await database.write { db in
      try db.execute(
        sql: """
          INSERT INTO voiceProfile (attendeeId, meetings, seconds, model)
          SELECT id, 2, 94, ? FROM attendee WHERE name = 'Ana'
          """, arguments: [Data(Self.voice.utf8)])
    }
    try await database.close()
    let pushed = try await a.expect("sync")
    #expect(pushed.stdout.contains("pushed what is learned of 1 attendee"), "\(pushed)")

    let b = try team.laptop()
    try await b.expect("team", "join", team.url, "--token", team.writerToken)
    let pulled = try await b.expect("sync")
    #expect(pulled.stdout.contains("pulled what is learned of 1 attendee"), "\(pulled)")
    #expect(b.value("SELECT count(*) FROM voiceProfile") == 1)
    let shown = try await b.expect("show", "Morning Sync")
    #expect(shown.stdout.contains("Ana: voice from 2 meetings, 94 s of speech"), "\(shown)")

    try await a.expect("forget", "Morning Sync", "--attendee", "ana", "--yes")
    try await a.expect("sync")
    #expect(a.value("SELECT count(*) FROM syncPeopleOutbox") == 0)
    #expect(
      try await team.psql(
        "SELECT count(*) FROM learned_person WHERE convert_from(document, 'UTF8') LIKE "
          + "'%\"forgotten\"%' AND convert_from(document, 'UTF8') NOT LIKE '%\"voice\"%'") == "1")
    try await b.expect("sync")
    #expect(b.value("SELECT count(*) FROM voiceProfile") == 0)
    let after = try await b.expect("show", "Morning Sync")
    #expect(after.stdout.contains("Ana: voice not heard yet; forgotten "), "\(after)")
    // Nothing of it comes back from either laptop.
    #expect(try await b.expect("sync").stdout == "up to date: nothing to push or pull\n")
    try await a.expect("sync")
    #expect(a.value("SELECT count(*) FROM voiceProfile") == 0)
  }
}

/// The pulled attendee edit of the issue that found it: laptop A learned three voices, laptop B
/// adds an attendee (`syncups edit --add-attendee`) and syncs, A syncs. A keeps every voice and
/// adaptation: the pull writes the attendees through the same named write as a local edit.
@Suite("Team sync end to end: a teammate's edit keeps what was learned", .serialized)
struct PulledEditEndToEndTests {
  @Test("B adds an attendee; after A syncs, A still has its three voices and its adaptation")
  func anAttendeeAddedElsewhereKeepsTheVoices() async throws {
    let team = try await TeamFixture.start()
    defer { team.stop() }
    let a = try team.laptop()
    try await a.expect("team", "join", team.url, "--token", team.writerToken)
    try await a.expect(
      "add", "--title", "Morning Sync", "--attendee", "Ana", "--attendee", "Ben", "--attendee",
      "Cleo")
    let database = try DatabaseQueue(path: a.data.appendingPathComponent("syncups.sqlite").path)
    try await database.write { db in
      try db.execute(
        sql: """
          INSERT INTO voiceProfile (attendeeId, meetings, seconds, model)
          SELECT id, 2, 94, ? FROM attendee;
          INSERT INTO speakerAdaptation (attendeeId, seconds, transform)
          SELECT id, 75, ? FROM attendee WHERE name = 'Ben';
          """,
        arguments: [
          Data(LearnedEndToEndTests.voice.utf8), Data("1\n1\n2\n1 0\n0 1\n0 0\n1 1\n".utf8),
        ])
    }
    try await database.close()
    try await a.expect("sync")
    let b = try team.laptop()
    try await b.expect("team", "join", team.url, "--token", team.writerToken)
    try await b.expect("sync")
    #expect(b.value("SELECT count(*) FROM voiceProfile") == 3)
    try await b.expect("edit", "Morning Sync", "--add-attendee", "Zoe")
    try await b.expect("sync")
    let pulled = try await a.expect("sync")
    #expect(pulled.stdout.contains("pulled 1 sync-up"), "\(pulled)")
    #expect(a.value("SELECT count(*) FROM attendee") == 4)
    #expect(a.value("SELECT count(*) FROM voiceProfile") == 3)
    #expect(a.value("SELECT count(*) FROM speakerAdaptation") == 1)
    #expect(b.value("SELECT count(*) FROM voiceProfile") == 3)
    let shown = try await a.expect("show", "Morning Sync")
    #expect(shown.stdout.contains("Zoe"), "\(shown)")
    #expect(shown.stdout.contains("Ben: voice from 2 meetings, 94 s of speech"), "\(shown)")
    #expect(a.value("SELECT count(*) FROM syncOutbox") == 0)
    #expect(try await a.expect("sync").stdout == "up to date: nothing to push or pull\n")
  }
}
