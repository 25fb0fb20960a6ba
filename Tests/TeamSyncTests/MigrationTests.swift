import Foundation
import GRDB
import Testing

@testable import SyncUpsStore
@testable import TeamSync

/// A database written before the sync existed: migration 3 puts everything it holds in the
/// outbox once (finished meetings only), with clocks.
@Suite("Team sync: the migration")
struct MigrationTests {
  @Test func whatADatabaseHeldBeforeTheSyncEntersTheOutboxOnce() throws {
    let queue = try DatabaseQueue()
    try Schema.migrator.migrate(queue, upTo: "v2: segment openings index")
    try queue.write { db in
      try db.execute(
        sql: """
          INSERT INTO syncUp (id, position, title, durationMilliseconds, theme)
          VALUES ('00000000-0000-0000-0000-000000000001', 0, 'Old', 300000, 'sky');
          INSERT INTO meeting (id, syncUpId, date, isFinished, length)
          VALUES ('00000000-0000-0000-0000-000000000002', '00000000-0000-0000-0000-000000000001',
            1795000000, 1, 60),
            ('00000000-0000-0000-0000-000000000003', '00000000-0000-0000-0000-000000000001',
            1795000100, 0, 0);
          """)
    }
    try Schema.migrator.migrate(queue)
    let (outbox, clocks) = try queue.read { db in
      (
        try String.fetchAll(
          db, sql: "SELECT kind || ' ' || entityId FROM syncOutbox ORDER BY rowid"),
        try Int.fetchOne(db, sql: "SELECT count(*) FROM syncClock") ?? 0
      )
    }
    #expect(
      outbox == [
        "syncUp 00000000-0000-0000-0000-000000000001",
        "meeting 00000000-0000-0000-0000-000000000002",
      ])
    #expect(clocks == 7)
  }
}
