import Foundation
import GRDB
import Testing
import VoiceProfiles

@testable import SyncUpsStore

/// Migration v6 keeps each attendee's voice profile beside the attendee: what a database
/// held before it stays, profiles are refined in place, and go with their attendee.
@Suite struct VoiceProfileTests {
  static let profile = VoiceProfile(
    model: GaussianMixture(
      dimension: 2, weights: [0.5, 0.5], means: [0, 1, 2, 3], variances: [1, 1, 1, 1],
      counts: [10, 10]),
    meetings: 1, seconds: 42)

  @Test func migrationSixAddsProfilesThatFollowTheirAttendees() throws {
    let queue = try DatabaseQueue()
    try Schema.migrator.migrate(queue, upTo: "v5: sync outbox")
    try queue.write { db in
      try db.execute(
        sql: """
          INSERT INTO syncUp (id, position, title, durationMilliseconds, theme)
          VALUES ('00000000-0000-0000-0000-000000000001', 0, 'Old', 300000, 'sky');
          INSERT INTO attendee (id, syncUpId, position, name)
          VALUES ('00000000-0000-0000-0000-000000000002', '00000000-0000-0000-0000-000000000001',
            0, 'Ana');
          """)
    }
    try Schema.migrator.migrate(queue)
    let ana = Attendee.ID(UUID(uuidString: "00000000-0000-0000-0000-000000000002")!)
    let model = try Self.profile.encoded()
    try queue.write { db in
      try db.execute(
        sql: "INSERT INTO voiceProfile (attendeeId, meetings, seconds, model) VALUES (?, 1, 42, ?)",
        arguments: [ana, model])
    }
    let summaries = try queue.read { db in
      try SyncUpsDatabase.voiceSummaries(
        SyncUp.ID(UUID(uuidString: "00000000-0000-0000-0000-000000000001")!), db)
    }
    #expect(summaries == [ana: VoiceSummary(meetings: 1, seconds: 42)])
    try queue.write { db in try db.execute(sql: "DELETE FROM attendee") }
    #expect(
      try queue.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM voiceProfile") } == 0)
  }

  @Test func learnedVoicesAreReadBackAndRefinedInPlace() throws {
    let database = try SyncUpsDatabase.inMemory()
    let syncUp = makeSyncUp()
    try insert([syncUp], into: database)
    let ana = syncUp.attendees[0].id
    try database.learnVoices([ana: Self.profile, Attendee.ID(UUID()): Self.profile])
    #expect(try database.voiceProfiles(syncUp.id) == [ana: Self.profile])
    var refined = Self.profile
    refined.meetings = 2
    refined.seconds = 94
    try database.learnVoices([ana: refined])
    #expect(try database.voiceProfiles(syncUp.id) == [ana: refined])
    #expect(try database.voiceSummaries(syncUp.id) == [ana: VoiceSummary(meetings: 2, seconds: 94)])
  }
}
