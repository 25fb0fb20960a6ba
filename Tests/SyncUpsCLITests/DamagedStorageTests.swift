import Foundation
import GRDB
import SyncUpsTestSupport
import Testing

/// Nothing lost, and a newer format never taken for a corrupt one: the real binary
/// on a full disk, a damaged or newer database, a newer `sync-ups.json`, a symlinked data file
/// and a read-only data folder. Whatever fails says so in one line and writes nothing.
@Suite("syncups: full, damaged, newer or read-only data", .serialized)
struct DamagedStorageTests {
  /// A data directory on a 1 MB tmpfs, filled up: `add` and `record` fail in one line, what
  /// was saved before is kept, and the database opens again once there is room.
  @Test(.enabled(if: canMount, "needs root and a mountable tmpfs"))
  func aFullDiskIsOneLineAndLosesNothing() async throws {
    let home = try Home()
    let mount = try #require(Mount(on: home, size: "1m"))
    defer { mount.unmount() }
    let id = try await home.add("Before")
    #expect(try await home.recordHello(id).status == 0)
    let before = try await home.listed()
    // Fill every free block.
    let filler = home.url.appendingPathComponent("filler")
    FileManager.default.createFile(atPath: filler.path, contents: nil)
    let handle = try FileHandle(forWritingTo: filler)
    let block = Data(repeating: 0x5A, count: 4096)
    while (try? handle.write(contentsOf: block)) != nil {}
    try? handle.close()

    let add = try await home.run("add", "--title", "After", "--attendee", "Ana")
    expectOneLineFailure(add, containing: [])
    let record = try await home.recordHello(id)
    #expect(record.status != 0, "\(record)")
    #expect(record.stderrLines.count == 1, "\(record)")
    #expect(record.stderr.hasPrefix("syncups: "), "\(record)")
    // Nothing saved before is lost, and the data still reads.
    #expect(try await listedSummary(home) == summary(before))

    // With room again, it all works and nothing half-written is left behind.
    try FileManager.default.removeItem(at: filler)
    #expect(try await home.run("add", "--title", "After", "--attendee", "Ana").status == 0)
    #expect(try await home.listed().count == 2)
    #expect(try await home.meetings(id).count == 1)
  }

  /// The disk fills up during a recording. Every utterance shown was committed first, the message is in words, and
  /// with room again the meeting holds every utterance that was shown.
  @Test(.enabled(if: canMount, "needs root and a mountable tmpfs"))
  func aDiskThatFillsDuringARecordingShowsOnlyWhatIsKept() async throws {
    let home = try Home()
    let mount = try #require(Mount(on: home, size: "2m"))
    defer { mount.unmount() }
    let id = try await home.add("Full")
    let record = try RunningSyncups(
      [
        "record", id, "--input", samples.appendingPathComponent("standup.wav").path, "--fast",
        "--no-audio",
      ],
      home: home)
    let shown = { (stdout: String) in
      stdout.split(separator: "\n").filter { $0.hasPrefix("[") && !$0.contains("] Speaker ") }
        .map { String($0.drop { $0 != "]" }.dropFirst(2)) }
    }
    #expect(await record.wait { !shown($0.stdout).isEmpty }, "\(record.stderr)")
    let filler = home.url.appendingPathComponent("filler")
    FileManager.default.createFile(atPath: filler.path, contents: nil)
    let handle = try FileHandle(forWritingTo: filler)
    let block = Data(repeating: 0x5A, count: 4096)
    while (try? handle.write(contentsOf: block)) != nil {}
    try? handle.close()
    _ = await record.finish()
    for internals in ["SQLite error", "NSCocoaErrorDomain", "UserInfo"] {
      #expect(!record.stderr.contains(internals), "\(record.stderr)")
    }

    // With room again, the next command saves or recovers the meeting.
    try FileManager.default.removeItem(at: filler)
    #expect(try await home.run("list").status == 0)
    let meeting = try #require(try await home.meetings(id).first?["id"] as? String)
    let saved = try await home.segmentTexts(id, meeting: meeting)
    for line in shown(record.stdout) {
      #expect(saved.contains(line), "shown but not saved: \(line); saved \(saved)")
    }
  }

