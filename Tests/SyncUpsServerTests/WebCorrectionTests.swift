import Foundation
import Hummingbird
import HummingbirdTesting
import SyncUpsTestSupport
import SyncUpsWire
import TestSupport
import Testing

/// Correcting on the meeting page in Debian's headless Chromium, with the real server on a
/// real port and two laptops (each a data directory of its own, running the real `syncups`):
/// the web's correction reaches a laptop at its next sync, and a correction of another segment
/// made on that laptop meanwhile is kept too.
@Suite(
  .enabled(
    if: TestPostgres.available,
    "skipped: no PostgreSQL for the server's tests (.ci/postgres could not start one)"))
struct WebCorrectionTests {
  /// A laptop: a data directory and a config folder of its own.
  struct Laptop {
    let root: TemporaryDirectory

    func expect(_ arguments: String...) async throws -> String {
      let run = try await runSyncups(
        arguments,
        environment: [
          "SYNCUPS_HOME": root.url.appendingPathComponent("data").path,
          "XDG_CONFIG_HOME": root.url.appendingPathComponent("config").path,
          "SYNCUPS_SYNC_TIMEOUT": "20",
        ])
      guard run.status == 0 else {
        throw WebDriverError("syncups \(arguments.joined(separator: " ")): \(run)")
      }
      return run.stdout
    }
  }

  @Test("a correction on the web page reaches a laptop at its next sync, beside its own")
  func aWebCorrectionAndALaptopsAreBothKept() async throws {
    try #require(
      Browser.installed, "no \(Browser.chromium) or \(Browser.chromedriver): run .ci/setup")
    let server = try await TestServer.make()
    try await server.store { try await $0.setPassword(name: "Ana", password: "correct horse") }
    let meeting = try await server.pushSample()
    let id = meeting.id.uuidString.lowercased()
    try await server.test(.live) { http, _ in
      let base = "http://127.0.0.1:\(try #require(http.port))"
      let laptops = [
        Laptop(root: try TemporaryDirectory()), Laptop(root: try TemporaryDirectory()),
      ]
      defer { for laptop in laptops { laptop.root.remove() } }
      for laptop in laptops {
        _ = try await laptop.expect("team", "join", base, "--token", server.writerToken)
        _ = try await laptop.expect("sync")
      }
      // Meanwhile, on the second laptop: the second segment corrected, not yet synced.
      _ = try await laptops[1].expect(
        "correct", "Demo Stand-up", "2", "--text", "of the speech recogniser")

      let browser = try await Browser.start()
      do {
        try await correctOnThePage(browser, base: base, meeting: id)
      } catch {
        await browser.quit()
        throw error
      }
      await browser.quit()

      // One sync on the second laptop: the web's correction arrives, its own stays.
      _ = try await laptops[1].expect("sync")
      _ = try await laptops[0].expect("sync")
      for laptop in laptops {
        let transcript = try await laptop.expect("transcript", "Demo Stand-up")
        #expect(transcript.contains("hello world this is a short check"), "\(transcript)")
        #expect(transcript.contains("of the speech recogniser"), "\(transcript)")
      }
      let stored = try await http.send(.get, "/api/v1/meetings/\(id)", token: server.writerToken)
        .decode(MeetingDocument.self)
      #expect(
        stored.segments.map(\.text)
          == ["hello world this is a short check", "of the speech recogniser"])
      #expect(stored.segments.map { $0.original?.text } == meeting.segments.map(\.text))
    }
  }

  /// Signs in, plays the audio, corrects the first segment with the keyboard (E, the text,
  /// Enter) while it plays, and checks the page shows the correction and what was recognised.
  func correctOnThePage(_ browser: Browser, base: String, meeting id: String) async throws {
    try await browser.go("\(base)/meetings/\(id)")
    try await browser.type("Ana", into: "#name")
    try await browser.type("correct horse", into: "#password")
    try await browser.click("form.stack button")
    #expect(await browser.arrives(at: "\(base)/meetings/\(id)"))
    let playing = try await browser.wait(
      Bool.self,
      """
      const audio = document.getElementById('player');
      audio.loop = true;
      audio.addEventListener('playing', () => done(JSON.stringify(!audio.paused)), { once: true });
      audio.play();
      """)
    #expect(playing)
    _ = try await browser.run(
      Bool.self, "document.querySelector('#s0 .at').focus(); return 'true';")
    try await browser.press("e")
    let editing = try await browser.run(
      String.self,
      """
      const input = document.querySelector('#s0 form.correcting input[name=text]');
      const value = input ? input.value : '';
      if (input) input.value = '';
      return JSON.stringify(value);
      """)
    #expect(editing == "hello world this is a short test")
    try await browser.type("hello world this is a short check", into: "#s0 form.correcting input")
    try await browser.press("\u{E007}")
    let shown = try await browser.wait(
      [String].self,
      """
      const look = () => {
        const recognised = document.querySelector('#s0 .recognised-text');
        if (!recognised) return setTimeout(look, 50);
        done(JSON.stringify([
          document.querySelector('#s0 .said').textContent, recognised.textContent,
          String(document.getElementById('player').paused),
          String(!!document.querySelector('#s0 form.correcting'))]));
      };
      look();
      """)
    #expect(
      shown == [
        "hello world this is a short check", "hello world this is a short test", "false", "false",
      ])
  }
}
