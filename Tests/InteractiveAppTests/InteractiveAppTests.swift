import Foundation
import Glibc
import SyncUpsFeatures
import SyncUpsTestSupport
import Testing

/// `syncups` with no arguments in a real pseudo-terminal (tmux on a server of this test's own):
/// list → detail → back, add a sync-up through the form, quit; the file holds the new sync-up.
@Suite("syncups interactive app on a terminal", .serialized)
struct InteractiveAppTests {
  let terminal = Tmux(prefix: "syncups-app")

  func screen() throws -> String { try terminal.screen() }

  func keys(_ keys: String...) throws {
    for key in keys { try terminal.keys(key) }
  }

  func type(_ text: String) throws { try terminal.type(text) }

  /// Starts `syncups` on `home`'s data in the terminal; the shell keeps the pane open after it
  /// exits (printing `EXIT=status`), so its last words can be read.
  func startApp(_ home: URL, columns: Int = 100, rows: Int = 30) throws {
    try terminal.start(
      "SYNCUPS_HOME='\(home.path)' '\(syncupsBinary.path)'; echo EXIT=$?; sleep 60",
      columns: columns, rows: rows)
  }

  func waitForScreen(
    timeout: Duration = .seconds(600), _ condition: (String) -> Bool
  ) async throws -> Bool {
    try await terminal.waitForScreen(timeout: timeout, condition)
  }

