import Foundation
import GRDB
import SyncUpsFeatures
import SyncUpsTestSupport
import TestSupport
import Testing

/// No path from outside is trusted: a meeting's audio is `audio/<meeting id>.flac` in the data
/// directory, a name the program derives; an imported `audioFile` never names a file, so
/// nothing outside the data directory is written or removed, and no two meetings share audio.
@Suite("syncups: no path from outside is trusted")
struct UntrustedPathTests {
  /// A data directory (`data`) inside a folder of its own, so a test can put a victim beside it.
  struct Sandbox {
    let folder: TemporaryDirectory
    var data: URL { folder.file("data") }

    init() throws {
      folder = try TemporaryDirectory()
      try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
    }

    func run(_ arguments: String...) async throws -> SyncupsRun {
      try await runSyncups(arguments, environment: ["SYNCUPS_HOME": data.path])
    }

    /// A folder with a file in it, beside the data directory.
    func victim() throws -> URL {
      let victim = folder.file("victimdir")
      try FileManager.default.createDirectory(at: victim, withIntermediateDirectories: true)
      try Data("precious".utf8).write(to: victim.appendingPathComponent("keep.txt"))
      return victim
    }

    func audio(_ id: String) -> URL { data.appendingPathComponent("audio/\(id).flac") }

    /// `audioFile` of every meeting row (read-only).
    func storedAudio() throws -> [String: String?] {
      var configuration = Configuration()
      configuration.readonly = true
      let queue = try DatabaseQueue(
        path: data.appendingPathComponent("syncups.sqlite").path, configuration: configuration)
      return try queue.read { db in
        Dictionary(
          uniqueKeysWithValues: try Row.fetchAll(db, sql: "SELECT id, audioFile FROM meeting").map {
            (row: Row) -> (String, String?) in (row["id"], row["audioFile"])
          })
      }
    }
  }

  static func syncUp(
    _ id: String, _ title: String, attendeeID: String, meetings: [[String: Any]]
  ) -> [String: Any] {
    [
      "id": id, "title": title, "duration": 300, "theme": "teal",
      "attendees": [["id": attendeeID, "name": "Ana"]], "meetings": meetings,
    ]
  }

  static func meeting(_ id: String, audioFile: String?) -> [String: Any] {
    var meeting: [String: Any] = [
      "id": id, "date": "2026-11-20T09:00:00Z", "transcript": "",
      "segments": [["speaker": "Ana", "start": 0, "end": 2, "text": "hello", "words": []]],
    ]
    meeting["audioFile"] = audioFile
    return meeting
  }

  static func file(_ syncUps: [[String: Any]]) throws -> Data {
    try JSONSerialization.data(withJSONObject: ["formatVersion": 1, "syncUps": syncUps])
  }

  static let evilID = "eeeeeeee-0000-4000-8000-000000000001"
  static let evilMeeting = "eeeeeeee-0000-4000-8000-0000000000aa"

