import Foundation
import SyncUpsFeatures
import SyncUpsTestSupport
import TestSupport
import Testing

/// One set of rules for every way in: `import` and the first-run import refuse what `add`
/// refuses (`SyncUp.validated()`), plus sane times, lengths and dates; a refused file names
/// itself, the item and the rule; an id clash is said in words; import streams.
@Suite("syncups: one set of rules for every way in")
struct ImportRulesTests {
  static let big = String(repeating: "x", count: 100_000)

  /// `HostileNumberTests.export()` with one change, and the words the refusal must contain.
  static var refusals: [(path: [Any], value: Any, words: [String])] {
    [
      (["syncUps", 0, "title"], "   ", ["sync-up 1", "the title cannot be blank"]),
      (["syncUps", 0, "attendees"], [[String: Any]](), ["sync-up 1", "at least one attendee"]),
      (["syncUps", 0, "duration"], -5, ["sync-up 1", "between 1s and 24h"]),
      (
        ["syncUps", 0, "attendees"],
        [
          ["id": "f0000000-0000-4000-8000-0000000000a1", "name": "a"],
          ["id": "f0000000-0000-4000-8000-0000000000a2", "name": "A"],
        ], ["sync-up 1", "two attendees are named"]
      ),
      (["syncUps", 0, "title"], "Evil\u{1B}[2J", ["sync-up 1", "control characters"]),
      (["syncUps", 0, "title"], big, ["sync-up 1", "the title is too long"]),
      (["syncUps", 0, "attendees", 0, "name"], big, ["sync-up 1", "too long"]),
      (["syncUps", 0, "meetings", 0, "date"], "9999-01-01T00:00:00Z", ["meeting 1", "date"]),
      (["syncUps", 0, "meetings", 0, "date"], "1903-01-01T00:00:00Z", ["meeting 1", "date"]),
      (["syncUps", 0, "meetings", 0, "length"], 1e300, ["meeting 1", "length"]),
      (["syncUps", 0, "meetings", 0, "length"], -1, ["meeting 1", "length"]),
      (["syncUps", 0, "meetings", 0, "segments", 0, "start"], 1e300, ["meeting 1", "segment 1"]),
      (["syncUps", 0, "meetings", 0, "segments", 0, "start"], -3, ["meeting 1", "segment 1"]),
      (["syncUps", 0, "meetings", 0, "segments", 0, "end"], 0.5, ["meeting 1", "segment 1"]),
      (
        ["syncUps", 0, "meetings", 0, "segments", 0, "words", 0, "end"], 1e300,
        ["meeting 1", "segment 1"]
      ),
      (["syncUps", 0, "meetings", 0, "segments", 0, "speaker"], big, ["meeting 1", "speaker"]),
    ]
  }

  /// Each broken file: `import` refuses it in one line naming the file, the item and the rule,
  /// and adds nothing.
  @Test(arguments: Array(refusals.indices))
  func importRefusesWhatAddRefuses(_ index: Int) async throws {
    let refusal = Self.refusals[index]
    let home = try Home()
    let file = home.url.appendingPathComponent("broken.json")
    try JSONSerialization.data(
      withJSONObject: HostileNumberTests.export(setting: refusal.path, to: refusal.value)
    ).write(to: file)
    let run = try await home.run("import", file.path)
    expectOneLineFailure(run, containing: ["cannot import", file.path] + refusal.words)
    #expect(run.stderr.count < 600, "\(run.stderr.count) characters")
    let list = try await home.run("list", "--json")
    #expect(list.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "[]")
  }

  /// The same files as a first-run `sync-ups.json`: refused the same way, left where it is.
  @Test(arguments: Array(refusals.indices))
  func theFirstRunImportAppliesTheSameRules(_ index: Int) async throws {
    let refusal = Self.refusals[index]
    let home = try Home()
    let data = try JSONSerialization.data(
      withJSONObject: HostileNumberTests.export(setting: refusal.path, to: refusal.value))
    try data.write(to: home.dataFile)
    let run = try await home.run("list")
    expectOneLineFailure(run, containing: ["cannot import", home.dataFile.path] + refusal.words)
    #expect(try Data(contentsOf: home.dataFile) == data)
  }

  /// `add` and `edit` refuse a 100 KB title or name too.
  @Test func addAndEditRefuseAHugeTitleOrName() async throws {
    let home = try Home()
    expectOneLineFailure(
      try await home.run("add", "--title", Self.big, "--attendee", "Ana"),
      containing: ["the title is too long"])
    expectOneLineFailure(
      try await home.run("add", "--title", "Fine", "--attendee", Self.big),
      containing: ["too long"])
    #expect(try await home.run("add", "--title", "Fine", "--attendee", "Ana").status == 0)
    expectOneLineFailure(
      try await home.run("edit", "fine", "--title", Self.big), containing: ["the title is too long"]
    )
    expectOneLineFailure(
      try await home.run("edit", "fine", "--add-attendee", Self.big), containing: ["too long"])
    let list = try await home.run("list")
    #expect(list.stdout.count < 200, "\(list)")
  }