  @Test func navigatesAddsASyncUpAndQuits() async throws {
    let home = try seededDataDirectory()
    defer { try? FileManager.default.removeItem(at: home) }
    try startApp(home)
    defer { terminal.kill() }

    #expect(
      try await waitForScreen { $0.contains("Daily Sync-ups") && $0.contains("Morning Sync") },
      "\((try? screen()) ?? "")"
    )
    try keys("Enter")
    #expect(
      try await waitForScreen { $0.contains("Length 5 min · Theme Orange") && $0.contains("Ben") })
    try keys("b")
    #expect(try await waitForScreen { $0.contains("a add · d delete · q quit") })

    try keys("a")
    #expect(try await waitForScreen { $0.contains("New sync-up") })
    try type("Design")
    try keys("Down", "Right", "Down", "Down")
    try type("Cleo")
    try keys("C-n")
    try type("Dev")
    #expect(
      try await waitForScreen {
        $0.contains("Title   Design") && $0.contains("6 min") && $0.contains("2.      Dev")
      })
    try keys("Enter")
    #expect(
      try await waitForScreen {
        $0.contains("Design") && $0.contains("2 attendees · 6 min · 0 meetings")
      },
      "\((try? screen()) ?? "")"
    )
    try keys("q")
    #expect(try await waitForScreen { $0.contains("EXIT=0") }, "\((try? screen()) ?? "")")

    let saved = try savedSyncUps(home)
    #expect(saved.map { $0["title"] as? String } == ["Morning Sync", "Design"])
    let design = try #require(saved.last)
    #expect(
      (design["attendees"] as? [[String: Any]])?.map { $0["name"] as? String } == ["Cleo", "Dev"])
    #expect(design["duration"] as? Double == 360)
  }

  /// Start a meeting from the detail (going on without a microphone when PulseAudio is not
  /// there), next speaker, end and save; the meeting shows in the detail and on its own screen.
  @Test func recordsAMeetingAndShowsIt() async throws {
    let home = try seededDataDirectory()
    defer { try? FileManager.default.removeItem(at: home) }
    try startApp(home)
    defer { terminal.kill() }

    #expect(try await waitForScreen { $0.contains("Morning Sync") }, "\((try? screen()) ?? "")")
    try keys("Enter")
    #expect(try await waitForScreen { $0.contains("s start meeting") })
    try keys("s")
    let recording = "Speaker 1 of 2: Ana"
    let noMicrophone = "[c] Continue without recording"
    #expect(try await waitForScreen { $0.contains(recording) || $0.contains(noMicrophone) })
    if try screen().contains(noMicrophone) { try keys("c") }
    #expect(try await waitForScreen { $0.contains(recording) }, "\((try? screen()) ?? "")")
    try keys("n")
    #expect(try await waitForScreen { $0.contains("Speaker 2 of 2: Ben") })
    // A second of the meeting passes (one ended at once, with nothing heard, is not saved).
    #expect(try await waitForScreen { $0.contains(" elapsed") && !$0.contains("02:30 elapsed") })
    try keys("q")
    #expect(
      try await waitForScreen {
        $0.contains("Past meetings") && !$0.contains("none yet")
      },
      "\((try? screen()) ?? "")"
    )
    try keys("Enter")
    #expect(try await waitForScreen { $0.contains("Attendees: Ana, Ben") && $0.contains("b back") })
    try keys("b", "b")
    #expect(try await waitForScreen { $0.contains("a add · d delete · q quit") })
    try keys("q")
    #expect(try await waitForScreen { $0.contains("EXIT=0") }, "\((try? screen()) ?? "")")

    let meetings = try #require(try savedSyncUps(home).first?["meetings"] as? [[String: Any]])
    #expect(meetings.count == 1)
    #expect(try SyncUpsDatabase.open(DataDirectory(url: home)).unfinished().isEmpty)
  }

  /// A damaged database is one line and a failure, before the screen is taken over.
  @Test func unreadableDataIsOneLine() async throws {
    let home = try seededDataDirectory()
    defer { try? FileManager.default.removeItem(at: home) }
    for suffix in ["", "-wal", "-shm"] {
      try? FileManager.default.removeItem(
        at: home.appendingPathComponent("syncups.sqlite" + suffix))
    }
    try Data("{not json".utf8).write(to: home.appendingPathComponent("syncups.sqlite"))
    try startApp(home, columns: 400, rows: 10)
    defer { terminal.kill() }

    #expect(try await waitForScreen { $0.contains("EXIT=1") }, "\((try? screen()) ?? "")")
    let lines = try screen().split(separator: "\n")
    #expect(
      lines.first?.hasPrefix(
        "syncups: \(home.appendingPathComponent("syncups.sqlite").path) is damaged") == true)
    #expect(lines.dropFirst().first == "EXIT=1")
  }

  /// PageUp, Home, End, Delete, Insert and F-keys send escape sequences: none of their bytes
  /// may be typed into a field.
  @Test func editingAndFunctionKeysTypeNothing() async throws {
    let home = try seededDataDirectory()
    defer { try? FileManager.default.removeItem(at: home) }
    try startApp(home)
    defer { terminal.kill() }

    #expect(try await waitForScreen { $0.contains("Daily Sync-ups") }, "\((try? screen()) ?? "")")
    try keys("a")
    #expect(try await waitForScreen { $0.contains("New sync-up") })
    try type("Plan")
    try keys("PageUp", "PageDown", "Home", "End", "DC", "IC", "F1", "F5", "F12", "S-F3", "C-Right")
    try type("ning")
    #expect(
      try await waitForScreen { $0.contains("Title   Planning▏") }, "\((try? screen()) ?? "")"
    )
    #expect(!(try screen()).contains("~"), "\((try? screen()) ?? "")")
    try keys("Escape")
    #expect(try await waitForScreen { $0.contains("a add · d delete · q quit") })
    try keys("q")
    #expect(try await waitForScreen { $0.contains("EXIT=0") }, "\((try? screen()) ?? "")")
  }

  /// The edit form's vocabulary: ^W adds a row, typing fills it, ^D removes the one under the
  /// cursor; enter saves it with the sync-up.
  @Test func theFormEditsTheVocabulary() async throws {
    let home = try seededDataDirectory()
    defer { try? FileManager.default.removeItem(at: home) }
    try startApp(home)
    defer { terminal.kill() }

    #expect(try await waitForScreen { $0.contains("Morning Sync") }, "\((try? screen()) ?? "")")
    try keys("Enter")
    #expect(try await waitForScreen { $0.contains("Length 5 min · Theme Orange") })
    try keys("e")
    #expect(try await waitForScreen { $0.contains("none yet: ^W adds a word") })
    try keys("C-w")
    try type("Zorbex")
    try keys("C-w")
    try type("Figma")
    try keys("C-w")
    try type("staging server")
    #expect(
      try await waitForScreen { $0.contains("3.      staging server▏") },
      "\((try? screen()) ?? "")")
    try keys("Up", "C-d")
    #expect(
      try await waitForScreen { $0.contains("2.      staging server▏") && !$0.contains("Figma") },
      "\((try? screen()) ?? "")")
    try keys("Enter")
    #expect(try await waitForScreen { $0.contains("s start meeting") }, "\((try? screen()) ?? "")")
    try keys("b")
    #expect(try await waitForScreen { $0.contains("a add · d delete · q quit") })
    try keys("q")
    #expect(try await waitForScreen { $0.contains("EXIT=0") }, "\((try? screen()) ?? "")")
    let saved = try #require(try savedSyncUps(home).first)
    #expect(saved["vocabulary"] as? [String] == ["Zorbex", "staging server"])
  }

  /// Another process adding a sync-up shows on the list at once, without a key press.
  @Test func theListFollowsChangesMadeByAnotherProcess() async throws {
    let home = try seededDataDirectory()
    defer { try? FileManager.default.removeItem(at: home) }
    try startApp(home)
    defer { terminal.kill() }

    #expect(try await waitForScreen { $0.contains("Morning Sync") }, "\((try? screen()) ?? "")")
    let added = try await runSyncups(
      ["add", "--title", "Retro", "--attendee", "Cleo", "--duration", "45s"],
      environment: ["SYNCUPS_HOME": home.path]
    )
    #expect(added.status == 0, "\(added)")
    #expect(
      try await waitForScreen {
        $0.contains("Retro") && $0.contains("1 attendee · 45 s · 0 meetings")
      },
      "\((try? screen()) ?? "")"
    )
    try keys("q")
    #expect(try await waitForScreen { $0.contains("EXIT=0") }, "\((try? screen()) ?? "")")
  }

  /// At 20×5 every screen fits: its header stays on the first row.
  @Test func aTinyTerminalKeepsTheHeader() async throws {
    let home = try seededDataDirectory()
    defer { try? FileManager.default.removeItem(at: home) }
    try terminal.start("SYNCUPS_HOME='\(home.path)' '\(syncupsBinary.path)'", columns: 20, rows: 5)
    defer { terminal.kill() }

    func firstRow() -> String {
      ((try? screen()) ?? "").split(separator: "\n").first.map(String.init) ?? ""
    }
    #expect(
      try await waitForScreen { $0.contains("Morning") && $0.hasPrefix(" Daily Sync-ups") },
      "\((try? screen()) ?? "")"
    )
    try keys("Enter")
    #expect(
      try await waitForScreen { $0.contains("Length") }, "\((try? screen()) ?? "")"
    )
    #expect(firstRow().hasPrefix(" Morning Sync"), "\((try? screen()) ?? "")")
    try keys("e")
    #expect(try await waitForScreen { $0.contains("Title") }, "\((try? screen()) ?? "")")
    #expect(firstRow().hasPrefix(" Edit Morning"), "\((try? screen()) ?? "")")
    try keys("Escape", "b")
    #expect(
      try await waitForScreen { $0.hasPrefix(" Daily Sync-ups") && $0.contains("↑↓") },
      "\((try? screen()) ?? "")"
    )
    try keys("q")
  }
}
