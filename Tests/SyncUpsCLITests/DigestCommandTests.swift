import Foundation
import Testing

/// `syncups digest` against the built binary: each format, a correction seen at once, a
/// meeting with no speech, an attendee who said nothing, and bad input as one line.
@Suite(.serialized)
struct DigestCommandTests {
  /// A data directory with a stand-up sync-up (two meetings; Dan never speaks), a sync-up with
  /// no meetings and one whose meeting has no speech.
  static func seeded() async throws -> Home {
    let home = try Home()
    let segment = SeedJSON.segment
    let attendees = SeedJSON.attendees
    let standup: [String: Any] = [
      "id": "33333333-0000-0000-0000-000000000003", "title": "Standup", "duration": 300,
      "attendees": attendees(["Ana", "Ben", "Dan"], 1),
      "meetings": [
        [
          "id": "cccccccc-0000-0000-0000-000000000001", "date": "2026-11-19T09:00:00Z",
          "transcript": "", "length": 60,
          "segments": [segment("Ana", 1, "yesterday i wrote the onboarding guide")],
        ],
        [
          "id": "dddddddd-0000-0000-0000-000000000002", "date": "2026-11-20T09:00:00Z",
          "transcript": "", "length": 60,
          "segments": [
            segment("Ana", 0.5, "good morning everyone"),
            segment(
              "Ana", 5, "yesterday i finished the login page today i will review the pull requests"),
            segment("Ben", 12.5, "i worked on the database migration"),
            segment("Ben", 20, "i am waiting for ana to approve the security review"),
          ],
        ],
      ],
    ]
    let empty: [String: Any] = [
      "id": "44444444-0000-0000-0000-000000000004", "title": "Empty", "duration": 300,
      "attendees": attendees(["Cleo"], 10), "meetings": [],
    ]
    let quiet: [String: Any] = [
      "id": "55555555-0000-0000-0000-000000000005", "title": "Quiet", "duration": 300,
      "attendees": attendees(["Eve"], 20),
      "meetings": [
        [
          "id": "eeeeeeee-0000-0000-0000-000000000005", "date": "2026-11-21T09:00:00Z",
          "transcript": "", "length": 30, "segments": [],
        ]
      ],
    ]
    let file: [String: Any] = ["formatVersion": 1, "syncUps": [standup, empty, quiet]]
    try JSONSerialization.data(withJSONObject: file).write(to: home.dataFile)
    let first = try await home.run("list")
    #expect(first.status == 0, "\(first)")
    return home
  }

  @Test func eachFormatSaysWhoDidWhatWillDoAndIsBlocked() async throws {
    let home = try await Self.seeded()
    let json = try await home.run("digest", "standup", "--format", "json")
    #expect(json.status == 0 && json.stderr.isEmpty, "\(json)")
    #expect(
      json.stdout == """
        {"meeting":"dddddddd-0000-0000-0000-000000000002","people":[\
        {"name":"Ana","yesterday":["finished the login page"],"today":["review the pull requests"],\
        "blockers":[],"sources":{"yesterday":[{"segment":2,"time":5,"reason":"past tense 'finished'"}],\
        "today":[{"segment":2,"time":5,"reason":"future 'will'"}],"blockers":[]}},\
        {"name":"Ben","yesterday":["worked on the database migration"],"today":[],\
        "blockers":["waiting for ana to approve the security review"],\
        "sources":{"yesterday":[{"segment":3,"time":12.5,"reason":"past tense 'worked'"}],"today":[],\
        "blockers":[{"segment":4,"time":20,"person":"Ana","reason":"blocker cue 'waiting for'"}]}}]}

        """, "\(json)")

    let text = try await home.run("digest", "standup")
    #expect(text.status == 0, "\(text)")
    #expect(
      text.stdout.contains("Ana\n  Yesterday:\n    - finished the login page [00:05, segment 2]\n"))
    #expect(
      text.stdout.contains(
        "  Blockers:\n    - waiting for ana to approve the security review (Ana) [00:20, segment 4]\n"
      ))
    #expect(text.stdout.contains("  Today: nothing found\n"))
    #expect(text.stdout.hasSuffix("Nothing heard from: Dan\n"), "\(text)")

    let markdown = try await home.run("digest", "standup", "--format", "markdown")
    #expect(
      markdown.stdout.contains("## Ben\n\n**Yesterday**\n\n- worked on the database migration"))

    let older = try await home.run("digest", "standup", "--meeting", "2", "--format", "json")
    #expect(older.stdout.contains(#""yesterday":["wrote the onboarding guide"]"#), "\(older)")
  }

  @Test func aCorrectionChangesTheDigestAtOnce() async throws {
    let home = try await Self.seeded()
    let corrected = try await home.run(
      "correct", "standup", "3", "--text", "i worked on the billing service")
    #expect(corrected.status == 0, "\(corrected)")
    let after = try await home.run("digest", "standup", "--format", "json")
    #expect(after.stdout.contains(#""yesterday":["worked on the billing service"]"#), "\(after)")
    // Who said it, corrected: the item moves to that person.
    let moved = try await home.run("correct", "standup", "4", "--speaker", "Dan")
    #expect(moved.status == 0, "\(moved)")
    let now = try await home.run("digest", "standup")
    #expect(now.stdout.contains("Dan\n"), "\(now)")
    #expect(!now.stdout.contains("Nothing heard from"), "\(now)")
  }

  @Test func noSpeechIsAnEmptyDigest() async throws {
    let home = try await Self.seeded()
    let json = try await home.run("digest", "quiet", "--format", "json")
    #expect(json.status == 0, "\(json)")
    #expect(
      json.stdout == #"{"meeting":"eeeeeeee-0000-0000-0000-000000000005","people":[]}"# + "\n")
    let text = try await home.run("digest", "quiet")
    #expect(text.stdout.contains("No speech was recognised in this meeting.\n"), "\(text)")
  }

  @Test func badInputIsOneLine() async throws {
    let home = try await Self.seeded()
    let cases: [([String], [String])] = [
      (["digest", "nope"], ["no sync-up matches 'nope'"]),
      (["digest", "empty"], ["has no meetings yet"]),
      (["digest", "standup", "--meeting", "7"], ["has no meeting '7'"]),
      (
        ["digest", "standup", "--format", "pdf"], ["unknown format 'pdf'", "text, markdown, json"]
      ),
    ]
    for (arguments, parts) in cases {
      expectOneLineFailure(try await home.run(arguments), containing: parts)
    }
  }
}
