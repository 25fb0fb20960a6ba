import ConcurrencyExtras
import Foundation
import GRDB
import SyncUpsFeatures
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Nothing is lost: concurrent writers, damaged or newer files, a full disk, a read-only folder.
@Suite(.serialized)
struct SafetyTests {
  /// The folder's files and their bytes, but for SQLite's own `-wal` and `-shm` side files,
  /// which any reader may create.
  func files(in directory: TemporaryDirectory) throws -> [String: Data] {
    var result: [String: Data] = [:]
    for name in try FileManager.default.contentsOfDirectory(atPath: directory.url.path)
    where !name.hasSuffix("-wal") && !name.hasSuffix("-shm") {
      result[name] = try Data(contentsOf: directory.file(name))
    }
    return result
  }

  @Test func aFileThatIsNotADatabaseIsOneErrorAndIsLeftUntouched() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let garbage = Data((0..<8192).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })
    try garbage.write(to: directory.dataDirectory.databaseFile)
    let before = try files(in: directory)
    #expect {
      try SyncUpsDatabase.open(directory.dataDirectory)
    } throws: { error in
      guard case .corrupt = error as? SyncUpsDatabaseError else { return false }
      let line = "\(error)"
      return !line.contains("\n") && line.contains("left untouched")
        && !line.contains("SQLITE") && !line.contains("DatabaseError")
    }
    #expect(try files(in: directory) == before)
  }

  @Test func aDamagedDatabaseIsOneErrorAndIsLeftUntouched() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    do {
      let database = try SyncUpsDatabase.open(directory.dataDirectory)
      try insert([makeSyncUp(meetings: [makeMeeting(count: 40)])], into: database)
      try (database.writer as? DatabasePool)?.close()
    }
    // Overwrite the middle of the file: the header survives, pages do not.
    let url = directory.dataDirectory.databaseFile
    var bytes = try Data(contentsOf: url)
    for index in 100..<min(bytes.count, 12_000) { bytes[index] = 0xA5 }
    try bytes.write(to: url)
    let before = try files(in: directory)
    #expect(throws: SyncUpsDatabaseError.self) {
      try SyncUpsDatabase.open(directory.dataDirectory)
    }
    #expect(try files(in: directory) == before)
  }

  @Test func aDatabaseFromANewerSchemaIsRefusedAndLeftUntouched() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    do {
      let database = try SyncUpsDatabase.open(directory.dataDirectory)
      try writeSync(database) { db in
        try db.execute(
          sql: "INSERT INTO grdb_migrations (identifier) VALUES ('v9: from the future')")
      }
      try (database.writer as? DatabasePool)?.close()
    }
    let before = try files(in: directory)
    #expect {
      try SyncUpsDatabase.open(directory.dataDirectory)
    } throws: { error in
      guard case .newerSchema = error as? SyncUpsDatabaseError else { return false }
      return "\(error)".contains("newer version of syncups")
    }
    #expect(try files(in: directory) == before)
  }

  /// The issue's first scenario: two processes each adding 50 sync-ups leave 100.
  @Test func twoProcessesAddingFiftySyncUpsEachLeaveAHundred() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    _ = try SyncUpsDatabase.open(directory.dataDirectory)
    async let first = Probe.run("add", directory.url, ["First", "50"])
    async let second = Probe.run("add", directory.url, ["Second", "50"])
    let runs = try await [first, second]
    #expect(runs.map(\.status) == [0, 0], "\(runs.map(\.errors))")
    let database = try SyncUpsDatabase.open(directory.dataDirectory)
    #expect(try count("syncUp", in: database) == 100)
  }

  /// Killing a process that saves through `@Shared` at arbitrary instants: every save it
  /// reported is there, at most the one in flight besides, and the database is intact.
  @Test func killingASharedSaverKeepsEverySaveItReported() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    _ = try SyncUpsDatabase.open(directory.dataDirectory)
    var reported = 0
    for round in 0..<4 {
      let (process, output, _) = try Probe.start("add", directory.url, ["Round\(round)", "100000"])
      let printed = LockIsolated("")
      let reader = PipeReader(output.fileHandleForReading) { data in
        printed.withValue { $0 += String(decoding: data, as: UTF8.self) }
      }
      let lines = { printed.value.components(separatedBy: "added ").count - 1 }
      #expect(await waitUntil { lines() >= 3 + round * 5 })
      kill(process.processIdentifier, SIGKILL)
      try await Probe.wait(process)
      #expect(await reader.waitForEnd())
      reported += lines()
      let database = try SyncUpsDatabase.open(directory.dataDirectory)
      let check = try readSync(database) { db in
        try String.fetchOne(db, sql: "PRAGMA integrity_check")
      }
      #expect(check == "ok")
      let stored = try count("syncUp", in: database)
      #expect(stored >= reported && stored <= reported + 1, "\(stored) vs \(reported)")
      reported = stored
    }
  }

  /// The issue's second scenario: a meeting saved while another process edits the sync-up in
  /// a loop is kept, and so is the last edit.
  @Test func aMeetingSavedDuringALoopOfEditsIsKept() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let syncUp = makeSyncUp()
    try insert([syncUp], into: try SyncUpsDatabase.open(directory.dataDirectory))
    for _ in 0..<3 {
      async let edits = Probe.run("edit", directory.url, [syncUp.id.rawValue.uuidString, "40"])
      async let save = Probe.run("save-meeting", directory.url, [syncUp.id.rawValue.uuidString])
      let (editRun, saveRun) = try await (edits, save)
      #expect(editRun.status == 0, "\(editRun.errors)")
      #expect(saveRun.status == 0, "\(saveRun.errors)")
      let meetingID = try #require(saveRun.lines.last?.split(separator: " ").last.map(String.init))
      let database = try SyncUpsDatabase.open(directory.dataDirectory)
      let listed = try readSync(database) { db in try SyncUpsRequest().fetch(db) }
      let stored = try #require(listed[id: syncUp.id])
      #expect(stored.meetings.ids.contains(Meeting.ID(UUID(uuidString: meetingID)!)))
      #expect(stored.title == "Edited 39")
      #expect(stored.attendees == syncUp.attendees)
    }
  }

  /// A small tmpfs fills up: the write fails with one line, the transaction rolls back, and
  /// what was committed before is intact. Needs root for `mount`; skipped without it.
  @Test func aFullDiskIsOneErrorAndKeepsWhatWasCommitted() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    guard try await run("/bin/mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", directory.url.path)
    else { return }  // not root: nothing to test here
    defer { _ = try? runNow("/bin/umount", "-l", directory.url.path) }
    let database = try SyncUpsDatabase.open(directory.dataDirectory)
    let syncUp = makeSyncUp()
    try insert([syncUp], into: database)
    let meeting = Meeting(id: Meeting.ID(UUID()), date: Date(), transcript: "")
    try database.begin(meeting, syncUpID: syncUp.id)
    let long = String(repeating: "word ", count: 2000)
    var committed = 0
    var failure: (any Error)?
    while failure == nil, committed < 10_000 {
      do {
        try database.append(
          Meeting.Segment(speaker: "Ana", start: 0, end: 1, text: long), meetingID: meeting.id)
        committed += 1
      } catch {
        failure = error
      }
    }
    let error = try #require(failure)
    guard case .diskFull = error as? SyncUpsDatabaseError else {
      Issue.record("expected a full disk, got \(error)")
      return
    }
    #expect(!"\(error)".contains("\n"))
    #expect("\(error)".contains("is full"))
    // Everything committed before is there, the failed segment is not.
    let stored = try readSync(database) { db in
      try Int.fetchOne(db, sql: "SELECT count(*) FROM segment") ?? -1
    }
    #expect(stored == committed)
    let check = try readSync(database) { db in try String.fetchOne(db, sql: "PRAGMA quick_check") }
    #expect(check == "ok")
  }

  /// A folder on a read-only mount (what chmod cannot show to root): the database is read,
  /// every write is one clear line, nothing is written. Needs root for `mount`; skipped without.
  @Test func aReadOnlyFolderIsReadAndAWriteIsOneClearError() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    guard try await run("/bin/mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", directory.url.path)
    else { return }
    defer { _ = try? runNow("/bin/umount", "-l", directory.url.path) }
    let syncUp = makeSyncUp(meetings: [makeMeeting()])
    do {
      let database = try SyncUpsDatabase.open(directory.dataDirectory)
      try insert([syncUp], into: database)
      try (database.writer as? DatabasePool)?.close()
    }
    #expect(try await run("/bin/mount", "-o", "remount,ro", directory.url.path))
    let before = try files(in: directory)
    let database = try SyncUpsDatabase.open(directory.dataDirectory)
    #expect(database.isReadOnly)
    #expect(try database.exportedSyncUps() == [syncUp])
    #expect(try database.search(TranscriptSearch("staging")).count == 1)
    #expect {
      try database.begin(
        Meeting(id: Meeting.ID(UUID()), date: Date(), transcript: ""), syncUpID: syncUp.id)
    } throws: { error in
      guard case .readOnly = error as? SyncUpsDatabaseError else { return false }
      let line = "\(error)"
      return !line.contains("\n") && line.contains("syncups.sqlite") && line.contains("permissions")
    }
    #expect(try files(in: directory) == before)
  }

  func run(_ arguments: String...) async throws -> Bool {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: arguments[0])
    process.arguments = Array(arguments.dropFirst())
    process.standardError = FileHandle.nullDevice
    try process.run()
    try await Probe.wait(process)
    return process.terminationStatus == 0
  }

  /// For `defer`, which cannot wait asynchronously: umount returns at once.
  func runNow(_ arguments: String...) throws -> Bool {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: arguments[0])
    process.arguments = Array(arguments.dropFirst())
    try process.run()
    process.waitUntilExit()
    return process.terminationStatus == 0
  }
}
