import Crypto
import Foundation
import Hummingbird
import HummingbirdTesting
import SyncUpsWire
import Testing

/// `make screenshots`: the sync-ups, the meeting page (its digest first, a word lit, as while
/// playing), the search page and the blockers page at 360 and 1280 px wide, as PNGs in `$SYNCUPS_SCREENSHOTS`. Runs only when that is set.
@Suite(
  .enabled(
    if: ProcessInfo.processInfo.environment["SYNCUPS_SCREENSHOTS"] != nil
      && TestPostgres.available,
    "runs with `make screenshots` (SYNCUPS_SCREENSHOTS names the folder)"))
struct WebScreenshots {
  @Test func screenshotsOfTheMeetingAndSearchPages() async throws {
    let folder = URL(
      fileURLWithPath: ProcessInfo.processInfo.environment["SYNCUPS_SCREENSHOTS"] ?? "")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let server = try await TestServer.make()
    try await server.store { try await $0.setPassword(name: "Ana", password: "correct horse") }
    let meeting = try await server.pushStandUp()
    let id = meeting.id.uuidString.lowercased()
    try await server.test(.live) { http, _ in
      let base = "http://127.0.0.1:\(try #require(http.port))"
      let browser = try await Browser.start()
      do {
        try await browser.go("\(base)/sign-in")
        try await browser.type("Ana", into: "#name")
        try await browser.type("correct horse", into: "#password")
        try await browser.click("form.stack button")
        #expect(await browser.arrives(at: "\(base)/"))
        for width in [360, 1280] {
          try await browser.resize(width: width, height: width == 360 ? 1400 : 1000)
          try await browser.go("\(base)/")
          try browser.save(try await browser.screenshot(), folder, "sync-ups-\(width).png")
          try await browser.go("\(base)/meetings/\(id)?t=3.1")
          _ = try await browser.wait(
            Bool.self,
            """
            const audio = document.getElementById('player');
            const check = () => document.querySelector('[aria-current="true"]')
              ? done('true') : setTimeout(check, 20);
            audio.addEventListener('loadedmetadata', check); check();
            """)
          try browser.save(try await browser.screenshot(), folder, "meeting-\(width).png")
          try await browser.go("\(base)/search?q=build+server")
          try browser.save(try await browser.screenshot(), folder, "search-\(width).png")
          try await browser.go("\(base)/blockers?since=2025-01-01")
          try browser.save(try await browser.screenshot(), folder, "blockers-\(width).png")
        }
      } catch {
        await browser.quit()
        throw error
      }
      await browser.quit()
    }
  }
}

extension Browser {
  func resize(width: Int, height: Int) async throws {
    _ = try await Self.call(session, "POST", "window/rect", ["width": width, "height": height])
  }

  func save(_ png: Data, _ folder: URL, _ name: String) throws {
    try png.write(to: folder.appendingPathComponent(name))
  }
}

extension TestServer {
  /// The bundled stand-up (Samples/standup.wav, 32 s) with its sentences, for the screenshots.
  func pushStandUp() async throws -> MeetingDocument {
    let wav = try Data(
      contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Samples/standup.wav"))
    let sha = SHA256.hash(data: wav).map { String(format: "%02x", $0) }.joined()
    var syncUp = Fixture.syncUp(title: "Platform Stand-up")
    syncUp.attendees.value = ["Ana", "Ben", "Cleo"].map { .init(id: UUID(), name: $0) }
    var meeting = Fixture.meeting(
      in: syncUp.id,
      said: [
        ("Ana", "good morning everyone let's start the stand up"),
        ("Ben", "yesterday I finished the login page and fixed two bugs in the report"),
        ("Cleo", "I worked on the database migration it is almost done"),
        ("Ana", "today I will review the pull requests and write the release notes"),
        ("Ben", "today I want to add tests for the new search feature"),
        ("Cleo", "I am blocked by the build server it has been very slow since Monday"),
      ],
      audio: .init(sha256: sha, size: Int64(wav.count), type: "audio/wav"))
    // The audio's length (the sentences, 5 s apart, end at 29 s).
    meeting.length = 32.11
    let push = Push(device: UUID(), pushID: UUID(), syncUps: [syncUp], meetings: [meeting])
    try await test { http, _ in
      _ = try await http.send(.put, "/api/v1/audio/\(sha)", token: writerToken, body: wav)
      let pushed = try await http.push(push, token: writerToken)
      #expect(pushed.status == .ok)
    }
    return meeting
  }
}