  /// Not a database, or a damaged one: every command says so in one line and the file, and
  /// everything beside it, stays byte for byte.
  @Test(arguments: ["not a database", "damaged pages"])
  func aDamagedDatabaseIsOneLineAndLeftUntouched(damage: String) async throws {
    let home = try Home()
    let id = try await home.add("Kept")
    #expect(try await home.recordHello(id).status == 0)
    // Everything into the main file first (the last `syncups` may leave its WAL behind, and
    // SQLite would read the pages from there): then the damage is to the data itself.
    try checkpoint(home)
    var bytes = try Data(contentsOf: home.database)
    if damage == "not a database" {
      bytes = Data((0..<bytes.count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })
    } else {
      for index in 100..<bytes.count where index % 4096 > 100 { bytes[index] = 0xA5 }
    }
    try bytes.write(to: home.database)
    try await expectRefusedAndUntouched(home, id: id, mentioning: ["syncups.sqlite"])
  }

  /// A database a newer syncups wrote (a migration this one does not know).
  @Test func aNewerSchemaIsOneLineAndLeftUntouched() async throws {
    let home = try Home()
    let id = try await home.add("Kept")
    let queue = try DatabaseQueue(path: home.database.path)
    try await queue.write { db in
      try db.execute(
        sql: "INSERT INTO grdb_migrations (identifier) VALUES ('v99: from the future')")
    }
    try queue.close()
    try await expectRefusedAndUntouched(home, id: id, mentioning: ["syncups.sqlite", "newer"])
  }

  /// `sync-ups.json` of format 2 (a newer syncups's): never moved, renamed or rewritten.
  @Test func aNewerSyncUpsFileIsNeverMovedOrRewritten() async throws {
    let home = try seededHome()
    let file = home.url.appendingPathComponent("sync-ups.json")
    var json = try #require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
    json["formatVersion"] = 2
    json["somethingNew"] = ["kept": true]
    let original = try JSONSerialization.data(withJSONObject: json, options: .sortedKeys)
    try original.write(to: file)
    for arguments in [["list"], ["add", "--title", "New", "--attendee", "Ana"], ["list"]] {
      let run = try await home.run(arguments)
      if run.status != 0 { expectOneLineFailure(run, containing: []) }
      #expect((try? Data(contentsOf: file)) == original, "\(arguments) moved or rewrote it: \(run)")
      let files = try home.files()
      #expect(files.filter { $0.hasPrefix("sync-ups.json") } == ["sync-ups.json"], "\(arguments)")
    }
  }

