import Foundation
import GRDB
import SyncUpsFeatures
import SyncUpsTestSupport
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The commands on the database (`syncups.sqlite`): the first run's import of `sync-ups.json`,
/// `delete` with the meetings' audio and while a recording runs, the remembered microphone.
@Suite("syncups on the database")
struct DatabaseCommandTests {
  static let syncUpID = SyncUp.ID(UUID(uuidString: "12345678-0000-4000-8000-000000000000")!)

  static let daily: SyncUp = {
    SyncUp(
      id: syncUpID,
      attendees: [
        Attendee(id: Attendee.ID(UUID()), name: "Ben"),
        Attendee(id: Attendee.ID(UUID()), name: "Cy"),
      ],
      meetings: [LifecycleTests.newer, LifecycleTests.older],
      title: "Daily"
    )
  }()

  /// Format-1 JSON, as the file storage wrote it.
  static func formatOneFile(_ syncUps: IdentifiedArrayOf<SyncUp>) throws -> Data {
    let database = try SyncUpsDatabase.inMemory()
    for syncUp in syncUps { try database.add(syncUp) }
    return try database.export()
  }

  @Test func theFirstRunImportsTheFileInOneGoAndKeepsItByteForByte() async throws {
    let home = try Home()
    let file = try Self.formatOneFile([Self.daily])
    try file.write(to: home.dataFile)

    let list = try await home.run("list")
    #expect(list.status == 0, "\(list)")
    #expect(
      list.stderr
        == "syncups: imported 1 sync-up and 2 meetings from \(home.dataFile.path) into "
        + "\(home.dataDirectory.databaseFile.path); the file is kept as "
        + "\(home.dataFile.path).imported\n")
    #expect(list.stdout.contains("12345678  Daily"), "\(list)")
    let kept = home.url.appendingPathComponent("sync-ups.json.imported")
    #expect(try Data(contentsOf: kept) == file)
    #expect(!FileManager.default.fileExists(atPath: home.dataFile.path))

