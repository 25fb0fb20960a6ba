import Foundation
import SyncUpsTestSupport
import Testing

/// Drives the live recording screen through a real pseudo-terminal (tmux): the keys `n` and
/// `e` → Save work, and the screen shows the speaker and the transcript.
@Suite("syncups record on a terminal", .serialized)
struct RecordScreenTests {
  let terminal = Tmux()

  @Test func keysMoveToTheNextSpeakerAndEndAndSave() async throws {
    // Long slots and four minutes of quiet after the sample: the screen stays on each state long
    // enough for a loaded machine to look at it, whatever the test's polling latency.
    let home = try dataDirectory(seconds: 300)
    let input = home.appendingPathComponent("standup-and-quiet.wav").path
    try await sox([samples.appendingPathComponent("standup.wav").path, input, "pad", "0", "240"])
    // The shell keeps the pane open after syncups exits, so its last words can be read.
    try terminal.start(
      "SYNCUPS_HOME='\(home.path)' '\(syncupsBinary.path)' record 'Morning Sync' --input '\(input)'; echo EXIT=$?; sleep 60"
    )
    defer { terminal.kill() }

    #expect(
      try await terminal.waitForScreen {
        $0.contains("Speaker 1 of 3: Ana") && $0.contains("● REC")
      },
      "\((try? terminal.screen()) ?? "")"
    )
    #expect(try await terminal.waitForScreen { $0.contains("Ana: good morning everyone") })
    try terminal.keys("n")
    #expect(try await terminal.waitForScreen { $0.contains("Speaker 2 of 3: Ben") })
    try terminal.keys("e")
    #expect(
      try await terminal.waitForScreen {
        $0.contains("End meeting?") && $0.contains("[s] Save and end")
      })
    try terminal.keys("s")
    #expect(try await terminal.waitForScreen { $0.contains("EXIT=0") })
    #expect(try terminal.screen().contains("Saved meeting"))

    let meeting = try #require(try savedMeetings(home).first)
    #expect(segments(meeting).first?.speaker == "Ana")
    // The second pass's first sentence, as `Samples/make-samples` wrote what a recording saves,
    // or the live pass's when the second had not caught up (a busy machine: it replaces it in
    // the background).
    let first = try #require(segments(meeting).first?.text)
    #expect(
      try committedRecording("standup").hasPrefix(first + " ")
        || committedRecording("standup", audioKept: false).hasPrefix(first + " "), "\(first)")
    #expect(first.hasSuffix("everyone let's start the stand up"), "\(first)")
  }
}