  /// A symlinked data file stays a link, and what it points to is the data.
  @Test func aSymlinkedDatabaseStaysALink() async throws {
    let elsewhere = try Home()
    _ = try await elsewhere.add("Linked")
    let home = try Home()
    try FileManager.default.createSymbolicLink(
      at: home.database, withDestinationURL: elsewhere.database)
    #expect(try await home.listed().map { $0["title"] as? String } == ["Linked"])
    let add = try await home.run("add", "--title", "Through the link", "--attendee", "Ana")
    if add.status == 0 {
      #expect(try await elsewhere.listed().count == 2)
    } else {
      expectOneLineFailure(add, containing: [])
      #expect(try await elsewhere.listed().count == 1)
    }
    #expect(
      try FileManager.default.destinationOfSymbolicLink(atPath: home.database.path)
        == elsewhere.database.path)
  }

  /// A symlinked `sync-ups.json` (what an existing user may have): its target is never
  /// rewritten, and the link is never replaced by a regular file.
  @Test func aSymlinkedSyncUpsFileIsNeverReplaced() async throws {
    let elsewhere = try seededHome()
    let target = elsewhere.url.appendingPathComponent("sync-ups.json")
    let original = try Data(contentsOf: target)
    let home = try Home()
    let link = home.url.appendingPathComponent("sync-ups.json")
    try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)
    #expect(try await home.listed().map { $0["title"] as? String } == ["Morning Sync"])
    #expect(try await home.run("add", "--title", "New", "--attendee", "Ana").status == 0)
    #expect(try await home.listed().count == 2)
    #expect(try Data(contentsOf: target) == original)
    for name in try home.files() where name.hasPrefix("sync-ups.json") {
      let path = home.url.appendingPathComponent(name).path
      #expect(
        (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) == target.path,
        "\(name) is no longer the link")
    }
  }

  /// A data folder on a read-only mount (chmod cannot stop root): reads work as before, every
  /// write is one line, nothing changes.
  @Test(.enabled(if: canMount, "needs root and a mountable tmpfs"))
  func aReadOnlyFolderReadsAndRefusesWritesInOneLine() async throws {
    let home = try Home()
    let mount = try #require(Mount(on: home, size: "8m"))
    defer { mount.unmount() }
    let id = try await home.add("Read only")
    #expect(try await home.recordHello(id).status == 0)
    let reads = [
      ["list"], ["show", id], ["meetings", id], ["transcript", id], ["list", "--json"],
    ]
    var expected: [Run] = []
    for arguments in reads { expected.append(try await home.run(arguments)) }
    #expect(expected.allSatisfy { $0.status == 0 }, "\(expected)")
    #expect(mount.remountReadOnly())
    let before = try home.snapshot()
    for (arguments, writable) in zip(reads, expected) {
      let run = try await home.run(arguments)
      #expect(run.status == 0, "\(arguments): \(run)")
      #expect(run.stdout == writable.stdout, "\(arguments)")
    }
    for arguments in [
      ["add", "--title", "New", "--attendee", "Ana"], ["edit", id, "--title", "Renamed"],
      ["delete", id, "--yes"],
    ] {
      expectOneLineFailure(try await home.run(arguments), containing: [])
    }
    let record = try await home.recordHello(id)
    #expect(record.status != 0 && record.stderrLines.count == 1, "\(record)")
    #expect(try home.snapshot() == before)
  }

  // MARK: -

  /// Every command that opens the data fails in one line naming the file; the data folder is
  /// byte for byte what it was.
  func expectRefusedAndUntouched(
    _ home: Home, id: String, mentioning parts: [String],
    sourceLocation: SourceLocation = #_sourceLocation
  ) async throws {
    let before = try home.snapshot()
    for arguments in [
      ["list"], ["show", id], ["meetings", id], ["add", "--title", "New", "--attendee", "Ana"],
      ["edit", id, "--title", "Renamed"], ["delete", id, "--yes"],
    ] {
      let run = try await home.run(arguments)
      expectOneLineFailure(run, containing: parts, sourceLocation: sourceLocation)
      #expect(try home.snapshot() == before, "\(arguments) changed the data folder")
    }
    let record = try await home.recordHello(id)
    #expect(record.status != 0 && record.stderrLines.count == 1, "\(record)")
    #expect(try home.snapshot() == before, "record changed the data folder")
  }

  /// Copies every committed page from the WAL into the database file and removes the WAL.
  func checkpoint(_ home: Home) throws {
    let queue = try DatabaseQueue(path: home.database.path)
    try queue.writeWithoutTransaction { db in _ = try db.checkpoint(.truncate) }
    try queue.close()
    #expect(!FileManager.default.fileExists(atPath: home.database.path + "-wal"))
  }

  /// A data directory holding only a format-1 `sync-ups.json` with one sync-up ("Morning
  /// Sync"), as syncups wrote before the database: what a first run finds.
  func seededHome() throws -> Home {
    let home = try Home()
    let syncUp: [String: Any] = [
      "id": "11111111-2222-3333-4444-555555555555", "title": "Morning Sync", "duration": 300,
      "theme": "orange", "meetings": [],
      "attendees": [["id": "11111111-2222-3333-4444-000000000001", "name": "Ana"]],
    ]
    try JSONSerialization.data(withJSONObject: ["formatVersion": 1, "syncUps": [syncUp]])
      .write(to: home.url.appendingPathComponent("sync-ups.json"))
    return home
  }

  func listedSummary(_ home: Home) async throws -> [String] { summary(try await home.listed()) }

  func summary(_ listed: [[String: Any]]) -> [String] {
    listed.map { "\($0["id"] ?? "") \($0["title"] ?? "") \($0["meetings"] ?? "")" }
  }
}