  /// `"audioFile": "../victimdir"` in an import, then `delete`: the folder beside the data
  /// directory stays, and the meeting does not claim that path.
  @Test(arguments: ["../victimdir", "../victimdir/", "audio/../../victimdir", "/PLACEHOLDER"])
  func anImportedAudioFileNeverNamesAFile(_ path: String) async throws {
    let box = try Sandbox()
    defer { box.folder.remove() }
    let victim = try box.victim()
    let audioFile = path == "/PLACEHOLDER" ? victim.path : path
    let evil = box.folder.file("evil.json")
    try Self.file([
      Self.syncUp(
        Self.evilID, "Evil", attendeeID: "eeeeeeee-0000-4000-8000-000000000002",
        meetings: [Self.meeting(Self.evilMeeting, audioFile: audioFile)])
    ]).write(to: evil)
    let imported = try await box.run("import", evil.path)
    #expect(imported.status == 0, "\(imported)")
    let stored = try box.storedAudio()[Self.evilMeeting] ?? nil
    #expect(stored == nil, "the import kept \(stored ?? "")")
    let deleted = try await box.run("delete", "evil", "--yes")
    #expect(deleted.status == 0, "\(deleted)")
    #expect(
      FileManager.default.fileExists(atPath: victim.appendingPathComponent("keep.txt").path),
      "delete removed \(audioFile)")
  }

  /// A copy of a meeting that names another meeting's audio: deleting the copy leaves the
  /// original's audio, and the copy never claims it.
  @Test func aCopiedMeetingDoesNotShareTheOriginalsAudio() async throws {
    let box = try Sandbox()
    defer { box.folder.remove() }
    let add = try await box.run("add", "--title", "Original", "--attendee", "Ana")
    #expect(add.status == 0, "\(add)")
    let original = "0a0a0a0a-0000-4000-8000-000000000001"
    // The original meeting as a recording leaves it: audio at its derived name.
    let home = DataDirectory(url: box.data)
    let database = try SyncUpsDatabase.open(home)
    let syncUpID = try #require(try database.exportedSyncUps().first?.id)
    var originalSyncUp = try #require(try database.exportedSyncUps().first)
    let meetingID = Meeting.ID(UUID(uuidString: original)!)
    originalSyncUp.meetings = [
      Meeting(
        id: meetingID, date: Date(timeIntervalSince1970: 1_790_000_000), transcript: "",
        audioFile: DataDirectory.audioFile(of: meetingID), length: 3)
    ]
    try database.edit(
      from: try #require(try database.exportedSyncUps()[id: syncUpID]), to: originalSyncUp)
    database.close()
    try FileManager.default.createDirectory(
      at: box.data.appendingPathComponent("audio"), withIntermediateDirectories: true)
    try Data("flac".utf8).write(to: box.audio(original))

    let copy = box.folder.file("copy.json")
    try Self.file([
      Self.syncUp(
        Self.evilID, "Copy", attendeeID: "eeeeeeee-0000-4000-8000-000000000002",
        meetings: [Self.meeting(Self.evilMeeting, audioFile: "audio/\(original).flac")])
    ]).write(to: copy)
    let imported = try await box.run("import", copy.path)
    #expect(imported.status == 0, "\(imported)")
    #expect((try box.storedAudio()[Self.evilMeeting] ?? nil) == nil)
    let deleted = try await box.run("delete", "copy", "--yes")
    #expect(deleted.status == 0, "\(deleted)")
    #expect(FileManager.default.fileExists(atPath: box.audio(original).path))
    // The original still owns it: deleting it removes it.
    let gone = try await box.run("delete", "original", "--yes")
    #expect(gone.status == 0, "\(gone)")
    #expect(!FileManager.default.fileExists(atPath: box.audio(original).path))
  }

  /// A first-run `sync-ups.json` is imported by the same rule.
  @Test func theFirstRunImportNeverUsesAPathEither() async throws {
    let box = try Sandbox()
    defer { box.folder.remove() }
    let victim = try box.victim()
    try Self.file([
      Self.syncUp(
        Self.evilID, "Evil", attendeeID: "eeeeeeee-0000-4000-8000-000000000002",
        meetings: [Self.meeting(Self.evilMeeting, audioFile: "../victimdir")])
    ]).write(to: box.data.appendingPathComponent("sync-ups.json"))
    let deleted = try await box.run("delete", "evil", "--yes")
    #expect(deleted.status == 0, "\(deleted)")
    #expect(FileManager.default.fileExists(atPath: victim.appendingPathComponent("keep.txt").path))
  }

  /// A database written before the rule (an import that kept `../victimdir`, audio stored under
  /// another name): the stored path is never used; audio at an old name inside `audio/` is
  /// moved to the derived name and stays the meeting's.
  @Test func storedPathsFromBeforeAreNeverUsedAndOldAudioIsMoved() async throws {
    let box = try Sandbox()
    defer { box.folder.remove() }
    let victim = try box.victim()
    let add = try await box.run("add", "--title", "Old", "--attendee", "Ana")
    #expect(add.status == 0, "\(add)")
    let evil = "0b0b0b0b-0000-4000-8000-000000000001"
    let kept = "0c0c0c0c-0000-4000-8000-000000000002"
    // As an older syncups left it (before the derived names' migration): one row naming a
    // path outside, one an upper-case name.
    let queue = try DatabaseQueue(path: box.data.appendingPathComponent("syncups.sqlite").path)
    try await queue.write { db in
      try db.execute(sql: "DELETE FROM grdb_migrations WHERE identifier LIKE 'v3:%'")
      let syncUpID = try String.fetchOne(db, sql: "SELECT id FROM syncUp") ?? ""
      for (id, path) in [(evil, "../victimdir"), (kept, "audio/\(kept.uppercased()).flac")] {
        try db.execute(
          sql: """
            INSERT INTO meeting (id, syncUpId, date, isFinished, length, audioFile)
            VALUES (?, ?, 1790000000, 1, 3, ?)
            """, arguments: [id, syncUpID, path])
      }
    }
    try queue.close()
    try FileManager.default.createDirectory(
      at: box.data.appendingPathComponent("audio"), withIntermediateDirectories: true)
    try Data("old".utf8).write(
      to: box.data.appendingPathComponent("audio/\(kept.uppercased()).flac"))

    let list = try await box.run("meetings", "old", "--json")
    #expect(list.status == 0, "\(list)")
    #expect(FileManager.default.fileExists(atPath: box.audio(kept).path), "\(list)")
    let stored = try box.storedAudio()
    #expect((stored[kept] ?? nil) == "audio/\(kept).flac")
    #expect((stored[evil] ?? nil) == nil)

    let deleted = try await box.run("delete", "old", "--yes")
    #expect(deleted.status == 0, "\(deleted)")
    #expect(FileManager.default.fileExists(atPath: victim.appendingPathComponent("keep.txt").path))
    #expect(!FileManager.default.fileExists(atPath: box.audio(kept).path))
  }
}
