import Foundation
import GRDB
import SyncUpsFeatures
import SyncUpsTestSupport
import SyncUpsWire
import TestSupport
import Testing

@testable import TeamSync

/// Several `syncups` processes write one database at once: every change enters the outbox
/// (the triggers run inside each process's own transaction), and no clock is given twice.
@Suite("Team sync: two processes writing one outbox", .serialized)
struct TwoProcessOutboxTests {
  @Test func twoProcessesAddingAndEditingAtOnceEnterEveryChange() async throws {
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    let home = ["SYNCUPS_HOME": folder.path]
    let first = try await runSyncups(
      ["add", "--title", "Base", "--attendee", "Ana"], environment: home)
    #expect(first.status == 0, "\(first)")
    for round in 0..<5 {
      let runs = try await withThrowingTaskGroup(of: SyncupsRun.self) { group in
        for process in 0..<2 {
          group.addTask {
            try await runSyncups(
              ["add", "--title", "T\(round)-\(process)", "--attendee", "Ben"], environment: home)
          }
          group.addTask {
            try await runSyncups(
              ["edit", "Base", "--add-attendee", "P\(round)-\(process)"], environment: home)
          }
        }
        return try await group.reduce(into: []) { $0.append($1) }
      }
      for run in runs { #expect(run.status == 0, "\(run)") }
    }
    let database = try SyncUpsDatabase.open(DataDirectory(url: folder.url))
    defer { try? database.writer.close() }
    let (outbox, titles, clocks) = try await database.writer.read { db in
      (
        try String.fetchAll(db, sql: "SELECT entityId FROM syncOutbox WHERE kind = 'syncUp'"),
        try String.fetchAll(db, sql: "SELECT title FROM syncUp"),
        try String.fetchAll(
          db, sql: "SELECT DISTINCT clock FROM syncClock WHERE field = 'attendees'")
      )
    }
    #expect(titles.count == 11)
    #expect(outbox.count == 11, "a process's change missed the outbox")
    #expect(Set(outbox).count == 11)
    // Every sync-up's attendees clock is its own reading: no two changes share one.
    #expect(clocks.count == 11)
    for clock in clocks { #expect(HybridClock(clock) != nil) }
    let base = try await database.writer.read { db in
      try StoredDocuments.syncUp(
        try String.fetchOne(db, sql: "SELECT id FROM syncUp WHERE title = 'Base'")!, db)
    }
    #expect(base?.attendees.value.count == 11)
  }
}
