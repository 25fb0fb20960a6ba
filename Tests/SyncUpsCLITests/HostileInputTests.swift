import Foundation
import GRDB
import SyncUpsFeatures
import SyncUpsTestSupport
import TestSupport
import Testing

/// No crash on any input: random and extreme values in every numeric option, in an import, in
/// a first-run `sync-ups.json` and in the database end in one line (or a success that keeps
/// working), never a backtrace, and nothing is saved half.
@Suite("syncups: no crash on any number")
struct HostileNumberTests {
  /// How a command must end whatever it was given: a status it chose (0, 1, 2, or the argument
  /// parser's 64), at most one line on stderr, nothing of Swift's internals.
  static func expectCleanEnd(
    _ run: SyncupsRun, _ what: String, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    #expect([0, 1, 2, 64].contains(run.status), "\(what): \(run)", sourceLocation: sourceLocation)
    #expect(run.stderrLines.count <= 1, "\(what): \(run)", sourceLocation: sourceLocation)
    for leak in ["Fatal error", "Backtrace", "Stack dump", "Crash", ".swift:", "Thread 0"] {
      #expect(!run.stderr.contains(leak), "\(what): \(run)", sourceLocation: sourceLocation)
    }
    if run.status != 0 {
      #expect(run.stderrLines.count == 1, "\(what): \(run)", sourceLocation: sourceLocation)
    }
  }

