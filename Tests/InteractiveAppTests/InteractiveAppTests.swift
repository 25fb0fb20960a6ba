import Foundation
import Testing

/// The `syncups` binary built beside this test bundle.
let syncupsBinary: URL = {
  let root = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
  let candidates = [
    Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("syncups"),
    root.appendingPathComponent(".build/debug/syncups"),
  ]
  return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) } ?? candidates[0]
}()

/// `syncups` with no arguments in a real pseudo-terminal (tmux on a server of this test's own):
/// list → detail → back, add a sync-up through the form, quit; the file holds the new sync-up.
@Suite("syncups interactive app on a terminal", .serialized)
struct InteractiveAppTests {
  let server = "syncups-app-\(UUID().uuidString.prefix(8))"

  /// Runs tmux on this test's server. The command that starts the server gets no pipe: the
  /// server would inherit it and keep it open for its whole life.
  @discardableResult
  func tmux(_ arguments: String..., output: Bool = true) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["tmux", "-L", server] + arguments
    let pipe = Pipe()
    process.standardOutput = output ? pipe : FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    let data = output ? pipe.fileHandleForReading.readDataToEndOfFile() : Data()
    process.waitUntilExit()
    return String(decoding: data, as: UTF8.self)
  }

  func screen() throws -> String { try tmux("capture-pane", "-p", "-t", server) }

  func keys(_ keys: String...) throws {
    for key in keys { try tmux(["send-keys", "-t", server, key]) }
  }

  func type(_ text: String) throws { try tmux(["send-keys", "-t", server, "-l", text]) }

  func tmux(_ arguments: [String]) throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["tmux", "-L", server] + arguments
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
  }

  func waitForScreen(
    _ condition: (String) -> Bool, timeout: Duration = .seconds(30)
  ) async throws -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
      if condition(try screen()) { return true }
      try await Task.sleep(for: .milliseconds(100))
    }
    return false
  }

  @Test func navigatesAddsASyncUpAndQuits() async throws {
    let home = try seededHome()
    defer { try? FileManager.default.removeItem(at: home) }
    // The shell keeps the pane open after syncups exits, so its last words can be read.
    try tmux(
      "new-session", "-d", "-s", server, "-x", "100", "-y", "30",
      "SYNCUPS_HOME='\(home.path)' '\(syncupsBinary.path)'; echo EXIT=$?; sleep 60",
      output: false
    )
    defer { try? tmux("kill-server", output: false) }

    #expect(
      try await waitForScreen { $0.contains("Daily Sync-ups") && $0.contains("Morning Sync") },
      "\((try? screen()) ?? "")"
    )
    try keys("Enter")
    #expect(try await waitForScreen { $0.contains("Length 5 min · Theme Orange") && $0.contains("Ben") })
    try keys("b")
    #expect(try await waitForScreen { $0.contains("a add · d delete · q quit") })

    try keys("a")
    #expect(try await waitForScreen { $0.contains("New sync-up") })
    try type("Design")
    try keys("Down", "Right", "Down", "Down")
    try type("Cleo")
    try keys("C-n")
    try type("Dev")
    #expect(try await waitForScreen { $0.contains("Title   Design") && $0.contains("6 min") && $0.contains("2.      Dev") })
    try keys("Enter")
    #expect(
      try await waitForScreen { $0.contains("Design") && $0.contains("2 attendees · 6 min · 0 meetings") },
      "\((try? screen()) ?? "")"
    )
    try keys("q")
    #expect(try await waitForScreen { $0.contains("EXIT=0") }, "\((try? screen()) ?? "")")

    let saved = try syncUps(home)
    #expect(saved.map { $0["title"] as? String } == ["Morning Sync", "Design"])
    let design = try #require(saved.last)
    #expect((design["attendees"] as? [[String: Any]])?.map { $0["name"] as? String } == ["Cleo", "Dev"])
    #expect(design["duration"] as? Double == 360)
  }

  /// A data directory with one sync-up, written as the app writes `sync-ups.json`.
  func seededHome() throws -> URL {
    let home = FileManager.default.temporaryDirectory
      .appendingPathComponent("syncups-app-\(UUID().uuidString.prefix(8))", isDirectory: true)
    try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
    let file: [String: Any] = [
      "formatVersion": 1,
      "syncUps": [
        [
          "id": "11111111-2222-3333-4444-555555555555", "title": "Morning Sync", "duration": 300,
          "theme": "orange", "meetings": [],
          "attendees": [
            ["id": "11111111-2222-3333-4444-000000000001", "name": "Ana"],
            ["id": "11111111-2222-3333-4444-000000000002", "name": "Ben"],
          ],
        ]
      ],
    ]
    try JSONSerialization.data(withJSONObject: file).write(to: home.appendingPathComponent("sync-ups.json"))
    return home
  }

  func syncUps(_ home: URL) throws -> [[String: Any]] {
    let data = try Data(contentsOf: home.appendingPathComponent("sync-ups.json"))
    let file = try JSONSerialization.jsonObject(with: data) as? [String: Any]
    return file?["syncUps"] as? [[String: Any]] ?? []
  }
}
