import Foundation
import SyncUpsCLI
import SyncUpsFeatures
import Testing

/// `syncups search`, `export` and `import` against the built binary and a real data directory.
@Suite(.serialized)
struct SearchExportImportTests {
  /// A data directory whose `sync-ups.json` (imported on the first run) holds two sync-ups
  /// with one meeting each.
  static func seeded() async throws -> Home {
    let home = try Home()
    let segment = SeedJSON.segment
    let attendees = SeedJSON.attendees
    let morning: [String: Any] = [
      "id": "11111111-0000-0000-0000-000000000001", "title": "Morning Sync", "duration": 300,
      "theme": "orange", "attendees": attendees(["Ana", "Ben"], 1),
      "meetings": [
        [
          "id": "aaaaaaaa-0000-0000-0000-000000000001", "date": "2026-11-20T09:00:00Z",
          "transcript": "", "length": 120,
          "segments": [
            segment("Ana", 0, "good morning everyone"),
            segment("Ana", 5, "the staging server is down again"),
            segment("Ben", 70, "we should migrate the logs to the new server"),
          ],
        ]
      ],
    ]
    let platform: [String: Any] = [
      "id": "22222222-0000-0000-0000-000000000002", "title": "Platform", "duration": 600,
      "theme": "teal", "attendees": attendees(["Cleo"], 10),
      "meetings": [
        [
          "id": "bbbbbbbb-0000-0000-0000-000000000002", "date": "2026-11-10T15:30:00Z",
          "transcript": "",
          "segments": [segment("Cleo", 2, "staging is slow and the server in staging is slow")],
        ]
      ],
    ]
    let file: [String: Any] = ["formatVersion": 1, "syncUps": [morning, platform]]
    try JSONSerialization.data(withJSONObject: file).write(to: home.dataFile)
    // The first run imports the file (and says so); the tests start after it.
    let first = try await home.run("list")
    #expect(first.status == 0, "\(first)")
    return home
  }

  @Test func searchPrintsBestMatchesFirstWithTheMatchMarked() async throws {
    let home = try await Self.seeded()
    // Two matches in one segment rank above one, though that meeting is older.
    let run = try await home.run("search", "staging")
    #expect(run.status == 0, "\(run)")
    #expect(run.stderr.isEmpty, "\(run)")
    #expect(
      run.stdout == """
        Platform · 2026-11-10 15:30 · 00:02 · Cleo: [staging] is slow and the server in [staging] is slow
        Morning Sync · 2026-11-20 09:00 · 00:05 · Ana: the [staging] server is down again

        """, "\(run)")