  /// The same random values on every run, a different stream for each seed.
  struct Random: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return z ^ (z >> 31)
    }
  }

  static func digits(_ count: Int, _ random: inout Random) -> String {
    String((0..<count).map { _ in "0123456789".randomElement(using: &random)! })
  }

  /// Strings for numeric options: the edges of Int, of the units, signs, exponents, other digits.
  static func numberTexts(units: String, seed: UInt64) -> [String] {
    var random = Random(state: seed)
    var texts = [
      "2562047788015215h59m59s", "9223372036854775807", "9223372036854775808",
      "-9223372036854775808", "99999999999999999999h", "-1", "-0", "0", "1e300", "-1e300", "nan",
      "inf", "0x10", "1.5", "٣", "１０", "", " ", "--", "1h1h", "59m1h", "9223372036854775807s",
      "9223372036854775807d", "-1d", "-1w", "99999999999999999999w", "36501d", "9999-12-31",
      "0000-01-01", "2026-02-30", "-2026-01-01", "1e9d",
    ]
    for _ in 0..<6 {
      let unit = units.randomElement(using: &random).map(String.init) ?? ""
      let sign = Bool.random(using: &random) ? "-" : ""
      texts.append(sign + digits(Int.random(in: 1...25, using: &random), &random) + unit)
    }
    return texts
  }

  /// `--duration` for add and edit: refused in one line (nothing saved) or within 1s to 24h.
  @Test func everyDurationIsRefusedInOneLineOrInRange() async throws {
    let home = try Home()
    let base = try await home.run("add", "--title", "Base", "--attendee", "Ana")
    #expect(base.status == 0, "\(base)")
    for text in Self.numberTexts(units: "hms", seed: 1) {
      let before = try await home.run("list", "--json").stdout
      for arguments in [
        ["add", "--title", "New", "--attendee", "Ana", "--duration", text],
        ["edit", "base", "--duration", text],
      ] {
        let run = try await home.run(arguments)
        Self.expectCleanEnd(run, "\(arguments)")
        if run.status != 0 {
          #expect(try await home.run("list", "--json").stdout == before, "\(arguments)")
        }
      }
      _ = try await home.run("delete", "new", "--yes")
    }
    let shown = try await home.run("show", "base")
    #expect(shown.status == 0, "\(shown)")
  }

  /// `--since` and `--limit` (search, meetings), `--meeting` (transcript), `--jobs` (transcribe).
  @Test func everyOtherNumericOptionEndsCleanly() async throws {
    let home = try await SearchExportImportTests.seeded()
    for text in Self.numberTexts(units: "dw", seed: 2) {
      let since = try await home.run("search", "staging", "--since", text)
      Self.expectCleanEnd(since, "--since \(text)")
      for arguments in [
        ["search", "staging", "--limit", text], ["meetings", "morning", "--limit", text],
        ["transcript", "morning", "--meeting", text],
      ] {
        Self.expectCleanEnd(try await home.run(arguments), "\(arguments)")
      }
    }
    let hello = samples.appendingPathComponent("hello.wav").path
    for text in ["0", "-1", "9223372036854775807", "99999999999999999999", "1e300"] {
      let run = try await home.run("transcribe", hello, "--jobs", text)
      Self.expectCleanEnd(run, "--jobs \(text)")
    }
  }

  /// A valid export of one sync-up with one meeting, as a dictionary to make worse.
  static func export() -> [String: Any] {
    [
      "formatVersion": 1,
      "syncUps": [
        [
          "id": "f0000000-0000-4000-8000-000000000001", "title": "Fuzz", "duration": 300,
          "theme": "teal",
          "attendees": [["id": "f0000000-0000-4000-8000-0000000000a1", "name": "Ana"]],
          "meetings": [
            [
              "id": "f0000000-0000-4000-8000-0000000000b1", "date": "2026-11-20T09:00:00Z",
              "transcript": "", "length": 60,
              "segments": [
                [
                  "speaker": "Ana", "start": 1, "end": 3, "text": "hello there",
                  "words": [
                    ["word": "hello", "start": 1, "end": 2, "confidence": 0.9],
                    ["word": "there", "start": 2, "end": 3, "confidence": 0.8],
                  ],
                ]
              ],
            ]
          ],
        ]
      ],
    ]
  }

  /// `export()` with one field replaced (a path of keys and indices).
  static func export(setting path: [Any], to value: Any) -> [String: Any] {
    func set(_ container: Any, _ path: ArraySlice<Any>) -> Any {
      guard let first = path.first else { return value }
      if let key = first as? String, var object = container as? [String: Any] {
        object[key] = set(object[key] as Any, path.dropFirst())
        return object
      }
      if let index = first as? Int, var array = container as? [Any] {
        array[index] = set(array[index], path.dropFirst())
        return array
      }
      return container
    }
    return set(export(), path[...]) as? [String: Any] ?? [:]
  }

  static var numericFields: [[Any]] {
    [
      ["syncUps", 0, "duration"],
      ["syncUps", 0, "meetings", 0, "length"],
      ["syncUps", 0, "meetings", 0, "segments", 0, "start"],
      ["syncUps", 0, "meetings", 0, "segments", 0, "end"],
      ["syncUps", 0, "meetings", 0, "segments", 0, "words", 0, "start"],
      ["syncUps", 0, "meetings", 0, "segments", 0, "words", 0, "end"],
      ["syncUps", 0, "meetings", 0, "segments", 0, "words", 0, "confidence"],
      ["formatVersion"],
    ]
  }

  static func numbers(seed: UInt64) -> [Double] {
    var random = Random(state: seed)
    var values: [Double] = [
      1e300, -1e300, 1e19, -1e19, 9.3e15, 9_223_372_036_854_775_807, -5, -1, 0, 1e-300,
      86_401, 604_801, .greatestFiniteMagnitude, .leastNonzeroMagnitude,
    ]
    for _ in 0..<4 {
      values.append(
        Double(
          sign: Bool.random(using: &random) ? .minus : .plus,
          exponent: Int.random(in: -1000...1000, using: &random),
          significand: Double.random(in: 1..<2, using: &random)))
    }
    return values
  }

  /// What a successful import must keep doing: every reading command works on it.
  static func expectReadable(_ home: Home, _ what: String) async throws {
    for arguments in [
      ["list"], ["show", "fuzz"], ["meetings", "fuzz"], ["meetings", "fuzz", "--json"],
      ["search", "hello"], ["search", "hello", "--json"], ["export"],
    ] + ["txt", "md", "json", "srt", "vtt"].map({ ["transcript", "fuzz", "--format", $0] }) {
      let run = try await home.run(arguments)
      expectCleanEnd(run, "\(what), then \(arguments)")
      #expect(run.status == 0, "\(what), then \(arguments): \(run)")
    }
  }

  /// Import of a file with one extreme number: refused in one line naming the file (nothing
  /// added), or added and readable by every command.
  @Test(arguments: Array(numericFields.indices))
  func anExtremeNumberInAnImportIsRefusedOrReadable(_ field: Int) async throws {
    let path = Self.numericFields[field]
    for value in Self.numbers(seed: UInt64(field) + 10) {
      let home = try Home()
      let file = home.url.appendingPathComponent("fuzz.json")
      let json = Self.export(setting: path, to: value)
      try JSONSerialization.data(withJSONObject: json).write(to: file)
      let run = try await home.run("import", file.path)
      let what = "\(path) = \(value)"
      Self.expectCleanEnd(run, what)
      if run.status == 0 {
        try await Self.expectReadable(home, what)
      } else {
        #expect(run.stderr.contains(file.path), "\(what): \(run)")
        let list = try await home.run("list", "--json")
        #expect(list.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "[]", "\(what)")
      }
    }
  }

  /// The same in a first-run `sync-ups.json`: every command says one line (naming the file)
  /// until it is fixed, or the import happened and everything reads it; never a crash.
  @Test func anExtremeNumberInAFirstRunFileNeverCrashesACommand() async throws {
    for (index, path) in Self.numericFields.enumerated() {
      for value in [1e300, -1e300, -5, 1e19] {
        let home = try Home()
        let json = Self.export(setting: path, to: value)
        try JSONSerialization.data(withJSONObject: json).write(to: home.dataFile)
        let what = "sync-ups.json with \(path) = \(value) (\(index))"
        let first = try await home.run("list")
        Self.expectCleanEnd(first, what)
        if first.status == 0 {
          try await Self.expectReadable(home, what)
        } else {
          #expect(first.stderr.contains(home.dataFile.path), "\(what): \(first)")
          let again = try await home.run("meetings", "fuzz")
          Self.expectCleanEnd(again, what)
        }
      }
    }
  }

  /// Values an older syncups let into the database: the reading commands show them, never crash.
  @Test func extremeValuesInTheDatabaseAreShownWithoutACrash() async throws {
    let home = try Home()
    let file = home.url.appendingPathComponent("fine.json")
    try JSONSerialization.data(withJSONObject: Self.export()).write(to: file)
    let imported = try await home.run("import", file.path)
    #expect(imported.status == 0, "\(imported)")
    for value in [1e300, -1e300, 1e19, -1, 9.3e15] {
      let queue = try DatabaseQueue(path: home.dataDirectory.databaseFile.path)
      try await queue.write { db in
        try db.execute(sql: "UPDATE meeting SET length = ?, date = ?", arguments: [value, value])
        try db.execute(
          sql: "UPDATE segment SET startTime = ?, endTime = ?", arguments: [value, value])
        try db.execute(
          sql: "UPDATE syncUp SET durationMilliseconds = ?",
          arguments: [Int64(clamping: Int(exactly: value.rounded()) ?? Int.max)])
      }
      try queue.close()
      for arguments in [
        ["list"], ["show", "fuzz"], ["meetings", "fuzz"], ["meetings", "fuzz", "--json"],
        ["search", "hello"], ["export"],
      ] + ["txt", "md", "json", "srt", "vtt"].map({ ["transcript", "fuzz", "--format", $0] }) {
        Self.expectCleanEnd(try await home.run(arguments), "\(value): \(arguments)")
      }
    }
  }
}
