import Foundation
import GRDB
import Testing

@testable import SyncUpsStore

/// Migration v10 syncs what is learned of people: what a database learned before it enters the
/// outbox once, stamped, and forgetting is recorded beside the attendee.
@Suite struct LearnedMigrationTests {
  @Test func voicesAndAdaptationsLearnedBeforeEnterTheOutboxOnce() throws {
    let queue = try DatabaseQueue()
    try Schema.migrator.migrate(queue, upTo: "v8: speaker adaptations")
    let (syncUp, ana, ben) = (
      "00000000-0000-0000-0000-000000000001", "00000000-0000-0000-0000-000000000002",
      "00000000-0000-0000-0000-000000000003"
    )
    try queue.write { db in
      try db.execute(
        sql: """
          INSERT INTO syncUp (id, position, title, durationMilliseconds, theme)
          VALUES (?, 0, 'Old', 300000, 'sky');
          INSERT INTO attendee (id, syncUpId, position, name) VALUES (?, ?, 0, 'Ana');
          INSERT INTO attendee (id, syncUpId, position, name) VALUES (?, ?, 1, 'Ben');
          INSERT INTO voiceProfile (attendeeId, meetings, seconds, model) VALUES (?, 1, 30, x'7B7D');
          INSERT INTO speakerAdaptation (attendeeId, seconds, transform) VALUES (?, 20, x'31');
          """, arguments: [syncUp, ana, syncUp, ben, syncUp, ana, ana])
    }
    try Schema.migrator.migrate(queue)
    let (outbox, anaClocks, benClocks, forgotten) = try queue.read { db in
      (
        try String.fetchAll(db, sql: "SELECT attendeeId FROM syncPeopleOutbox"),
        try String.fetchAll(
          db, sql: "SELECT field FROM syncClock WHERE entityId = ?", arguments: [ana]),
        try Int.fetchOne(
          db, sql: "SELECT count(*) FROM syncClock WHERE entityId = ?", arguments: [ben]),
        try Row.fetchOne(db, sql: "SELECT wordsForgottenAt FROM syncUp")?["wordsForgottenAt"]
          as Double?
      )
    }
    #expect(outbox == [ana])
    #expect(anaClocks == ["learned"])
    #expect(benClocks == 0)
    #expect(forgotten == nil)
  }
}