    let phrase = try await home.run("search", "\"staging server\"")
    #expect(
      phrase.stdout
        == "Morning Sync · 2026-11-20 09:00 · 00:05 · Ana: the [staging server] is down again\n",
      "\(phrase)")
    // Several arguments are one query; a prefix matches the words it starts.
    let prefix = try await home.run("search", "migr*", "server")
    #expect(prefix.stdout.contains("Ben: we should [migrate] the logs to the new [server]"))
  }

  @Test func filtersBySyncUpSpeakerAndDate() async throws {
    let home = try await Self.seeded()
    let bySyncUp = try await home.run("search", "server", "--sync-up", "morn")
    #expect(bySyncUp.stdout.split(separator: "\n").count == 2, "\(bySyncUp)")
    #expect(!bySyncUp.stdout.contains("Platform"))
    let bySpeaker = try await home.run("search", "server", "--speaker", "ben")
    #expect(bySpeaker.stdout.split(separator: "\n").count == 1, "\(bySpeaker)")
    #expect(bySpeaker.stdout.contains("Ben: "))
    let recent = try await home.run("search", "staging", "--since", "2026-11-15")
    #expect(recent.stdout.split(separator: "\n").count == 1, "\(recent)")
    #expect(recent.stdout.hasPrefix("Morning Sync"))
    // Days back from now: these meetings are older than a day (the test runs after them).
    let dayBack = try await home.run("search", "staging", "--since", "1d")
    #expect(dayBack.status == 1, "\(dayBack)")
  }

  @Test func jsonIsOneObjectALine() async throws {
    let home = try await Self.seeded()
    let run = try await home.run("search", "staging", "--json")
    #expect(run.status == 0, "\(run)")
    let lines = run.stdout.split(separator: "\n")
    #expect(lines.count == 2)
    #expect(
      lines.last == """
        {"syncUp":"Morning Sync","meeting":"aaaaaaaa-0000-0000-0000-000000000001",\
        "date":"2026-11-20T09:00:00Z","speaker":"Ana","start":5,"end":9,\
        "text":"the staging server is down again"}
        """)
  }

  @Test func noMatchIsExitOneWithNothingOnStdout() async throws {
    let home = try await Self.seeded()
    let run = try await home.run("search", "kubernetes")
    #expect(run.status == 1, "\(run)")
    #expect(run.stdout.isEmpty)
    #expect(run.stderr == "syncups: nothing said matches 'kubernetes'\n")
    let json = try await home.run("search", "kubernetes", "--json")
    #expect(json.status == 1, "\(json)")
    #expect(json.stdout.isEmpty && json.stderr.isEmpty, "\(json)")
  }

  @Test func mistakesAreOneLineAndExitTwo() async throws {
    let home = try await Self.seeded()
    let cases: [([String], [String])] = [
      (["\"staging server"], ["quote is not closed"]),
      (["*"], ["a * must end a word", "migr*"]),
      (["mi*gr"], ["a * must end a word"]),
      (["   "], ["nothing to search for"]),
      (["x", "--sync-up", "nope"], ["no sync-up matches 'nope'"]),
      (["x", "--since", "yesterday"], ["'yesterday'", "YYYY-MM-DD", "7d"]),
      (["x", "--since", "2026-02-30"], ["'2026-02-30'", "YYYY-MM-DD"]),
      (["x", "--limit", "0"], ["--limit must be at least 1"]),
      (["x", "--limit", "-3"], ["--limit must be at least 1"]),
    ]
    for (arguments, parts) in cases {
      let run = try await home.run(["search"] + arguments)
      expectOneLineFailure(run, containing: parts)
      #expect(run.status == 2, "\(run)")
    }
  }

  @Test func exportImportRoundTripIntoAnEmptyDataDirectory() async throws {
    let home = try await Self.seeded()
    let exported = try await home.run("export")
    #expect(exported.status == 0, "\(exported)")
    #expect(exported.stdout.hasPrefix("{"))
    let file = home.url.appendingPathComponent("export.json")
    let written = try await home.run("export", "--output", file.path)
    #expect(written.stdout == "Exported 2 sync-ups and 2 meetings to \(file.path).\n", "\(written)")
    #expect(try String(contentsOf: file, encoding: .utf8) == exported.stdout)

    let empty = try Home()
    let imported = try await empty.run("import", file.path)
    #expect(imported.status == 0, "\(imported)")
    #expect(imported.stdout.contains("added 2 sync-ups and 2 meetings"), "\(imported)")
    let again = try await empty.run("export")
    #expect(again.stdout == exported.stdout)
    // The transcripts came along: the new directory finds what the old one did.
    #expect(
      try await empty.run("search", "staging").stdout
        == (try await home.run("search", "staging")).stdout)

    let twice = try await empty.run("import", file.path)
    #expect(twice.status == 0)
    #expect(twice.stdout.hasPrefix("Nothing new in"), "\(twice)")
    #expect(try await empty.run("export").stdout == exported.stdout)
  }

  @Test func importMergesNewMeetingsIntoSyncUpsThatAreThere() async throws {
    let home = try await Self.seeded()
    let file = home.url.appendingPathComponent("export.json")
    #expect(try await home.run("export", "-o", file.path).status == 0)
    var json = try #require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
    var syncUps = try #require(json["syncUps"] as? [[String: Any]])
    var meetings = try #require(syncUps[0]["meetings"] as? [[String: Any]])
    var meeting = meetings[0]
    meeting["id"] = "cccccccc-0000-0000-0000-000000000003"
    meeting["date"] = "2026-11-21T09:00:00Z"
    meetings.append(meeting)
    syncUps[0]["meetings"] = meetings
    syncUps[0]["title"] = "Renamed Elsewhere"
    json["syncUps"] = syncUps
    try JSONSerialization.data(withJSONObject: json).write(to: file)

    let run = try await home.run("import", file.path)
    #expect(run.status == 0, "\(run)")
    #expect(run.stdout.contains("added 0 sync-ups and 1 meeting;"), "\(run)")
    let list = try await home.run("list")
    #expect(list.stdout.contains("Morning Sync"), "what is here is kept: \(list)")
    #expect(!list.stdout.contains("Renamed"))
    #expect(try await home.run("meetings", "morning").stdout.split(separator: "\n").count == 3)
  }

  @Test func exportRefusesToOverwriteUnlessForced() async throws {
    let home = try await Self.seeded()
    let file = home.url.appendingPathComponent("mine.json")
    try Data("precious".utf8).write(to: file)
    let refused = try await home.run("export", "--output", file.path)
    expectOneLineFailure(refused, containing: ["already exists", "--force"])
    #expect(try String(contentsOf: file, encoding: .utf8) == "precious")
    let forced = try await home.run("export", "--output", file.path, "--force")
    #expect(forced.status == 0, "\(forced)")
    #expect(try String(contentsOf: file, encoding: .utf8).hasPrefix("{"))
    // No temporary file is left beside it.
    #expect(try home.files().filter { $0.hasSuffix(".tmp") }.isEmpty)

    let folder = try await home.run("export", "--output", home.url.path)
    expectOneLineFailure(folder, containing: ["is a folder"])
    let nowhere = try await home.run("export", "--output", "/nonexistent-folder/x.json")
    expectOneLineFailure(nowhere, containing: ["cannot write", "no such file"])
  }

  @Test func aBadImportFileIsOneLineAndChangesNothing() async throws {
    let home = try await Self.seeded()
    let before = try await home.run("export").stdout
    let bad = home.url.appendingPathComponent("bad.json")
    let cases: [(String, [String])] = [
      ("not json", ["it is not JSON"]),
      (#"{"syncUps": []}"#, [#""formatVersion" is missing"#]),
      (#"{"formatVersion": 2, "syncUps": []}"#, ["format version 2"]),
      (#"{"formatVersion": 1, "syncUps": [{"id": "nope"}]}"#, ["syncUps[0].id is not valid"]),
      (
        #"{"formatVersion": 1, "syncUps": [{"id": "11111111-0000-0000-0000-000000000009"}]}"#,
        ["sync-up 1 of the file", "title"]
      ),
      (
        #"{"formatVersion": 1, "syncUps": [{"id": "11111111-0000-0000-0000-000000000009", "title": 3}]}"#,
        ["syncUps[0].title has the wrong kind of value"]
      ),
    ]
    for (text, parts) in cases {
      try Data(text.utf8).write(to: bad)
      let run = try await home.run("import", bad.path)
      expectOneLineFailure(run, containing: ["cannot import", bad.path] + parts)
      #expect(!run.stderr.contains("CodingKeys"), "\(run)")
      #expect(try String(contentsOf: bad, encoding: .utf8) == text)
    }
    let missing = try await home.run("import", "/nonexistent.json")
    expectOneLineFailure(missing, containing: ["no such file"])
    #expect(try await home.run("export").stdout == before)
  }

  @Test func sinceParsesDaysAndSpansBack() throws {
    let now = Date(timeIntervalSince1970: 1_790_000_000)
    #expect(try Parse.since("7d", now: now) == now.addingTimeInterval(-7 * 86_400))
    #expect(try Parse.since("2w", now: now) == now.addingTimeInterval(-14 * 86_400))
    let day = try Parse.since("2026-11-20")
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = .current
    #expect(
      calendar.dateComponents([.year, .month, .day, .hour], from: day)
        == DateComponents(year: 2026, month: 11, day: 20, hour: 0))
    for bad in ["", "d", "-1d", "2026-13-01", "2026-1-1", "20261120", "tomorrow", "２０２６-11-20"] {
      #expect(throws: CLIError.self, "\(bad)") { try Parse.since(bad, now: now) }
    }
  }
}
