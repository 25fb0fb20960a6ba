import Crypto
import Foundation
import Hummingbird
import HummingbirdTesting
import SyncUpsWire
import Testing

/// The digest and the blockers page in Debian's headless Chromium, on a real port, with the
/// bundled sample's real audio (as WebBrowserTests): a digest item seeks the audio to its time;
/// a blocker raised in one meeting leaves the open list once its owner says in a later meeting
/// that it is resolved; closing one by hand removes it.
@Suite(
  .enabled(
    if: TestPostgres.available,
    "skipped: no PostgreSQL for the server's tests (.ci/postgres could not start one)"))
struct WebDigestBrowserTests {
  @Test func theDigestSeeksTheAudioAndTheBlockersPageClosesBlockersInChromium() async throws {
    try #require(
      Browser.installed, "no \(Browser.chromium) or \(Browser.chromedriver): run .ci/setup")
    let server = try await TestServer.make()
    try await server.store { try await $0.setPassword(name: "Ana", password: "correct horse") }
    let meetings = try await server.pushStandups()
    try await server.test(.live) { http, _ in
      let base = "http://127.0.0.1:\(try #require(http.port))"
      let browser = try await Browser.start()
      do {
        try await journey(browser, base: base, server: server, meetings: meetings)
      } catch {
        await browser.quit()
        throw error
      }
      await browser.quit()
    }
  }

  func journey(
    _ browser: Browser, base: String, server: TestServer, meetings: Standups
  ) async throws {
    let first = meetings.first.id.uuidString.lowercased()
    try await browser.go("\(base)/meetings/\(first)")
    try await browser.type("Ana", into: "#name")
    try await browser.type("correct horse", into: "#password")
    try await browser.click("form.stack button")
    #expect(await browser.arrives(at: "\(base)/meetings/\(first)"))
    try await expectTheDigestFirstAndAClickSeeksTheAudio(browser)
    // Before the later meeting, Ben's blocker is open.
    try await browser.click("nav.nav a[href=\"/blockers\"]")
    #expect(await browser.arrives(at: "\(base)/blockers"))
    #expect(
      try await openBlockers(browser) == [
        "waiting on ben for the new icons",
        "blocked on the finance team they still haven't sent the tax rules",
      ])
    // The later meeting, where Ben says he got them: gone from the open list.
    try await server.pushLaterStandup(meetings)
    try await browser.go("\(base)/blockers")
    #expect(
      try await openBlockers(browser) == [
        "waiting on legal to approve the new terms", "waiting on ben for the new icons",
      ])
    #expect(
      try await browser.run(
        [String].self,
        "return JSON.stringify([...document.querySelectorAll("
          + "'ol[aria-label=\"Closed blockers\"] .said a')].map(a => a.textContent))")
        == ["blocked on the finance team they still haven't sent the tax rules"])
    // A blocker's link opens its meeting with the audio at its moment.
    let second = meetings.second.id.uuidString.lowercased()
    try await browser.click("ol[aria-label=\"Open blockers\"] .said a")
    #expect(await browser.arrives(at: "\(base)/meetings/\(second)?t=3.20#s1"))
    #expect(abs(try await audioTime(browser, reaching: 3.2) - 3.2) < 0.05)
    // Closed by hand: gone from the open list, shown as closed.
    try await browser.go("\(base)/blockers")
    try await browser.click("ol[aria-label=\"Open blockers\"] li:first-child button.close")
    #expect(await browser.arrives(at: "\(base)/blockers?since=7d"))
    #expect(try await openBlockers(browser) == ["waiting on ben for the new icons"])
    #expect(
      try await browser.run(
        Bool.self,
        "return JSON.stringify(document.body.textContent.includes('Closed by hand by Ana'))"))
  }

  func expectTheDigestFirstAndAClickSeeksTheAudio(
    _ browser: Browser, sourceLocation: SourceLocation = #_sourceLocation
  ) async throws {
    // The digest is the first section of the page, before the audio player and the transcript.
    let first = try await browser.run(
      Bool.self,
      """
      const digest = document.getElementById('digest');
      const player = document.getElementById('player');
      const transcript = document.querySelector('.transcript');
      return JSON.stringify(document.querySelector('main section') === digest &&
        !!(digest.compareDocumentPosition(player) & Node.DOCUMENT_POSITION_FOLLOWING) &&
        !!(digest.compareDocumentPosition(transcript) & Node.DOCUMENT_POSITION_FOLLOWING));
      """)
    #expect(first, sourceLocation: sourceLocation)
    _ = try await audioTime(browser, reaching: 0)
    try await browser.click("#digest a.moment[data-start=\"2.50\"]")
    let time = try await audioTime(browser, reaching: 2.5)
    #expect(abs(time - 2.5) < 0.3, sourceLocation: sourceLocation)
    #expect(
      try await browser.run(Bool.self, "return JSON.stringify(location.search === '?t=2.50')"),
      sourceLocation: sourceLocation)
  }

  /// The audio's `currentTime` once its metadata is there and it has reached `wanted` (paused
  /// then, so the time stays).
  func audioTime(_ browser: Browser, reaching wanted: Double) async throws -> Double {
    try await browser.wait(
      Double.self,
      """
      const audio = document.getElementById('player');
      const check = () => {
        if (audio.readyState >= 1 && audio.currentTime >= \(wanted) - 0.01) {
          audio.pause();
          done(JSON.stringify(audio.currentTime));
        } else setTimeout(check, 20);
      };
      check();
      """)
  }

  /// The phrases of the open blockers, in the page's order.
  func openBlockers(_ browser: Browser) async throws -> [String] {
    try await browser.run(
      [String].self,
      "return JSON.stringify([...document.querySelectorAll("
        + "'ol[aria-label=\"Open blockers\"] .said a')].map(a => a.textContent))")
  }
}

