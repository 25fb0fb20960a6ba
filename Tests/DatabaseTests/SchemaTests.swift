import Foundation
import GRDB
import SyncUpsFeatures
import TestSupport
import Testing

@Suite
struct SchemaTests {
  @Test func migrationsCreateTheTablesAndTheSearchIndex() throws {
    let database = try SyncUpsDatabase.inMemory()
    let tables = try readSync(database) { db in
      try String.fetchAll(
        db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
    }
    for table in [
      "syncUp", "attendee", "meeting", "segment", "vocabularyWord", "setting", "segmentSearch",
    ] {
      #expect(tables.contains(table), "\(table) missing from \(tables)")
    }
  }

  @Test func onDiskTheDatabaseUsesWALAndABusyTimeout() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let database = try SyncUpsDatabase.open(directory.dataDirectory)
    let (mode, timeout) = try readSync(database) { db in
      (
        try String.fetchOne(db, sql: "PRAGMA journal_mode") ?? "",
        try Int.fetchOne(db, sql: "PRAGMA busy_timeout") ?? 0
      )
    }
    #expect(mode == "wal")
    #expect(timeout >= 1000)
  }

  /// Ids are stored as lower-case UUID strings (what earlier versions wrote, and what `sqlite3`
  /// users see), whatever their bytes, and read back as the same ids.
  @Test(arguments: [
    "00000000-0000-0000-0000-000000000000", "FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF",
    "0A1B2C3D-4E5F-6071-8293-A4B5C6D7E8F9", UUID().uuidString,
  ])
  func idsAreStoredAsLowerCaseUUIDStrings(id: String) throws {
    let database = try SyncUpsDatabase.inMemory()
    let syncUp = makeSyncUp(id: try #require(UUID(uuidString: id)), meetings: [makeMeeting()])
    try insert([syncUp], into: database)
    let stored = try readSync(database) { db in
      try String.fetchAll(db, sql: "SELECT syncUpId FROM meeting")
    }
    #expect(stored == [id.lowercased()])
    #expect(try database.exportedSyncUps().map(\.id) == [syncUp.id])
  }

  @Test func aSyncUpWithMeetingsRoundTripsThroughTheRecords() throws {
    let database = try SyncUpsDatabase.inMemory()
    let meeting = makeMeeting()
    let syncUp = makeSyncUp(meetings: [meeting])
    try insert([syncUp], into: database)
    let exported = try database.exportedSyncUps()
    #expect(exported == [syncUp])
  }

  @Test func theSearchIndexFollowsInsertsUpdatesAndCascadingDeletes() throws {
    let database = try SyncUpsDatabase.inMemory()
    let syncUp = makeSyncUp(meetings: [makeMeeting()])
    try insert([syncUp], into: database)
    func matches(_ word: String) throws -> Int {
      try readSync(database) { db in
        try Int.fetchOne(
          db, sql: "SELECT count(*) FROM segmentSearch WHERE segmentSearch MATCH ?",
          arguments: [word]) ?? 0
      }
    }
    #expect(try matches("staging") == 1)
    try writeSync(database) { db in
      try db.execute(
        sql: "UPDATE segment SET text = 'the production server' WHERE text LIKE '%staging%'")
    }
    #expect(try matches("staging") == 0)
    #expect(try matches("production") == 1)
    try writeSync(database) { db in try db.execute(sql: "DELETE FROM syncUp") }
    #expect(try matches("production") == 0)
    #expect(try matches("morning") == 0)
    #expect(try count("segment", in: database) == 0)
    #expect(try count("attendee", in: database) == 0)
    let integrity = try writeSync(database) { db in
      try db.execute(sql: "INSERT INTO segmentSearch(segmentSearch) VALUES ('integrity-check')")
      return true
    }
    #expect(integrity)
  }
}
