import Crypto
import Foundation
import Hummingbird
import HummingbirdTesting
import SyncUpsWire
import Testing

/// The pages in Debian's headless Chromium, on a real port, with the bundled sample's real
/// audio: one browser for the whole journey (starting Chromium is most of the cost).
@Suite(
  .enabled(
    if: TestPostgres.available,
    "skipped: no PostgreSQL for the server's tests (.ci/postgres could not start one)"))
struct WebBrowserTests {
  @Test func aPersonSignsInFollowsTheWordsAndSearchesInChromium() async throws {
    try #require(
      Browser.installed, "no \(Browser.chromium) or \(Browser.chromedriver): run .ci/setup")
    let server = try await TestServer.make()
    try await server.store { try await $0.setPassword(name: "Ana", password: "correct horse") }
    let meeting = try await server.pushSample()
    let id = meeting.id.uuidString.lowercased()
    let words = meeting.segments.flatMap(\.words)
    try await server.test(.live) { http, _ in
      let base = "http://127.0.0.1:\(try #require(http.port))"
      let browser = try await Browser.start()
      do {
        try await journey(browser, base: base, meeting: id, words: words)
      } catch {
        await browser.quit()
        throw error
      }
      await browser.quit()
    }
  }

  func journey(
    _ browser: Browser, base: String, meeting id: String, words: [MeetingDocument.Word]
  ) async throws {
    // Signed out: the meeting page sends the visitor to sign in; the audio is refused.
    try await expectASignedOutVisitorIsSentToSignIn(browser, base: base, meeting: id)
    // Signing in leads back to the meeting.
    try await signInAndExpectTheMeetingWithItsAudio(browser, base: base, meeting: id)
    // The audio sought to a word's start: that word, and only it, is the current one.
    try await expectSeekingToAWordMakesItTheCurrentOne(browser, word: words[3])
    // A click on another word plays from its start.
    try await expectClickingAWordPlaysFromItsStart(browser, word: words[8])
    // The space bar plays, and pressed again pauses (outside the search box).
    try await expectTheSpaceBarPlaysAndPausesOutsideTheSearchBox(browser)
    // Search from the box, follow the result: the audio is at that moment.
    try await expectASearchResultLeadsToItsMoment(browser, base: base, meeting: id)
  }
}

/// Where the audio is and which words are lit, as the page reports it.
private struct Moment: Decodable {
  var time: Double
  var lit: [String]
}