/// Two stand-ups of one sync-up on the bundled sample's audio: two days ago Ben is blocked on
/// the tax rules and Ana, who fixed the staging server, waits on Ben for the icons; yesterday
/// (pushed later, by `pushLaterStandup`) Ben got the tax rules and Ana waits on legal.
struct Standups {
  var syncUp: SyncUpDocument
  var audio: MeetingDocument.Audio
  var first: MeetingDocument
  var second: MeetingDocument
}

extension TestServer {
  func pushStandups() async throws -> Standups {
    let wav = try Data(
      contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Samples/hello.wav"))
    let sha = SHA256.hash(data: wav).map { String(format: "%02x", $0) }.joined()
    let audio = MeetingDocument.Audio(sha256: sha, size: Int64(wav.count), type: "audio/wav")
    let syncUp = Fixture.syncUp(title: "Demo Stand-up")
    func segment(_ speaker: String, _ text: String, at start: Double) -> MeetingDocument.Segment {
      let words = text.split(separator: " ").enumerated().map { index, word in
        let begin = start + Double(index) * 0.1
        return MeetingDocument.Word(text: String(word), start: begin, end: begin + 0.08)
      }
      return .init(speaker: speaker, start: start, end: start + 2, text: text, words: words)
    }
    func meeting(_ days: Double, _ segments: [MeetingDocument.Segment]) -> MeetingDocument {
      MeetingDocument(
        id: UUID(), syncUpID: syncUp.id, date: Date().addingTimeInterval(-days * 86_400),
        length: 5.475, segments: segments, audio: audio, clock: Fixture.clock(2))
    }
    let first = meeting(
      2,
      [
        segment(
          "Ben", "i am blocked on the finance team they still haven't sent the tax rules", at: 0.3),
        segment("Ana", "yesterday i fixed the staging server", at: 2.5),
        segment("Ana", "i am waiting on ben for the new icons", at: 3.5),
      ])
    let second = meeting(
      1,
      [
        segment("Ben", "i finally got the tax rules from finance", at: 0.3),
        segment("Ana", "i am waiting on legal to approve the new terms", at: 3.2),
      ])
    let standups = Standups(syncUp: syncUp, audio: audio, first: first, second: second)
    try await test { http, _ in
      let upload = try await http.send(.put, "/api/v1/audio/\(sha)", token: writerToken, body: wav)
      #expect(upload.status == .created)
      let pushed = try await http.push(
        Push(device: UUID(), pushID: UUID(), syncUps: [syncUp], meetings: [first]),
        token: writerToken)
      #expect(pushed.status == .ok)
    }
    return standups
  }

  func pushLaterStandup(_ standups: Standups) async throws {
    try await test { http, _ in
      let pushed = try await http.push(
        Push(device: UUID(), pushID: UUID(), syncUps: [], meetings: [standups.second]),
        token: writerToken)
      #expect(pushed.status == .ok)
    }
  }
}