  /// An attendee id that another sync-up's attendee has: said in words, naming the file and the
  /// item; in a first-run file too (and then nothing is left failing in a way nobody can read).
  @Test func anIdClashIsSaidInWords() async throws {
    let home = try Home()
    let first = home.url.appendingPathComponent("first.json")
    try JSONSerialization.data(withJSONObject: HostileNumberTests.export()).write(to: first)
    #expect(try await home.run("import", first.path).status == 0)
    var other = HostileNumberTests.export(
      setting: ["syncUps", 0, "id"], to: "f0000000-0000-4000-8000-000000000002")
    other = Self.set(other, ["syncUps", 0, "title"], "Other")
    other = Self.set(
      other, ["syncUps", 0, "meetings", 0, "id"], "f0000000-0000-4000-8000-0000000000b2")
    let clash = home.url.appendingPathComponent("clash.json")
    try JSONSerialization.data(withJSONObject: other).write(to: clash)
    let run = try await home.run("import", clash.path)
    expectOneLineFailure(
      run, containing: [clash.path, "sync-up 1 of the file ('Other')", "attendee 'Ana'", "already"])
    #expect(!run.stderr.contains("UNIQUE"), "\(run)")
    #expect(!run.stderr.contains("database error"), "\(run)")

    try JSONSerialization.data(withJSONObject: other).write(to: home.dataFile)
    let list = try await home.run("list")
    expectOneLineFailure(
      list,
      containing: [
        home.dataFile.path, "sync-up 1 of the file ('Other')", "attendee 'Ana'", "already",
      ])
    #expect(!list.stderr.contains("UNIQUE"), "\(list)")
  }

  static func set(_ json: [String: Any], _ path: [Any], _ value: Any) -> [String: Any] {
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
    return set(json, path[...]) as? [String: Any] ?? [:]
  }

  /// `syncups import FILE` under `/usr/bin/time`: the run and its peak resident memory (MB).
  static func importMeasured(_ home: Home, _ file: URL) async throws -> (SyncupsRun, Double) {
    let report = home.url.appendingPathComponent("time.txt")
    let run = try await runSyncups(
      ["import", file.path], environment: ["SYNCUPS_HOME": home.url.path],
      launcher: ["/usr/bin/time", "-f", "%M", "-o", report.path])
    let text = try String(contentsOf: report, encoding: .utf8)
    let kilobytes = Double(text.split(separator: "\n").last.map(String.init) ?? "") ?? .infinity
    return (run, kilobytes / 1024)
  }

  /// A 1 GB junk file (sparse: no disk used), and one that starts as an export and goes on with
  /// a 1 GB string: refused in one line, memory well under 100 MB.
  @Test func aGigabyteOfJunkIsRefusedInLittleMemory() async throws {
    let home = try Home()
    for start in ["", #"{"formatVersion":1,"syncUps":[{"title":""#] {
      let file = home.url.appendingPathComponent("junk.json")
      FileManager.default.createFile(atPath: file.path, contents: Data(start.utf8))
      let handle = try FileHandle(forWritingTo: file)
      try handle.truncate(atOffset: 1 << 30)
      try handle.close()
      let (run, peak) = try await Self.importMeasured(home, file)
      expectOneLineFailure(run, containing: ["cannot import", file.path])
      #expect(peak < 100, "peak \(peak) MB")
      print("1 GB junk (\(start.isEmpty ? "zeros" : "a string")): peak \(peak) MB")
      try FileManager.default.removeItem(at: file)
    }
  }

  /// A 40 MB export (200 meetings of 200 KB): imported whole, memory well under 100 MB.
  @Test func aFortyMegabyteExportImportsInLittleMemory() async throws {
    let home = try Home()
    let file = home.url.appendingPathComponent("big.json")
    FileManager.default.createFile(atPath: file.path, contents: nil)
    let handle = try FileHandle(forWritingTo: file)
    try handle.write(
      contentsOf: Data(
        #"{"formatVersion":1,"syncUps":[{"id":"f0000000-0000-4000-8000-000000000001","title":"Big","duration":300,"theme":"teal","attendees":[{"id":"f0000000-0000-4000-8000-0000000000a1","name":"Ana"}],"meetings":["#
          .utf8))
    let words = (0..<18).map { #"{"word":"word\#($0)","start":1,"end":2,"confidence":0.9}"# }
      .joined(separator: ",")
    for meeting in 0..<200 {
      var text =
        (meeting > 0 ? "," : "")
        + #"{"id":"f0000000-0000-4000-8000-\#(String(format: "%012d", meeting))","date":"2026-01-01T09:00:00Z","transcript":"","length":3000,"segments":["#
      text += (0..<200).map { index in
        #"{"speaker":"Ana","start":\#(index * 10),"end":\#(index * 10 + 5),"text":"we talked about item \#(index) of meeting \#(meeting) at some length","words":[\#(words)]}"#
      }.joined(separator: ",")
      text += "]}"
      try handle.write(contentsOf: Data(text.utf8))
    }
    try handle.write(contentsOf: Data("]}]}".utf8))
    try handle.close()
    let size = try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int ?? 0
    #expect(size > 40_000_000, "\(size) bytes")
    let (run, peak) = try await Self.importMeasured(home, file)
    #expect(run.status == 0, "\(run)")
    #expect(run.stdout.contains("added 1 sync-up and 200 meetings"), "\(run)")
    #expect(peak < 100, "peak \(peak) MB")
    print("\(size / 1_000_000) MB export: peak \(peak) MB")
  }
}
