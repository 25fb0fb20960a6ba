import Foundation
import SyncUpsTestSupport
import TestSupport
import Testing

/// Break 2 of issue 43, from the laptop's side, with the real server and the built `syncups`:
/// a sync-up the server refuses for good (its attendee's id is another team's, 409) is set
/// aside, said once and listed by `team status`, and everything else still syncs; a change to
/// it (the attendee removed, another added) tries it again, and it goes with its meeting.
@Suite("Set aside end to end: what the server refuses for good never blocks the rest", .serialized)
struct SetAsideEndToEndTests {
  static let taken = "f0000000-0000-4000-8000-0000000000a1"

  /// A format-1 file of sync-ups, each `(id, title, attendee id, attendee name)` with one
  /// meeting (its id ends as the sync-up's does).
  static func file(_ syncUps: [(String, String, String, String)], at url: URL) throws {
    let list: [[String: Any]] = syncUps.map { syncUp in
      [
        "id": syncUp.0, "title": syncUp.1, "duration": 300, "theme": "teal",
        "attendees": [["id": syncUp.2, "name": syncUp.3]],
        "meetings": [
          [
            "id": "f0000000-0000-4000-8000-0000000000b\(syncUp.0.suffix(1))",
            "date": "2026-11-20T09:00:00Z", "transcript": "", "length": 60,
            "segments": [
              [
                "speaker": syncUp.3, "start": 1, "end": 3, "text": "hello there",
                "words": [
                  ["word": "hello", "start": 1, "end": 2, "confidence": 0.9],
                  ["word": "there", "start": 2, "end": 3, "confidence": 0.8],
                ],
              ]
            ],
          ]
        ],
      ]
    }
    try JSONSerialization.data(withJSONObject: ["formatVersion": 1, "syncUps": list])
      .write(to: url)
  }

  /// A server with teams "team" and "blue", one writer in both, and a laptop joined to each:
  /// red (team) and blue.
  static func twoTeams() async throws -> (
    TeamFixture, red: TeamFixture.Laptop, blue: TeamFixture.Laptop
  ) {
    let team = try await TeamFixture.start()
    do {
      try await team.serverCommand("team", "add", "blue")
      try await team.serverCommand("user", "add", "ana", "--team", "blue", "--role", "writer")
      let red = try team.laptop()
      let blue = try team.laptop()
      try await red.expect("team", "join", team.url, "--token", team.writerToken, "--team", "team")
      try await blue.expect(
        "team", "join", team.url, "--token", team.writerToken, "--team", "blue")
      return (team, red, blue)
    } catch {
      team.stop()
      throw error
    }
  }

