import Foundation
import Testing

/// `syncups blockers` against the built binary: a blocker raised in one meeting and resolved by
/// its owner in a later one is closed; one still open is listed with who raised it and when.
@Suite(.serialized)
struct BlockersCommandTests {
  static func seeded() async throws -> Home {
    let home = try Home()
    let segment = SeedJSON.segment
    func meeting(_ id: String, _ date: String, _ segments: [[String: Any]]) -> [String: Any] {
      ["id": id, "date": date, "transcript": "", "length": 60, "segments": segments]
    }
    let team: [String: Any] = [
      "id": "66666666-0000-0000-0000-000000000006", "title": "Billing", "duration": 300,
      "attendees": [
        ["id": "00000000-0000-0000-0000-000000000031", "name": "Ivo"],
        ["id": "00000000-0000-0000-0000-000000000032", "name": "Jon"],
      ],
      "meetings": [
        meeting(
          "ffffffff-0000-0000-0000-000000000001", "2026-11-19T09:00:00Z",
          [
            segment("Ivo", 2, "i am blocked on the finance team they haven't sent the tax rules"),
            segment("Jon", 9, "i am waiting on legal to approve the new terms"),
          ]),
        meeting(
          "ffffffff-0000-0000-0000-000000000002", "2026-11-20T09:00:00Z",
          [segment("Ivo", 1, "i finally got the tax rules from finance")]),
      ],
    ]
    let file: [String: Any] = ["formatVersion": 1, "syncUps": [team]]
    try JSONSerialization.data(withJSONObject: file).write(to: home.dataFile)
    let first = try await home.run("list")
    #expect(first.status == 0, "\(first)")
    return home
  }

  @Test func aBlockerResolvedInALaterMeetingIsClosed() async throws {
    let home = try await Self.seeded()
    let run = try await home.run("blockers", "--since", "2026-11-01")
    #expect(run.status == 0 && run.stderr.isEmpty, "\(run)")
    #expect(
      run.stdout.contains(
        "Billing  Jon: waiting on legal to approve the new terms  [meeting ffffffff, 00:09, segment 2]\n"
      ), "\(run)")
    #expect(!run.stdout.contains("tax rules"), "\(run)")
    #expect(run.stdout.hasSuffix("1 blocker resolved since then (--all lists them)\n"), "\(run)")

    let all = try await home.run("blockers", "--since", "2026-11-01", "--all")
    #expect(
      all.stdout.contains(
        "Billing  Ivo: blocked on the finance team they haven't sent the tax rules  [meeting"),
      "\(all)")
    #expect(all.stdout.contains("resolved "), "\(all)")
    #expect(all.stdout.contains(": i finally got the tax rules from finance\n"), "\(all)")

    let json = try await home.run("blockers", "--since", "2026-11-01", "--json")
    let object = try #require(
      JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
    #expect((object["open"] as? [[String: Any]])?.map { $0["person"] as? String } == ["Jon"])
    let resolved = try #require((object["resolved"] as? [[String: Any]])?.first)
    #expect(resolved["person"] as? String == "Ivo")
    #expect((resolved["resolved"] as? [String: Any])?["segment"] as? Int == 1)

    // Before the first meeting's day nothing is read: nothing is open.
    let later = try await home.run("blockers", "--since", "2026-11-21")
    #expect(later.stdout.hasPrefix("No open blockers since 2026-11-21"), "\(later)")
    expectOneLineFailure(
      try await home.run("blockers", "--since", "yesterday"), containing: ["invalid date"])
  }

  @Test func aBlockerClosedByHandIsListedNoMore() async throws {
    let home = try await Self.seeded()
    let listed = try await home.run("blockers", "--since", "2026-11-01")
    // Its id first: the meeting's first 8 hex digits, the segment, a hash of the phrase.
    let line = try #require(listed.stdout.split(separator: "\n").first { $0.contains("Jon:") })
    let id = String(try #require(line.split(separator: " ").first))
    #expect(id.hasPrefix("ffffffff-2-") && id.count == 15, "\(id)")

    let closed = try await home.run("blockers", "close", id.uppercased())
    #expect(closed.status == 0 && closed.stderr.isEmpty, "\(closed)")
    #expect(
      closed.stdout
        == "Closed blocker \(id): Jon: waiting on legal to approve the new terms\n"
        + "'syncups sync' takes it to the team.\n")
    let again = try await home.run("blockers", "close", id)
    #expect(again.stdout == "Blocker \(id) was closed already; nothing was changed.\n")

    let after = try await home.run("blockers", "--since", "2026-11-01")
    #expect(after.stdout.hasPrefix("No open blockers since 2026-11-01"), "\(after)")
    #expect(after.stdout.contains("1 blocker closed by hand since then (--all lists them)\n"))
    let all = try await home.run("blockers", "--since", "2026-11-01", "--all")
    #expect(all.stdout.contains(String(line) + "\n    closed "), "\(all)")
    #expect(all.stdout.contains(" here\n"), "\(all)")
    let json = try await home.run("blockers", "--since", "2026-11-01", "--json")
    let object = try #require(
      JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
    #expect((object["open"] as? [Any])?.isEmpty == true)
    let entry = try #require((object["closed"] as? [[String: Any]])?.first)
    #expect(entry["id"] as? String == id && entry["person"] as? String == "Jon")
    #expect((entry["closed"] as? [String: Any])?["by"] is NSNull)

    expectOneLineFailure(
      try await home.run("blockers", "close", "ffffffff-9-abcd"),
      containing: ["there is no blocker ffffffff-9-abcd", "syncups blockers"])
    for bad in ["ffffffff", "ffffffff-0-abcd", "ffffffff-2-abc", "zzzzzzzz-2-abcd", ""] {
      expectOneLineFailure(
        try await home.run("blockers", "close", bad), containing: ["is not a blocker's id"])
    }
  }
}
