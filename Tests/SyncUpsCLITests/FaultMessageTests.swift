import Foundation
import GRDB
import SyncUpsFeatures
import SyncUpsTestSupport
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Every command against each fault a careless user or a broken machine makes: one line in
/// words on stderr, a non-zero exit, no Swift or SQLite internals.
@Suite("syncups: every fault is one line in words")
struct FaultMessageTests {
  /// Every command, as a user would run it on a data directory with a sync-up 'Daily'.
  static let commands: [[String]] = [
    ["list"], ["list", "--json"], ["show", "daily"],
    ["add", "--title", "Weekly", "--attendee", "Ana"],
    ["edit", "daily", "--add-attendee", "Ben"], ["delete", "daily", "--yes"],
    ["meetings", "daily"], ["transcript", "daily"], ["search", "hello"], ["export"],
    ["digest", "daily"], ["blockers"],
    ["import", "PLACEHOLDER"],
    ["record", "daily", "--input", samples.appendingPathComponent("hello.wav").path, "--fast"],
  ]

  static func arguments(_ command: [String], file: URL) -> [String] {
    command.map { $0 == "PLACEHOLDER" ? file.path : $0 }
  }

  /// One line in words: no domain, no `UserInfo`, no SQLite code, no `File.swift:12`.
  static func expectWords(
    _ run: SyncupsRun, _ what: String, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    for leak in [
      "NSCocoaErrorDomain", "Error Domain", "SQLite error", "UserInfo", "Fatal error",
      "NSUnderlying", "NSFilePath",
    ] {
      #expect(!run.stderr.contains(leak), "\(what): \(run)", sourceLocation: sourceLocation)
    }
    let fileLine = try? Regex(#"[A-Za-z]+\.swift:[0-9]+"#)
    if let fileLine {
      #expect(
        run.stderr.firstMatch(of: fileLine) == nil, "\(what): \(run)",
        sourceLocation: sourceLocation)
    }
    #expect(run.stderrLines.count <= 1, "\(what): \(run)", sourceLocation: sourceLocation)
  }

  static func expectFailure(
    _ run: SyncupsRun, _ what: String, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    expectWords(run, what, sourceLocation: sourceLocation)
    #expect(run.status != 0, "\(what): \(run)", sourceLocation: sourceLocation)
    #expect(run.stderrLines.count == 1, "\(what): \(run)", sourceLocation: sourceLocation)
  }

  /// A home with 'Daily' and an export of it to import.
  static func prepared() async throws -> (Home, URL) {
    let home = try Home()
    let add = try await home.run("add", "--title", "Daily", "--attendee", "Ana")
    #expect(add.status == 0, "\(add)")
    let file = home.url.appendingPathComponent("export.json")
    #expect(try await home.run("export", "-o", file.path).status == 0)
    return (home, file)
  }

  /// `SYNCUPS_HOME` names a file, or `/dev/null`; `syncups.sqlite` is a folder: every command
  /// that needs the data directory fails in one line in words.
  @Test(arguments: ["a file", "/dev/null", "a folder for syncups.sqlite"])
  func aDataDirectoryThatIsNotOne(_ fault: String) async throws {
    let (home, file) = try await Self.prepared()
    var environment: [String: String] = [:]
    switch fault {
    case "a file":
      let plain = home.url.appendingPathComponent("plain")
      try Data("x".utf8).write(to: plain)
      environment["SYNCUPS_HOME"] = plain.path
    case "/dev/null":
      environment["SYNCUPS_HOME"] = "/dev/null"
    default:
      let other = try TemporaryDirectory()
      try FileManager.default.createDirectory(
        at: other.file("syncups.sqlite"), withIntermediateDirectories: true)
      environment["SYNCUPS_HOME"] = other.path
    }
    for command in Self.commands {
      let arguments = Self.arguments(command, file: file)
      let run = try await home.run(arguments, environment: environment)
      Self.expectFailure(run, "\(fault): \(arguments)")
    }
  }

  /// `locks` is a file: `record` says so in one line; the others work or say so in words.
  @Test func aLocksFileWhereAFolderShouldBeIsSaidInWords() async throws {
    let (home, file) = try await Self.prepared()
    try Data("x".utf8).write(to: home.url.appendingPathComponent("locks"))
    for command in Self.commands {
      let arguments = Self.arguments(command, file: file)
      let run = try await home.run(arguments)
      Self.expectWords(run, "locks is a file: \(arguments)")
      if command[0] == "record" { Self.expectFailure(run, "locks is a file: \(arguments)") }
    }
  }

