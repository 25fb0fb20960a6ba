import Foundation
import PostgresNIO
import SyncUpsServer
import TestSupport
import Testing

/// The private PostgreSQL keeps no database of a test program that ended: `.ci/postgres` drops
/// them (a machine that ran the suites many times had 5,540 of them, 46 GB), and never one of a
/// test program still running.
@Suite(
  .enabled(
    if: TestPostgres.available,
    "skipped: no PostgreSQL for the server's tests (.ci/postgres could not start one)"))
struct TestDatabaseCleanupTests {
  @Test func aDatabaseOfATestProgramThatEndedIsDroppedAndOneInUseIsKept() async throws {
    let base = try TestPostgres.url.get()
    let ended = try await runProgram(URL(fileURLWithPath: "/bin/sh"), ["-c", "echo $$"])
    let pid = try #require(Int32(ended.stdout.trimmingCharacters(in: .whitespacesAndNewlines)))
    let leftOver = "syncups_test_\(pid)_0123456789ab"
    let inUse = TestDatabase.name()
    try await TeamStore.withStore(base) { store in
      for name in [leftOver, inUse] {
        try await store.client.query(PostgresQuery(unsafeSQL: "CREATE DATABASE \(name)"))
      }
    }
    let run = try await runProgram(TestPostgres.script, [])
    #expect(run.status == 0, "\(run.stderr)")
    let names = try await TeamStore.withStore(base) { store in
      try await store.client.query("SELECT datname::text FROM pg_database").collect()
        .map { try $0.decode(String.self) }
    }
    #expect(!names.contains(leftOver))
    #expect(names.contains(inUse))
  }
}
