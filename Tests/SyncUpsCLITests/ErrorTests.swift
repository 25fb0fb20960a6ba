import Foundation
import GRDB
import SyncUpsFeatures
import SyncUpsTestSupport
import TestSupport
import Testing

/// Every failure is one line on stderr with a non-zero exit, and changes nothing in the data.
@Suite("syncups: errors")
struct ErrorTests {
  /// A home with one sync-up, "Morning Sync" (attendees Ana and Ben), without meetings.
  func homeWithOneSyncUp() throws -> (Home, SyncUp) {
    let home = try Home()
    let syncUp = SyncUp(
      id: SyncUp.ID(UUID(uuidString: "12345678-0000-4000-8000-000000000000")!),
      attendees: [
        Attendee(id: Attendee.ID(UUID()), name: "Ana"),
        Attendee(id: Attendee.ID(UUID()), name: "Ben"),
      ],
      title: "Morning Sync"
    )
    try home.update { $0 = [syncUp] }
    return (home, syncUp)
  }

  static let commandsTakingARef: [[String]] = [
    ["show"], ["edit", "--title", "X"], ["delete", "--yes"], ["meetings"], ["transcript"],
    ["show", "--json"], ["meetings", "--json"],
  ]

  @Test(arguments: commandsTakingARef)
  func unknownRefSuggestsACloseTitle(_ command: [String]) async throws {
    let (home, syncUp) = try homeWithOneSyncUp()
    let run = try await home.run([command[0], "mornin sync"] + command.dropFirst())
    expectOneLineFailure(
      run,
      containing: [
        "no sync-up matches 'mornin sync'", "did you mean 'Morning Sync' (12345678)?",
      ])
    #expect(try home.load() == [syncUp])
  }

  @Test func unknownRefWithNothingCloseSaysHowToList() async throws {
    let (home, _) = try homeWithOneSyncUp()
    expectOneLineFailure(
      try await home.run("show", "retrospective"),
      containing: [
        "no sync-up matches 'retrospective'", "'syncups list' shows them all",
      ])
    let empty = try Home()
    expectOneLineFailure(
      try await empty.run("show", "anything"),
      containing: [
        "there are no sync-ups yet: add one with 'syncups add'"
      ])
  }

  static let everyDataCommand: [[String]] = [
    ["list"], ["list", "--json"], ["show", "Morning Sync"],
    ["add", "--title", "New", "--attendee", "Ana"],
    ["edit", "Morning Sync", "--title", "X"], ["delete", "Morning Sync", "--yes"],
    ["meetings", "Morning Sync"], ["transcript", "Morning Sync"], ["digest", "Morning Sync"],
    ["blockers"],
  ]

