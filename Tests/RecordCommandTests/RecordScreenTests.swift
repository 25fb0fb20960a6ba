import Foundation
import SyncUpsTestSupport
import Testing

/// Drives the live recording screen through a real pseudo-terminal (tmux): the keys `n` and
/// `e` → Save work, and the screen shows the speaker and the transcript.
@Suite("syncups record on a terminal", .serialized)
struct RecordScreenTests {
  let session = "syncups-test-\(UUID().uuidString.prefix(8))"

  /// Runs tmux on a server of this test's own. The command that starts the server gets no pipe:
  /// the server would inherit it and keep it open for its whole life.
  @discardableResult
  func tmux(_ arguments: String..., output: Bool = true) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["tmux", "-L", session] + arguments
    let pipe = Pipe()
    process.standardOutput = output ? pipe : FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    let data = output ? pipe.fileHandleForReading.readDataToEndOfFile() : Data()
    process.waitUntilExit()
    return String(decoding: data, as: UTF8.self)
  }

  func screen() throws -> String { try tmux("capture-pane", "-p", "-t", session) }

  func waitForScreen(_ condition: (String) -> Bool, timeout: Duration = .seconds(40)) async throws -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
      if condition(try screen()) { return true }
      try await Task.sleep(for: .milliseconds(100))
    }
    return false
  }

  @Test func keysMoveToTheNextSpeakerAndEndAndSave() async throws {
    let home = try dataDirectory()
    let input = samples.appendingPathComponent("standup.wav").path
    // The shell keeps the pane open after syncups exits, so its last words can be read.
    try tmux(
      "new-session", "-d", "-s", session, "-x", "100", "-y", "30",
      "SYNCUPS_HOME='\(home.path)' '\(syncupsBinary.path)' record 'Morning Sync' --input '\(input)'; echo EXIT=$?; sleep 60",
      output: false
    )
    defer { try? tmux("kill-server", output: false) }

    #expect(
      try await waitForScreen { $0.contains("Speaker 1 of 3: Ana") && $0.contains("● REC") },
      "\((try? screen()) ?? "")"
    )
    #expect(try await waitForScreen { $0.contains("Ana: good morning everyone") })
    try tmux("send-keys", "-t", session, "n")
    #expect(try await waitForScreen { $0.contains("Speaker 2 of 3: Ben") })
    try tmux("send-keys", "-t", session, "e")
    #expect(try await waitForScreen { $0.contains("End meeting?") && $0.contains("[s] Save and end") })
    try tmux("send-keys", "-t", session, "s")
    #expect(try await waitForScreen { $0.contains("EXIT=0") })
    #expect(try screen().contains("Saved meeting"))

    let meeting = try #require(try savedMeetings(home).first)
    #expect(segments(meeting).first?.speaker == "Ana")
    #expect(segments(meeting).first?.text == "good morning everyone let's start to stand up")
  }
}
