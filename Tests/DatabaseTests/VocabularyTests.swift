import Dependencies
import Foundation
import GRDB
import SharingGRDB
import SyncUpsFeatures
import Testing

/// A sync-up's vocabulary in the database (`vocabularyWord` rows, in the order added): loaded
/// with the sync-up, written only when it changed, exported and imported (an optional field in
/// format 1: older files import with none).
@MainActor
@Suite
struct VocabularyDatabaseTests {
  let database = try! SyncUpsDatabase.inMemory()

  func words(of syncUp: SyncUp) throws -> [String] {
    try readSync(database) { db in
      try String.fetchAll(
        db, sql: "SELECT word FROM vocabularyWord WHERE syncUpId = ? ORDER BY rowid",
        arguments: [syncUp.id.rawValue.uuidString.lowercased()])
    }
  }

  /// Logs every insert, update and delete the database runs (on its own queue).
  nonisolated static func logWrites(
    _ database: SyncUpsDatabase, into log: LockIsolated<[String]>
  ) throws {
    try database.writer.writeWithoutTransaction { db in
      db.trace { event in
        let sql = event.expandedDescription
        if ["INSERT", "UPDATE", "DELETE"].contains(where: { sql.uppercased().hasPrefix($0) }) {
          log.withValue { $0.append(sql) }
        }
      }
    }
  }

  @Test func theVocabularyIsLoadedAndWrittenOnlyWhenItChanges() throws {
    var syncUp = makeSyncUp()
    syncUp.vocabulary = ["Zorbex", "staging server"]
    try insert([syncUp], into: database)
    #expect(try words(of: syncUp) == ["Zorbex", "staging server"])
    try withDependencies {
      $0.syncUpsDatabase = database
    } operation: {
      @Shared(.syncUps) var syncUps
      #expect(syncUps[id: syncUp.id]?.vocabulary == ["Zorbex", "staging server"])
      let detail = try #require(Shared($syncUps[id: syncUp.id]))
      var written: [String] = []
      let log = LockIsolated<[String]>([])
      try Self.logWrites(database, into: log)
      detail.withLock { $0.title = "Renamed" }
      try detail.save()
      written = log.value
      #expect(written.count == 1 && !written[0].contains("vocabularyWord"), "\(written)")
      log.setValue([])
      detail.withLock { $0.vocabulary = ["staging server", "Zorbex", "Grafana"] }
      try detail.save()
      #expect(log.value.allSatisfy { $0.contains("vocabularyWord") }, "\(log.value)")
      try database.writer.writeWithoutTransaction { db in db.trace(options: [], nil) }
    }
    #expect(try words(of: syncUp) == ["staging server", "Zorbex", "Grafana"])
    let one = try readSync(database) { db in try SyncUpRequest(syncUpID: syncUp.id).fetch(db) }
    #expect(one?.vocabulary == ["staging server", "Zorbex", "Grafana"])
  }

  @Test func exportCarriesTheVocabularyAndOlderFilesImportWithout() throws {
    var syncUp = makeSyncUp()
    syncUp.vocabulary = ["Zorbex"]
    try insert([syncUp, makeSyncUp("Plain")], into: database)
    let exported = String(decoding: try database.export(), as: UTF8.self)
    #expect(exported.contains(#""vocabulary" : ["#), "\(exported)")
    // A sync-up without words writes no field: files stay as older versions wrote them.
    #expect(exported.components(separatedBy: "\"vocabulary\"").count == 2)

    let file = FileManager.default.temporaryDirectory.appendingPathComponent("old-\(UUID()).json")
    defer { try? FileManager.default.removeItem(at: file) }
    let old = """
      {"formatVersion":1,"syncUps":[{"id":"12345678-0000-4000-8000-000000000000",\
      "title":"Old","duration":60,"theme":"teal","meetings":[],\
      "attendees":[{"id":"12345678-0000-4000-8000-000000000001","name":"Ana"}]}]}
      """
    try Data(old.utf8).write(to: file)
    let copy = try SyncUpsDatabase.inMemory()
    #expect(try copy.importFile(file) == ImportSummary(syncUps: 1, meetings: 0))
    #expect(try copy.exportedSyncUps().first?.vocabulary == [])
  }
}