  /// A `sync-ups.json` that cannot be imported on the first run is never moved, renamed or
  /// rewritten, and no database is made without it.
  @Test(arguments: everyDataCommand)
  func anUnreadableFileIsNotImportedAndKeptAsItIs(_ command: [String]) async throws {
    let home = try Home()
    let corrupt = Data(
      #"{"formatVersion": 1, "syncUps": [{"id": "not a uuid", "title": "Morning Sync""#.utf8)
    try corrupt.write(to: home.dataFile)

    let run = try await runSyncups(command, environment: ["SYNCUPS_HOME": home.url.path])
    expectOneLineFailure(
      run, containing: ["cannot import \(home.dataFile.path)", "it was left untouched"])
    #expect(try home.files() == ["sync-ups.json"])
    #expect(try Data(contentsOf: home.dataFile) == corrupt)
  }

  /// A file from a newer syncups (format 2) is left exactly as it is: one line, a non-zero
  /// exit, no database made from it, however often it is tried.
  @Test func aNewerFormatVersionIsReportedAndLeftUntouched() async throws {
    let home = try Home()
    let newer = Data(
      #"{"formatVersion": 2, "syncUps": [], "vocabulary": ["kept as it is"]}"#.utf8)
    try newer.write(to: home.dataFile)
    for command in [["list"], ["add", "--title", "New", "--attendee", "Ana"]] {
      let run = try await home.run(command)
      expectOneLineFailure(
        run, containing: ["format version 2", "update syncups", "left untouched"])
    }
    #expect(try home.files() == ["sync-ups.json"])
    #expect(try Data(contentsOf: home.dataFile) == newer)
  }

  /// A database written by a newer syncups: every command is one line, and the file is never
  /// written (its bytes and its WAL stay as they were).
  @Test func aDatabaseFromANewerVersionIsLeftUntouched() async throws {
    let (home, _) = try homeWithOneSyncUp()
    do {
      let database = try SyncUpsDatabase.open(home.dataDirectory)
      try await database.writer.write { db in
        try db.execute(
          sql: "INSERT INTO grdb_migrations (identifier) VALUES ('v99: from the future')")
      }
      try await database.writer.writeWithoutTransaction { db in _ = try db.checkpoint(.truncate) }
      try (database.writer as? DatabasePool)?.close()
    }  // Closed: nothing of this process stays open on it.
    let file = home.dataDirectory.databaseFile
    let before = try Data(contentsOf: file)
    for command in Self.everyDataCommand {
      let run = try await home.run(command)
      expectOneLineFailure(
        run, containing: ["\(file.path) was written by a newer version of syncups", "untouched"])
    }
    #expect(try Data(contentsOf: file) == before)
    // Reading may leave SQLite's empty write-ahead log beside it, never a transaction in it.
    let wal = home.url.appendingPathComponent("syncups.sqlite-wal")
    #expect((try? Data(contentsOf: wal))?.isEmpty ?? true)
  }

  @Test func withoutPulseAudioSourcesSaysSoInOneLine() async throws {
    let home = try Home()
    let run = try await home.run("sources", environment: ["PULSE_SERVER": "unix:/nonexistent"])
    expectOneLineFailure(run, containing: ["PulseAudio is not running: "])
  }

  @Test(arguments: [
    (["--duration", "5x"], "invalid duration '5x'"),
    (["--duration", "m5"], "invalid duration 'm5'"),
    (["--duration", "30s1m"], "invalid duration '30s1m'"),
    (["--duration", "0"], "between 1s and 24h"),
    (["--duration", "25h"], "between 1s and 24h"),
    (
      ["--theme", "ochre"],
      "unknown theme 'ochre'; choose one of: bubblegum, buttercup, indigo, lavender, magenta, navy, orange, oxblood, periwinkle, poppy, purple, seafoam, sky, tan, teal, yellow"
    ),
  ])
  func badDurationOrTheme(_ options: [String], _ message: String) async throws {
    let (home, syncUp) = try homeWithOneSyncUp()
    let add = try await home.run(["add", "--title", "New", "--attendee", "Ana"] + options)
    expectOneLineFailure(add, containing: [message])
    let edit = try await home.run(["edit", "morning sync"] + options)
    expectOneLineFailure(edit, containing: [message])
    #expect(try home.load() == [syncUp])
  }

  @Test func addNeedsATitleAndANamedAttendee() async throws {
    let home = try Home()
    expectOneLineFailure(
      try await home.run("add", "--attendee", "Ana"), containing: ["--title", "syncups add --help"])
    expectOneLineFailure(
      try await home.run("add", "--title", "T"), containing: ["at least one attendee"])
    expectOneLineFailure(
      try await home.run("add", "--title", "T", "--attendee", " ", "--attendee", ""),
      containing: ["at least one attendee"])
    expectOneLineFailure(
      try await home.run("add", "--title", "  ", "--attendee", "Ana"),
      containing: ["title cannot be blank"])
    #expect(try home.load().isEmpty)
  }

  @Test func editRefusesBadAttendeeChanges() async throws {
    let (home, syncUp) = try homeWithOneSyncUp()
    expectOneLineFailure(
      try await home.run("edit", "morning sync"), containing: ["nothing to change"])
    expectOneLineFailure(
      try await home.run("edit", "morning sync", "--remove-attendee", "Cy"),
      containing: ["has no attendee 'Cy'; its attendees are 'Ana', 'Ben'"])
    expectOneLineFailure(
      try await home.run(
        "edit", "morning sync", "--remove-attendee", "ana", "--remove-attendee", "BEN"),
      containing: ["cannot remove every attendee"])
    expectOneLineFailure(
      try await home.run(
        "edit", "morning sync", "--remove-attendee", "ana", "--remove-attendee", "ana"),
      containing: ["has no attendee 'ana'"])
    expectOneLineFailure(
      try await home.run("edit", "morning sync", "--add-attendee", " "),
      containing: ["--add-attendee needs a name"])
    #expect(try home.load() == [syncUp])

    // Replacing everyone in one go is fine.
    let replaced = try await home.run(
      "edit", "morning sync", "--remove-attendee", "ana", "--remove-attendee", "ben",
      "--add-attendee", "Cy")
    #expect(replaced.status == 0, "\(replaced)")
    #expect(try home.load().first?.attendees.map(\.name) == ["Cy"])
  }

  @Test func deleteWithoutYesAndNoTerminalRefuses() async throws {
    let (home, syncUp) = try homeWithOneSyncUp()
    let run = try await home.run("delete", "morning sync")
    expectOneLineFailure(
      run,
      containing: [
        "not deleting 'Morning Sync' (12345678) without confirmation", "no terminal", "--yes",
      ])
    #expect(try home.load() == [syncUp])
  }

  @Test func transcriptMistakesAreSaidInOneLine() async throws {
    let (home, _) = try homeWithOneSyncUp()
    expectOneLineFailure(
      try await home.run("transcript", "morning sync"),
      containing: [
        "'Morning Sync' (12345678) has no meetings yet: record one with 'syncups record 12345678'"
      ])
    try home.update {
      $0[id: SyncUp.ID(UUID(uuidString: "12345678-0000-4000-8000-000000000000")!)]?.meetings = [
        LifecycleTests.newer, LifecycleTests.older,
      ]
    }
    expectOneLineFailure(
      try await home.run("transcript", "morning sync", "--meeting", "3"),
      containing: ["has no meeting '3': give a number from 1 (newest) to 2"])
    expectOneLineFailure(
      try await home.run("transcript", "morning sync", "--meeting", "ffff"),
      containing: ["has no meeting 'ffff'"])
    expectOneLineFailure(
      try await home.run("transcript", "morning sync", "--format", "docx"),
      containing: ["unknown format 'docx'; choose one of: txt, md, json, srt, vtt"])
  }

  @Test func unknownCommandsAndOptionsAreOneLine() async throws {
    let home = try Home()
    expectOneLineFailure(try await home.run("lst"), containing: ["syncups --help"])
    expectOneLineFailure(
      try await home.run("list", "--jsn"), containing: ["--jsn", "syncups list --help"])
    expectOneLineFailure(try await home.run("show"), containing: ["syncups show --help"])
  }

  @Test func helpGoesToStdout() async throws {
    let home = try Home()
    let run = try await home.run("--help")
    #expect(run.status == 0)
    for command in [
      "list", "show", "add", "edit", "delete", "meetings", "transcript", "sources", "transcribe",
    ] {
      #expect(run.stdout.contains("  \(command)"), "\(command)")
    }
  }
}

/// On a terminal, `delete` asks first (the terminal is a pseudo-terminal made by `script`).
@Suite("syncups delete on a terminal")
struct DeleteConfirmationTests {
  static let hasScript = FileManager.default.isExecutableFile(atPath: "/usr/bin/script")

  /// Runs `syncups delete REF` on a pseudo-terminal, typing `answer`; returns what the terminal
  /// showed and the exit status.
  func deleteOnATerminal(_ home: Home, _ reference: String, answering answer: String) async throws
    -> (
      String, Int32
    )
  {
    if let problem = syncupsBinaryProblem { throw problem }
    let binary = syncupsBinary.path
    var environment = ProcessInfo.processInfo.environment
    environment["SYNCUPS_HOME"] = home.url.path
    environment["SHELL"] = "/bin/sh"
    let script = try ChildProcess(
      URL(fileURLWithPath: "/usr/bin/script"),
      ["-qec", "'\(binary)' delete '\(reference)'", "/dev/null"], environment: environment,
      input: Data((answer + "\n").utf8))
    let finished = await script.finished()
    return (finished.stdout + finished.stderr, finished.status ?? -1)
  }

  @Test(.enabled(if: hasScript)) func asksAndKeepsUnlessTheAnswerIsYes() async throws {
    let home = try Home()
    let syncUp = SyncUp(
      id: SyncUp.ID(UUID(uuidString: "12345678-0000-4000-8000-000000000000")!),
      attendees: [Attendee(id: Attendee.ID(UUID()), name: "Ana")],
      meetings: [LifecycleTests.older],
      title: "Morning Sync"
    )
    try home.update { $0 = [syncUp] }

    let (declined, declinedStatus) = try await deleteOnATerminal(
      home, "morning sync", answering: "n")
    #expect(
      declined.contains("Delete 'Morning Sync' (12345678) and its meeting? [y/N] "), "\(declined)")
    #expect(
      declined.contains("syncups: not deleted: 'Morning Sync' (12345678) is unchanged"),
      "\(declined)")
    #expect(declinedStatus != 0)
    #expect(try home.load() == [syncUp])

    let (confirmed, confirmedStatus) = try await deleteOnATerminal(
      home, "morning sync", answering: "y")
    #expect(confirmed.contains("Deleted 'Morning Sync' (12345678)."), "\(confirmed)")
    #expect(confirmedStatus == 0, "\(confirmed)")
    #expect(try home.load().isEmpty)
  }
}