  /// `import` of what is not a file: a device, endless zeros, a FIFO (which must not hang).
  @Test func importOfWhatIsNotAFile() async throws {
    let (home, _) = try await Self.prepared()
    let fifo = home.url.appendingPathComponent("fifo")
    #expect(mkfifo(fifo.path, 0o644) == 0)
    for path in ["/dev/null", "/dev/zero", fifo.path] {
      let run = try await home.run("import", path)
      Self.expectFailure(run, "import \(path)")
      #expect(run.stderr.contains(path), "\(run)")
      #expect(!run.stderr.contains("permission"), "\(run)")
    }
  }

  /// Mistakes in the command line: said as what they are, never "Missing value", never help
  /// with exit 0.
  @Test func commandLineMistakesAreSaidAsWhatTheyAre() async throws {
    let (home, _) = try await Self.prepared()
    let cases: [([String], [String])] = [
      (["add", "--title", "T", "--attendee", "A", "--duration", "-1"], ["invalid duration '-1'"]),
      (["edit", "daily", "--duration", "-1"], ["invalid duration '-1'"]),
      (["search", "hello", "--since", "-1d"], ["invalid date '-1d'"]),
      (["search", "-hello"], ["-hello"]),
    ]
    for (arguments, words) in cases {
      let run = try await home.run(arguments)
      Self.expectFailure(run, "\(arguments)")
      #expect(!run.stderr.contains("Missing value"), "\(arguments): \(run)")
      #expect(run.stdout.isEmpty, "\(arguments): \(run)")
      for word in words { #expect(run.stderr.contains(word), "\(arguments): \(run)") }
    }
    // What was meant still works: a query that starts with '-' after '--'.
    let dashed = try await home.run("search", "--", "-hello")
    Self.expectWords(dashed, "search -- -hello")
    #expect(!dashed.stdout.contains("USAGE"), "\(dashed)")
  }

  /// A `--source` that failed is not remembered as the last microphone.
  @Test func aFailedSourceIsNotRemembered() async throws {
    let (home, _) = try await Self.prepared()
    let run = try await home.run(
      ["record", "daily", "--source", "syncups-no-such-source", "--no-transcription"],
      environment: ["PULSE_SERVER": "unix:/nonexistent/pulse"])
    Self.expectFailure(run, "record --source")
    var configuration = Configuration()
    configuration.readonly = true
    let queue = try DatabaseQueue(
      path: home.dataDirectory.databaseFile.path, configuration: configuration)
    let remembered = try await queue.read { db in
      try String.fetchOne(db, sql: "SELECT value FROM setting WHERE key = 'record.source'")
    }
    #expect(remembered == nil)
  }
}

/// Small things: a true reason for words the model cannot say, no lock files left by dead
/// recordings, lower-case ids in an export.
@Suite("syncups: small things")
struct SmallThingsTests {
  @Test func aWordInAnotherScriptIsRefusedForWhatItIs() async throws {
    let home = try Home()
    let run = try await home.run("add", "--title", "T", "--attendee", "Ana", "--word", "日本")
    expectOneLineFailure(run, containing: ["日本", "English"])
    #expect(!run.stderr.contains("other than letters"), "\(run)")
  }

  /// Lock files of recordings that are gone (killed, crashed) are removed by the next command.
  @Test func lockFilesDoNotPileUp() async throws {
    let home = try Home()
    #expect(try await home.run("add", "--title", "T", "--attendee", "Ana").status == 0)
    let locks = home.url.appendingPathComponent("locks")
    try FileManager.default.createDirectory(at: locks, withIntermediateDirectories: true)
    for _ in 0..<5 {
      try Data().write(to: locks.appendingPathComponent("\(UUID().uuidString.lowercased()).lock"))
    }
    let run = try await home.run("list")
    #expect(run.status == 0, "\(run)")
    let left = try FileManager.default.contentsOfDirectory(atPath: locks.path)
    #expect(left.isEmpty, "\(left)")
  }

  @Test func exportWritesLowerCaseIds() async throws {
    let home = try await SearchExportImportTests.seeded()
    let run = try await home.run("export")
    #expect(run.status == 0, "\(run)")
    let upper = try Regex(#"[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12}"#)
    let lower = try Regex(#"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"#)
    #expect(run.stdout.firstMatch(of: lower) != nil)
    let ids = run.stdout.matches(of: upper).map { String(run.stdout[$0.range]) }
    #expect(ids.allSatisfy { $0 == $0.lowercased() }, "\(ids.prefix(3))")
  }
}
