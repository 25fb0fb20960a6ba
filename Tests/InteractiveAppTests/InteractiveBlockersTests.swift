import Foundation
import SyncUpsTestSupport
import TestSupport
import Testing

/// The interactive app's `b` blockers screen, in a real pseudo-terminal: the team's open
/// blockers of the last week, and one closed by hand as `syncups blockers close` closes it.
@Suite("syncups interactive blockers on a terminal", .serialized)
struct InteractiveBlockersTests {
  let terminal = Tmux(prefix: "syncups-blockers")

  func screen() -> String { (try? terminal.screen()) ?? "" }

  /// "Billing", whose meeting of yesterday holds two blockers (Ivo's names Jon), and one of
  /// a month ago (out of the screen's week).
  func seeded() throws -> URL {
    let home = try TemporaryDirectory().url
    let iso = ISO8601DateFormatter()
    func segment(_ speaker: String, _ start: Double, _ text: String) -> [String: Any] {
      ["speaker": speaker, "start": start, "end": start + 5, "text": text, "words": [Any]()]
    }
    let meetings: [[String: Any]] = [
      [
        "id": "eeeeeeee-0000-0000-0000-000000000001",
        "date": iso.string(from: Date().addingTimeInterval(-30 * 86_400)), "transcript": "",
        "segments": [segment("Jon", 1, "i am blocked on the old printer drivers")],
      ],
      [
        "id": "eeeeeeee-0000-0000-0000-000000000002",
        "date": iso.string(from: Date().addingTimeInterval(-86_400)), "transcript": "",
        "segments": [
          segment("Ivo", 2, "i am waiting for jon to send the tax rules"),
          segment("Jon", 9, "i am blocked on legal approving the new terms"),
        ],
      ],
    ]
    let team: [String: Any] = [
      "id": "66666666-0000-0000-0000-000000000006", "title": "Billing", "duration": 300,
      "attendees": [
        ["id": "00000000-0000-0000-0000-000000000031", "name": "Ivo"],
        ["id": "00000000-0000-0000-0000-000000000032", "name": "Jon"],
      ],
      "meetings": meetings,
    ]
    try JSONSerialization.data(withJSONObject: ["formatVersion": 1, "syncUps": [team]])
      .write(to: home.appendingPathComponent("sync-ups.json"))
    return home
  }

  @Test func bListsTheWeeksOpenBlockersAndCClosesTheSelectedOne() async throws {
    let home = try seeded()
    defer { try? FileManager.default.removeItem(at: home) }
    try terminal.start(
      "TZ=UTC SYNCUPS_HOME='\(home.path)' '\(syncupsBinary.path)'; echo EXIT=$?; sleep 60",
      columns: 110, rows: 30)
    defer { terminal.kill() }

    #expect(try await terminal.waitForScreen { $0.contains("b blockers") }, "\(screen())")
    try terminal.keys("b")
    #expect(
      try await terminal.waitForScreen {
        $0.contains("Open blockers since") && $0.contains("2 open blockers")
          && $0.contains("Billing · Ivo → Jon") && $0.contains("waiting for jon to send the tax")
          && $0.contains("blocked on legal approving the new terms")
      },
      "\(screen())")
    #expect(!screen().contains("printer"), "a month ago is not this week: \(screen())")
    // The newest meeting first, in the order said: Ivo's is selected; the next is Jon's.
    try terminal.keys("Down")
    try terminal.keys("c")
    #expect(
      try await terminal.waitForScreen {
        $0.contains("Closed eeeeeeee-2-") && !$0.contains("blocked on legal approving")
      },
      "\(screen())")
    #expect(screen().contains("waiting for jon to send the tax"), "\(screen())")
    try terminal.keys("Escape")
    #expect(try await terminal.waitForScreen { $0.contains("Daily Sync-ups") }, "\(screen())")
    try terminal.keys("q")
    #expect(try await terminal.waitForScreen { $0.contains("EXIT=0") }, "\(screen())")

    // The command line reads the same closing.
    let listed = try await runSyncups(
      ["blockers", "--all"], environment: ["SYNCUPS_HOME": home.path])
    #expect(listed.status == 0, "\(listed)")
    #expect(
      listed.stdout.hasPrefix("eeeeeeee-1-")
        && listed.stdout.contains("Ivo: waiting for jon to send the tax rules (Jon)"), "\(listed)")
    #expect(
      listed.stdout.contains("Jon: blocked on legal approving the new terms")
        && listed.stdout.contains("closed "), "\(listed)")
  }
}