  @Test("a sync-up refused for good is set aside once, the rest syncs, and a change tries it again")
  func aSyncUpRefusedForGoodNeverBlocksTheRest() async throws {
    let (team, red, blue) = try await Self.twoTeams()
    defer { team.stop() }
    // The first team takes the attendee id first (an import keeps ids).
    let redFile = red.root.appendingPathComponent("red.json")
    try Self.file(
      [("f0000000-0000-4000-8000-000000000001", "Red Standup", Self.taken, "Ana")], at: redFile)
    try await red.expect("import", redFile.path)
    try await red.expect("sync")
    let blueFile = blue.root.appendingPathComponent("blue.json")
    try Self.file(
      [
        ("f0000000-0000-4000-8000-000000000002", "Blue Standup", Self.taken, "Ana"),
        (
          "f0000000-0000-4000-8000-000000000003", "Blue Other",
          "f0000000-0000-4000-8000-0000000000a2", "Bo"
        ),
      ], at: blueFile)
    try await blue.expect("import", blueFile.path)

    let first = try await blue.expect("sync")
    #expect(first.stdout.contains("pushed 1 sync-up and 1 meeting"), "\(first)")
    #expect(first.stdout.contains("set aside 1 document"), "\(first)")
    #expect(first.stdout.contains("sync-up 'Blue Standup' (409: "), "\(first)")
    #expect(first.stdout.contains("another team's"), "\(first)")
    let blueTitles =
      "SELECT coalesce(string_agg(s.title || ':' || (SELECT count(*) FROM meeting m "
      + "WHERE m.sync_up_id = s.id), ',' ORDER BY s.title), '') FROM sync_up s "
      + "JOIN team t ON t.id = s.team_id WHERE t.name = 'blue'"
    #expect(try await team.psql(blueTitles) == "Blue Other:1")
    // Said once: the next sync has nothing to say of it; the status lists it with the reason.
    #expect(try await blue.expect("sync").stdout == "up to date: nothing to push or pull\n")
    let status = try await blue.expect("team", "status")
    #expect(status.stdout.contains("set aside, refused by the team server"), "\(status)")
    #expect(status.stdout.contains("  sync-up 'Blue Standup': 409: "), "\(status)")
    #expect(status.stdout.contains("changes waiting: 1"), "its meeting waits: \(status)")
    // `team retry` tries it again: refused again, it is said again, and set aside again.
    let retry = try await blue.expect("team", "retry")
    #expect(retry.stdout == "1 document set aside will be tried again at the next sync\n")
    #expect(try await blue.expect("sync").stdout.contains("set aside 1 document"))
    // A change tries it again: the attendee of another team's id out, another in.
    try await blue.expect(
      "edit", "Blue Standup", "--add-attendee", "Cy", "--remove-attendee", "Ana")
    let last = try await blue.expect("sync")
    #expect(last.stdout == "pushed 1 sync-up and 1 meeting\n", "\(last)")
    #expect(try await team.psql(blueTitles) == "Blue Other:1,Blue Standup:1")
    #expect(!(try await blue.expect("team", "status").stdout.contains("set aside")))
    #expect(blue.value("SELECT count(*) FROM syncOutbox") == 0)
  }

  /// A meeting whose id is another team's meeting (409, "... is in another team's sync-up ...")
  /// is set aside alone: its sync-up goes, and the sync after it says nothing of it.
  @Test("a meeting refused for good is set aside alone and its sync-up goes")
  func aMeetingRefusedForGoodIsSetAsideAlone() async throws {
    let (team, red, blue) = try await Self.twoTeams()
    defer { team.stop() }
    // The same last digit: the same meeting id in both files.
    let redFile = red.root.appendingPathComponent("red.json")
    try Self.file(
      [("f0000000-0000-4000-8000-000000000001", "Red Standup", Self.taken, "Ana")], at: redFile)
    try await red.expect("import", redFile.path)
    try await red.expect("sync")
    let blueFile = blue.root.appendingPathComponent("blue.json")
    try Self.file(
      [("f0000000-0000-4000-8000-000000000011", "Blue Standup", UUID().uuidString, "Bo")],
      at: blueFile)
    try await blue.expect("import", blueFile.path)
    let first = try await blue.expect("sync")
    #expect(first.stdout.hasPrefix("pushed 1 sync-up; set aside 1 document"), "\(first)")
    #expect(
      first.stdout.contains(
        "meeting f0000000-0000-4000-8000-0000000000b1 of 'Blue Standup' (409: meeting "
          + "f0000000-0000-4000-8000-0000000000b1 is in another team's sync-up on this server"),
      "\(first)")
    #expect(try await blue.expect("sync").stdout == "up to date: nothing to push or pull\n")
    #expect(
      try await team.psql(
        "SELECT s.title || ':' || (SELECT count(*) FROM meeting m WHERE m.sync_up_id = s.id) "
          + "FROM sync_up s JOIN team t ON t.id = s.team_id WHERE t.name = 'blue'")
        == "Blue Standup:0")
    let status = try await blue.expect("team", "status")
    #expect(status.stdout.contains("changes waiting: 0"), "\(status)")
    #expect(
      status.stdout.contains(
        "  meeting f0000000-0000-4000-8000-0000000000b1 of 'Blue Standup': 409: "),
      "\(status)")
    // Kept here all the same.
    #expect(blue.value("SELECT count(*) FROM meeting") == 1)
  }
}