/// The steps of the journey; a failure points at the journey's line.
extension WebBrowserTests {
  func expectASignedOutVisitorIsSentToSignIn(
    _ browser: Browser, base: String, meeting id: String,
    sourceLocation: SourceLocation = #_sourceLocation
  ) async throws {
    try await browser.go("\(base)/meetings/\(id)")
    #expect(
      try await browser.currentURL() == "\(base)/sign-in?next=%2Fmeetings%2F\(id)",
      sourceLocation: sourceLocation)
    #expect(
      try await browser.run(
        Bool.self, "return JSON.stringify(!document.querySelector('.transcript'))"),
      sourceLocation: sourceLocation)
    let refused = try await browser.wait(
      Int.self, "fetch('/audio/\(id)').then(r => done(JSON.stringify(r.status)));")
    #expect(refused == 401, sourceLocation: sourceLocation)
  }

  func signInAndExpectTheMeetingWithItsAudio(
    _ browser: Browser, base: String, meeting id: String,
    sourceLocation: SourceLocation = #_sourceLocation
  ) async throws {
    try await browser.type("Ana", into: "#name")
    try await browser.type("correct horse", into: "#password")
    try await browser.click("form.stack button")
    #expect(await browser.arrives(at: "\(base)/meetings/\(id)"), sourceLocation: sourceLocation)
    let duration = try await browser.wait(
      Double.self,
      """
      const audio = document.getElementById('player');
      const go = () => done(JSON.stringify(audio.duration));
      if (audio.readyState >= 1) go(); else audio.addEventListener('loadedmetadata', go);
      """)
    #expect(
      abs(duration - 5.475) < 0.05, "the sample's audio is 5.475 s long",
      sourceLocation: sourceLocation)
  }

  func expectSeekingToAWordMakesItTheCurrentOne(
    _ browser: Browser, word sought: MeetingDocument.Word,
    sourceLocation: SourceLocation = #_sourceLocation
  ) async throws {
    let lit = try await browser.wait(
      [String].self,
      """
      const audio = document.getElementById('player');
      audio.addEventListener('seeked', () => done(JSON.stringify(
        [...document.querySelectorAll('[aria-current="true"]')].map(e => e.dataset.start))),
        { once: true });
      audio.currentTime = \(sought.start);
      """)
    #expect(lit == [String(format: "%.2f", sought.start)], sourceLocation: sourceLocation)
  }

  func expectClickingAWordPlaysFromItsStart(
    _ browser: Browser, word clicked: MeetingDocument.Word,
    sourceLocation: SourceLocation = #_sourceLocation
  ) async throws {
    let start = String(format: "%.2f", clicked.start)
    try await browser.click(".said [data-start=\"\(start)\"]")
    let moment = try await browser.run(
      Moment.self,
      """
      const audio = document.getElementById('player');
      audio.pause();
      return JSON.stringify({ time: audio.currentTime,
        lit: [...document.querySelectorAll('[aria-current="true"]')].map(e => e.dataset.start) });
      """)
    #expect(
      moment.time >= clicked.start - 0.001 && moment.time < clicked.end + 0.5,
      sourceLocation: sourceLocation)
    #expect(moment.lit.count <= 1, sourceLocation: sourceLocation)
  }

  func expectTheSpaceBarPlaysAndPausesOutsideTheSearchBox(
    _ browser: Browser, sourceLocation: SourceLocation = #_sourceLocation
  ) async throws {
    func playing(_ wanted: Bool) async throws -> Bool {
      try await browser.wait(
        Bool.self,
        """
        const audio = document.getElementById('player');
        const check = () => audio.paused === \(!wanted) ? done('true') : setTimeout(check, 20);
        check();
        """)
    }
    _ = try await browser.run(Bool.self, "document.activeElement.blur(); return 'true';")
    try await browser.press(" ")
    #expect(try await playing(true), sourceLocation: sourceLocation)
    try await browser.press(" ")
    #expect(try await playing(false), sourceLocation: sourceLocation)
    // In the search box the space bar types a space instead.
    try await browser.type("a", into: "#q")
    try await browser.press(" ")
    #expect(
      try await browser.run(
        Bool.self,
        "return JSON.stringify(document.getElementById('player').paused && "
          + "document.getElementById('q').value === 'a ')"), sourceLocation: sourceLocation)
    _ = try await browser.run(Bool.self, "document.getElementById('q').value = ''; return 'true';")
  }

  func expectASearchResultLeadsToItsMoment(
    _ browser: Browser, base: String, meeting id: String,
    sourceLocation: SourceLocation = #_sourceLocation
  ) async throws {
    try await browser.type("speech", into: "#q")
    try await browser.click("form.search button")
    #expect(await browser.arrives(at: "\(base)/search?q=speech"), sourceLocation: sourceLocation)
    let marked = try await browser.run(
      [String].self,
      "return JSON.stringify([...document.querySelectorAll('.results mark')].map(m => m.textContent))"
    )
    #expect(marked == ["speech"], sourceLocation: sourceLocation)
    try await browser.click(".results a")
    #expect(
      await browser.arrives(at: "\(base)/meetings/\(id)?t=3.20"), sourceLocation: sourceLocation)
    let arrived = try await browser.wait(
      Moment.self,
      """
      const audio = document.getElementById('player');
      const check = () => {
        if (audio.readyState >= 1 && Math.abs(audio.currentTime - 3.2) < 0.01) {
          done(JSON.stringify({ time: audio.currentTime,
            lit: [...document.querySelectorAll('.segment.here')].map(e => e.id) }));
        } else setTimeout(check, 20);
      };
      check();
      """)
    #expect(abs(arrived.time - 3.2) < 0.01, sourceLocation: sourceLocation)
    #expect(arrived.lit == ["s1"], sourceLocation: sourceLocation)
  }
}

extension TestServer {
  /// The bundled sample (Samples/hello.wav, 5.475 s) as a meeting of two speakers, its words
  /// spread over the audio.
  func pushSample() async throws -> MeetingDocument {
    let wav = try Data(
      contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Samples/hello.wav"))
    let sha = SHA256.hash(data: wav).map { String(format: "%02x", $0) }.joined()
    let syncUp = Fixture.syncUp(title: "Demo Stand-up")
    func words(_ text: String, from start: Double, step: Double) -> [MeetingDocument.Word] {
      text.split(separator: " ").enumerated().map { index, word in
        let begin = start + Double(index) * step
        return .init(text: String(word), start: begin, end: begin + step - 0.05)
      }
    }
    let first = words("hello world this is a short test", from: 0.3, step: 0.4)
    let second = words("of the speech recognizer", from: 3.2, step: 0.5)
    let meeting = MeetingDocument(
      id: UUID(), syncUpID: syncUp.id, date: Date(timeIntervalSince1970: 1_764_144_000),
      length: 5.475,
      segments: [
        .init(
          speaker: "Ana", start: 0.3, end: 3.05, text: "hello world this is a short test",
          words: first),
        .init(
          speaker: "Ben", start: 3.2, end: 5.15, text: "of the speech recognizer", words: second),
      ],
      audio: .init(sha256: sha, size: Int64(wav.count), type: "audio/wav"),
      clock: Fixture.clock(2))
    try await test { http, _ in
      let upload = try await http.send(.put, "/api/v1/audio/\(sha)", token: writerToken, body: wav)
      #expect(upload.status == .created)
      let pushed = try await http.push(
        Push(device: UUID(), pushID: UUID(), syncUps: [syncUp], meetings: [meeting]),
        token: writerToken)
      #expect(pushed.status == .ok)
    }
    return meeting
  }
}