    // Meetings and transcripts are there; the next run says nothing more.
    let meetings = try await home.run("meetings", "daily", "--json")
    #expect(meetings.stderr.isEmpty, "\(meetings)")
    let rows = try #require(
      try JSONSerialization.jsonObject(with: Data(meetings.stdout.utf8)) as? [[String: Any]])
    #expect(rows.map { $0["segments"] as? Int } == [3, 1])
    let transcript = try await home.run("transcript", "daily", "--meeting", "1")
    #expect(transcript.status == 0, "\(transcript)")
    #expect(transcript.stdout.contains("Cy: yesterday I fixed the build"), "\(transcript)")
    #expect(try home.load() == [Self.daily])
  }

  /// `delete` removes the rows and the meetings' audio files; another sync-up's stay.
  @Test func deleteRemovesTheMeetingsAudio() async throws {
    let home = try Home()
    var daily = Self.daily
    var other = SyncUp(
      id: SyncUp.ID(UUID()), attendees: [Attendee(id: Attendee.ID(UUID()), name: "Ana")],
      meetings: [
        Meeting(id: Meeting.ID(UUID()), date: LifecycleTests.olderDate, transcript: "")
      ],
      title: "Other")
    for index in daily.meetings.indices {
      daily.meetings[index].audioFile = DataDirectory.audioFile(of: daily.meetings[index].id)
    }
    other.meetings[0].audioFile = DataDirectory.audioFile(of: other.meetings[0].id)
    try FileManager.default.createDirectory(
      at: home.dataDirectory.audioDirectory, withIntermediateDirectories: true)
    for meeting in daily.meetings + other.meetings {
      try Data("flac".utf8).write(to: home.url.appendingPathComponent(meeting.audioFile!))
    }
    try home.update { $0 = [daily, other] }

    let run = try await home.run("delete", "daily", "--yes")
    #expect(run.status == 0 && run.stderr.isEmpty, "\(run)")
    #expect(run.stdout == "Deleted 'Daily' (12345678).\n")
    let left = try FileManager.default.contentsOfDirectory(
      atPath: home.dataDirectory.audioDirectory.path)
    #expect(left == ["\(other.meetings[0].id.rawValue.uuidString.lowercased()).flac"])
    #expect(try home.load().map(\.id) == [other.id])
  }

  /// While a meeting of the sync-up is being recorded (by another process), `delete` refuses in
  /// one line and removes nothing; once the recording is saved, it deletes it and its audio.
  @Test func deleteIsRefusedWhileTheSyncUpIsBeingRecorded() async throws {
    if let problem = syncupsBinaryProblem { throw problem }
    let home = try Home()
    let add = try await home.run(
      "add", "--title", "Daily", "--attendee", "Ana", "--duration", "10m")
    #expect(add.status == 0, "\(add)")

    // The private daemon's null-sink monitor never ends: the recording runs until SIGINT,
    // however slowly this test gets to look (the machine may be busy).
    let pulse = try PrivatePulse.environment()
    let log = home.url.appendingPathComponent("record.log")
    FileManager.default.createFile(atPath: log.path, contents: nil)
    let logHandle = try FileHandle(forWritingTo: log)
    let recorder = try ChildProcess(
      syncupsBinary, ["record", "daily", "--source", "syncups_out.monitor", "--no-transcription"],
      environment: ["SYNCUPS_HOME": home.url.path, "PATH": "/usr/bin:/bin"].merging(pulse) { $1 },
      standardOutput: .file(logHandle), standardError: .file(logHandle))
    defer { if recorder.isRunning { kill(recorder.processIdentifier, SIGKILL) } }

    // The recording runs once its meeting is an unfinished, active row and its audio is there.
    let database = try SyncUpsDatabase.open(home.dataDirectory)
    func running() throws -> UnfinishedMeeting? {
      try database.unfinished().first { meeting in
        meeting.isActive
          && meeting.audioFile.map {
            FileManager.default.fileExists(atPath: home.url.appendingPathComponent($0).path)
          } == true
      }
    }
    _ = try await waitUntil { try running() != nil || !recorder.isRunning }
    let started = ContinuousClock.now
    func output() -> String { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }
    let unfinished = try database.unfinished()
    let recording = try #require(
      try running(), "running: \(recorder.isRunning); \(unfinished); \(output())")
    let audio = home.url.appendingPathComponent(try #require(recording.audioFile))

    let refused = try await home.run("delete", "daily", "--yes")
    expectOneLineFailure(
      refused, containing: ["'Daily' is being recorded; nothing was deleted", "end that recording"])
    #expect(try home.load().map(\.title) == ["Daily"])
    #expect(FileManager.default.fileExists(atPath: audio.path))

    // SIGINT ends and saves the meeting, once it has run a second (a meeting ended within its
    // first second with nothing heard is not saved).
    try await Task.sleep(until: started + .seconds(1.5))
    recorder.signal(SIGINT)
    await recorder.waitUntilExit()
    #expect(recorder.terminationStatus == 0)
    #expect(try home.load().first?.meetings.map(\.id) == [recording.meetingID])

    let deleted = try await home.run("delete", "daily", "--yes")
    #expect(deleted.status == 0, "\(deleted)")
    #expect(!FileManager.default.fileExists(atPath: audio.path))
    #expect(try home.load().isEmpty)
  }

  /// `record --source NAME` is remembered: without `--source` the next `record` uses it and
  /// says so; a remembered source that is gone falls back to the default, said too.
  @Test func recordRemembersTheMicrophone() async throws {
    let pulse = try PrivatePulse.environment()
    let home = try Home()
    let add = try await home.run("add", "--title", "Daily", "--attendee", "Ana", "--duration", "1s")
    #expect(add.status == 0, "\(add)")
    // The daemon's null sink's monitor: a source that always exists and delivers silence.
    let source = "syncups_out.monitor"
    let first = try await home.run(
      ["record", "daily", "--source", source, "--no-transcription"], environment: pulse)
    #expect(first.status == 0, "\(first)")
    #expect(!first.stderr.contains("last used"), "\(first)")

    let second = try await home.run(["record", "daily", "--no-transcription"], environment: pulse)
    #expect(second.status == 0, "\(second)")
    #expect(
      second.stderrLines == [
        "syncups: using microphone \(source) (last used; --source to change)"
      ], "\(second)")

    // A source that failed is not remembered: the last one that recorded is kept.
    let failed = try await home.run(
      ["record", "daily", "--source", "syncups-no-such-source", "--no-transcription"],
      environment: pulse)
    #expect(failed.status != 0, "\(failed)")
    let kept = try await home.run(["record", "daily", "--no-transcription"], environment: pulse)
    #expect(
      kept.stderrLines == [
        "syncups: using microphone \(source) (last used; --source to change)"
      ], "\(kept)")

    // A remembered source that no longer exists (unplugged since): the default is used, and
    // said.
    let queue = try DatabaseQueue(path: home.dataDirectory.databaseFile.path)
    try await queue.write { db in
      try db.execute(
        sql: "UPDATE setting SET value = 'syncups-no-such-source' WHERE key = 'record.source'")
    }
    try queue.close()
    let fallback = try await home.run(
      ["record", "daily", "--no-transcription"], environment: pulse)
    #expect(
      fallback.stderrLines.first
        == "syncups: the microphone last used, syncups-no-such-source, is gone; using the "
        + "default (--source to choose one; 'syncups sources' lists them)", "\(fallback)")
  }

  /// Several `--source`s (a remote stand-up) are remembered together, as one is.
  @Test func recordRemembersSeveralSources() async throws {
    let pulse = try PrivatePulse.environment()
    let microphone = try VirtualMicrophone()
    defer { microphone.remove() }
    let home = try Home()
    let add = try await home.run("add", "--title", "Daily", "--attendee", "Ana", "--duration", "1s")
    #expect(add.status == 0, "\(add)")
    let first = try await home.run(
      [
        "record", "daily", "--source", "syncups_out.monitor", "--source", microphone.name,
        "--no-transcription",
      ], environment: pulse)
    #expect(first.status == 0, "\(first)")
    let second = try await home.run(["record", "daily", "--no-transcription"], environment: pulse)
    #expect(second.status == 0, "\(second)")
    #expect(
      second.stderrLines == [
        "syncups: using sources syncups_out.monitor, \(microphone.name) (last used; --source to "
          + "change)"
      ], "\(second)")
    #expect(try home.load().first?.meetings.count == 2)
  }

  static let canDropPrivileges =
    getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv")

  /// Runs `syncups` as `nobody`, for whom `home` can only be read.
  func runAsNobody(_ home: Home, _ arguments: [String]) async throws -> Run {
    try await runSyncups(
      arguments, environment: ["SYNCUPS_HOME": home.url.path, "HOME": "/tmp"],
      launcher: ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"])
  }

  /// A data folder the user cannot write (another user's, a read-only mount): what was saved
  /// can be listed and shown, commits still in the write-ahead log included; every change is
  /// refused in one line, and nothing is written.
  @Test(.enabled(if: canDropPrivileges)) func aReadOnlyFolderIsReadAndRefusesChanges() async throws
  {
    if let problem = syncupsBinaryProblem { throw problem }
    let home = try Home()
    try home.update { $0 = [Self.daily] }
    // A later commit by a process that exits without a checkpoint: it is in the log only.
    let added = try await home.run("add", "--title", "Later", "--attendee", "Ana")
    #expect(added.status == 0, "\(added)")
    #expect(FileManager.default.fileExists(atPath: home.dataDirectory.databaseFile.path + "-wal"))
    let chmod = try ChildProcess(
      URL(fileURLWithPath: "/bin/chmod"), ["-R", "a+rX,go-w", home.url.path],
      standardOutput: .inherit, standardError: .inherit)
    await chmod.waitUntilExit()
    let before = try Data(contentsOf: home.dataDirectory.databaseFile)

    let list = try await runAsNobody(home, ["list"])
    #expect(list.status == 0 && list.stderr.isEmpty, "\(list)")
    #expect(list.stdout.contains("Daily") && list.stdout.contains("Later"), "\(list)")
    let transcript = try await runAsNobody(home, ["transcript", "daily", "--meeting", "1"])
    #expect(transcript.stdout.contains("Cy: yesterday I fixed the build"), "\(transcript)")
    let meetings = try await runAsNobody(home, ["meetings", "daily"])
    #expect(meetings.status == 0, "\(meetings)")
    for change in [
      ["add", "--title", "New", "--attendee", "Ana"], ["edit", "daily", "--title", "X"],
      ["delete", "daily", "--yes"],
      ["record", "daily", "--input", samples.appendingPathComponent("hello.wav").path],
    ] {
      expectOneLineFailure(
        try await runAsNobody(home, change), containing: ["can only be read here", "still work"])
    }
    #expect(try Data(contentsOf: home.dataDirectory.databaseFile) == before)
    #expect(try home.load().map(\.title) == ["Daily", "Later"])
  }
}
