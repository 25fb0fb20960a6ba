import Foundation
import SyncUpsTestSupport
import TestSupport
import Testing

/// The interactive app's `/` search and its remembered selection, in a real pseudo-terminal.
@Suite("syncups interactive search on a terminal", .serialized)
struct InteractiveSearchTests {
  let terminal = Tmux(prefix: "syncups-search")

  func screen(_ terminal: Tmux? = nil) -> String {
    (try? (terminal ?? self.terminal).screen()) ?? ""
  }

  /// A data directory whose `sync-ups.json` (imported on the first run) holds "Morning Sync",
  /// with one meeting of forty segments (the staging server is mentioned in the 31st, at
  /// 05:00), and "Platform".
  func seeded() throws -> URL {
    let home = try TemporaryDirectory().url
    var segments: [[String: Any]] = []
    for index in 0..<40 {
      let text = index == 30 ? "the staging server is down again" : "update number \(index)"
      let speaker = index % 2 == 0 ? "Ana" : "Ben"
      let start = Double(index * 10)
      segments.append(
        ["speaker": speaker, "start": start, "end": start + 8, "text": text, "words": [Any]()])
    }
    let morning: [String: Any] = [
      "id": "11111111-0000-0000-0000-000000000001", "title": "Morning Sync", "duration": 300,
      "theme": "orange",
      "attendees": [
        ["id": "00000000-0000-0000-0000-000000000001", "name": "Ana"],
        ["id": "00000000-0000-0000-0000-000000000002", "name": "Ben"],
      ],
      "meetings": [
        [
          "id": "aaaaaaaa-0000-0000-0000-000000000001", "date": "2026-11-20T09:00:00Z",
          "transcript": "", "segments": segments,
        ]
      ],
    ]
    let platform: [String: Any] = [
      "id": "22222222-0000-0000-0000-000000000002", "title": "Platform", "duration": 600,
      "theme": "teal",
      "attendees": [["id": "00000000-0000-0000-0000-000000000010", "name": "Cleo"]],
      "meetings": [],
    ]
    try JSONSerialization.data(
      withJSONObject: ["formatVersion": 1, "syncUps": [morning, platform]]
    ).write(to: home.appendingPathComponent("sync-ups.json"))
    return home
  }

  func start(_ home: URL, on terminal: Tmux? = nil) throws {
    try (terminal ?? self.terminal).start(
      "TZ=UTC SYNCUPS_HOME='\(home.path)' '\(syncupsBinary.path)'; echo EXIT=$?; sleep 60",
      columns: 100, rows: 30
    )
  }

  @Test func slashFindsASegmentAndEnterOpensTheMeetingThere() async throws {
    let home = try seeded()
    defer { try? FileManager.default.removeItem(at: home) }
    try start(home)
    defer { terminal.kill() }

    #expect(try await terminal.waitForScreen { $0.contains("Morning Sync") }, "\(screen())")
    try terminal.keys("/")
    #expect(try await terminal.waitForScreen { $0.contains("Search what was said") }, "\(screen())")
    try terminal.type("staging serv")
    #expect(
      try await terminal.waitForScreen {
        $0.contains("1 match") && $0.contains("Morning Sync · 2026-11-20 09:00 · 05:00 · Ana")
          && $0.contains("the staging server is down again")
      },
      "\(screen())")
    try terminal.keys("Enter")
    // The meeting, scrolled so the segment found is on screen, marked.
    #expect(
      try await terminal.waitForScreen {
        $0.contains("Attendees: Ana, Ben") && $0.contains("›[05:00] Ana: the staging server")
      },
      "\(screen())")
    #expect(!screen().contains("[00:00] Ana: update number 0"), "scrolled: \(screen())")
    try terminal.keys("b")
    #expect(try await terminal.waitForScreen { $0.contains("/ staging serv") }, "\(screen())")
    try terminal.keys("Escape")
    #expect(
      try await terminal.waitForScreen { $0.contains("/ search · b blockers · a add") },
      "\(screen())")
    try terminal.keys("q")
    #expect(try await terminal.waitForScreen { $0.contains("EXIT=0") }, "\(screen())")
  }

  @Test func theSelectedSyncUpIsSelectedAgainOnTheNextStart() async throws {
    let home = try seeded()
    defer { try? FileManager.default.removeItem(at: home) }
    try start(home)
    defer { terminal.kill() }
    #expect(try await terminal.waitForScreen { $0.contains(" ›    Morning Sync") }, "\(screen())")
    // Quitting at once keeps it too.
    try terminal.keys("Down", "q")
    #expect(try await terminal.waitForScreen { $0.contains("EXIT=0") }, "\(screen())")
    terminal.kill()

    // The next start, on a tmux server of its own (the first one may still be going away).
    let next = Tmux(prefix: "syncups-search")
    try start(home, on: next)
    defer { next.kill() }
    #expect(try await next.waitForScreen { $0.contains(" ›    Platform") }, "\(screen(next))")
    try next.keys("Enter")
    #expect(try await next.waitForScreen { $0.contains("Cleo") }, "\(screen(next))")
    try next.keys("b", "q")
    #expect(try await next.waitForScreen { $0.contains("EXIT=0") }, "\(screen(next))")
  }
}
