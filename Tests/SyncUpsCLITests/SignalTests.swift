import Foundation
import SyncUpsTestSupport
import TestSupport
import Testing

/// A signal during `export --output F` leaves no `.F.XXXX.tmp` file behind: every signal that ends a command removes its temporary file.
@Suite("syncups and signals", .serialized)
struct SignalTests {
  /// An export of a few megabytes, caught (and stopped) while its temporary file exists, then
  /// ended by each signal: no temporary file is left, and no export either.
  @Test(arguments: [SIGINT, SIGTERM, SIGHUP, SIGQUIT])
  func aSignalDuringAnExportLeavesNoTemporaryFile(signal: Int32) async throws {
    let home = try Home()
    let data = home.url.appendingPathComponent("big.json")
    try bigExport().write(to: data)
    let imported = try await home.run("import", data.path)
    #expect(imported.status == 0, "\(imported)")
    let folder = home.url.appendingPathComponent("out")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let output = folder.appendingPathComponent("team.json")
    let temporary = { () -> [String] in
      ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
        .filter { $0.hasSuffix(".tmp") }
    }
    let export = try RunningSyncups(["export", "--output", output.path], home: home)
    let caught = await waitUntil(timeout: .seconds(60)) {
      !temporary().isEmpty || !export.child.isRunning
    }
    try #require(caught && export.child.isRunning, "the export ended before it could be caught")
    export.signal(SIGSTOP)
    export.signal(signal)
    export.signal(SIGCONT)
    _ = await export.finish()
    #expect(temporary().isEmpty, "\(temporary())")
    #expect(!FileManager.default.fileExists(atPath: output.path))
    #expect(!export.stderr.contains("Backtrace") && !export.stderr.contains("Crash"))
  }

  /// One sync-up with 150 meetings of 60 ten-word segments: about 6 MB of export.
  private func bigExport() throws -> Data {
    let attendee: [String: Any] = ["id": UUID().uuidString, "name": "Ana"]
    let words = "we shipped the parser and the staging server is fine today"
    var segments: [[String: Any]] = []
    for segment in 0..<60 {
      let start = Double(segment * 5)
      segments.append(
        ["speaker": "Ana", "start": start, "end": start + 4, "text": words, "words": [Any]()])
    }
    let transcript = Array(repeating: words, count: 60).joined(separator: " ")
    var meetings: [[String: Any]] = []
    for _ in 0..<150 {
      let meeting: [String: Any] = [
        "id": UUID().uuidString, "date": "2026-01-01T09:00:00Z", "transcript": transcript,
        "segments": segments,
      ]
      meetings.append(meeting)
    }
    let syncUp: [String: Any] = [
      "id": UUID().uuidString, "title": "Big", "attendees": [attendee], "duration": 300,
      "theme": "bubblegum", "meetings": meetings,
    ]
    return try JSONSerialization.data(withJSONObject: ["formatVersion": 1, "syncUps": [syncUp]])
  }
}
