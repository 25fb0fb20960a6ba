import Crypto
import Foundation
import Hummingbird
import HummingbirdTesting
import SyncUpsWire
import Testing

@testable import SyncUpsServer

/// The web pages through the router (no socket): every page's HTML, every error page, sign-in,
/// sessions and escaping. The browser tests (WebBrowserTests) drive the same pages in Chromium.
@Suite(
  .enabled(
    if: TestPostgres.available,
    "skipped: no PostgreSQL for the server's tests (.ci/postgres could not start one)"))
struct WebPageTests {
  @Test func oneEscapingFunctionEscapesEverythingHTMLReads() {
    #expect(HTML.escape("Team <b>Standup</b>") == "Team &lt;b&gt;Standup&lt;/b&gt;")
    #expect(HTML.escape(#"a "quoted" & 'single'"#) == "a &quot;quoted&quot; &amp; &#39;single&#39;")
    #expect(HTML.escape("plain words, é ✓") == "plain words, é ✓")
    #expect(
      SearchPage.mark("the \u{1}staging\u{2} <server>") == "the <mark>staging</mark> &lt;server&gt;"
    )
    #expect(
      HTML.seconds(12.345) == "12.35" && HTML.seconds(0.05) == "0.05" && HTML.seconds(3) == "3.00")
    #expect(HTML.clock(75) == "1:15" && HTML.clock(3725) == "1:02:05")
  }

  @Test func signedOutVisitorsAreSentToSignInAndTheAudioIsRefused() async throws {
    let server = try await TestServer.make()
    let (_, meeting) = try await server.pushMeeting()
    try await server.test { http, _ in
      for path in ["/", "/sync-ups/\(UUID())", "/meetings/\(meeting.id)", "/search?q=staging"] {
        let response = try await http.send(.get, path, token: nil)
        #expect(response.status == .seeOther, "\(path)")
        let location = response.headers[.location] ?? ""
        #expect(location.hasPrefix("/sign-in?next=%2F"), "\(path): \(location)")
      }
      let audio = try await http.send(.get, "/audio/\(meeting.id)", token: nil)
      #expect(audio.status == .unauthorized)
      #expect(audio.errorMessage?.contains("sign in") == true)
      let stale = try await http.send(
        .get, "/audio/\(meeting.id)", token: nil, headers: [.cookie: "syncups_session=sus_nope"])
      #expect(stale.status == .unauthorized)
      let page = try await http.send(.get, "/sign-in?next=%2Fsearch%3Fq%3Dx", token: nil)
      #expect(page.status == .ok)
      #expect(page.text.contains(#"name="next" value="/search?q=x""#))
      #expect(page.text.contains(#"<label for="password">Password</label>"#))
      // Somewhere else is never where signing in leads.
      #expect(SignInPage.safeNext("//evil.example/") == "/")
      #expect(SignInPage.safeNext("https://evil.example/") == "/")
      #expect(SignInPage.safeNext("/meetings/x?t=3") == "/meetings/x?t=3")
    }
  }

  @Test func signingInGivesAnHttpOnlyStrictExpiringCookieAndSigningOutEndsIt() async throws {
    let server = try await TestServer.make()
    let (_, meeting) = try await server.pushMeeting()
    try await server.store { try await $0.setPassword(name: "Ana", password: "correct horse") }
    try await server.test { http, store in
      let wrong = try await http.signIn("ana", "wrong password")
      let unknown = try await http.signIn("nobody", "correct horse")
      let blank = try await http.signIn("ben", "correct horse")  // Ben has no password
      for response in [wrong, unknown, blank] {
        #expect(response.status == .unauthorized)
        #expect(response.text.contains(SignInPage.failure))
        #expect(response.headers[.setCookie] == nil)
      }
      // The same page whether the name exists or not (but for the name typed back).
      #expect(
        wrong.text.replacingOccurrences(of: "value=\"ana\"", with: "")
          == unknown.text.replacingOccurrences(of: "value=\"nobody\"", with: ""))

      let signedIn = try await http.signIn("ANA", "correct horse", next: "/meetings/\(meeting.id)")
      #expect(signedIn.status == .seeOther)
      #expect(signedIn.headers[.location] == "/meetings/\(meeting.id)")
      let cookie = try #require(signedIn.headers[.setCookie])
      #expect(cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict"))
      #expect(cookie.contains("Max-Age=1209600") && cookie.contains("Path=/"))
      let session = String(cookie.split(separator: ";")[0])
      let token = String(session.dropFirst("syncups_session=".count))
      // Only the token's hash is kept.
      let kept = try await store.client.query("SELECT hash FROM web_session").all(Data.self)
      #expect(kept == [Data(SHA256.hash(data: Data(token.utf8)))])

      let page = try await http.send(.get, "/", token: nil, headers: [.cookie: session])
      #expect(page.status == .ok)
      #expect(page.text.contains("<span>Ana</span>"))
      let audio = try await http.send(
        .get, "/audio/\(meeting.id)", token: nil, headers: [.cookie: session])
      #expect(audio.status == .ok)

      let out = try await http.send(
        .post, "/sign-out", token: nil, headers: [.cookie: session, .origin: TestServer.origin])
      #expect(out.status == .seeOther && out.headers[.location] == "/sign-in")
      #expect(out.headers[.setCookie]?.contains("Max-Age=0") == true)
      let after = try await http.send(.get, "/", token: nil, headers: [.cookie: session])
      #expect(after.status == .seeOther)
    }
  }

  @Test func failedSignInsInARowWaitLongerPerNameAndPerAddress() async {
    let throttle = SignInThrottle(first: .milliseconds(500), longest: .seconds(4))
    let ana = SignInThrottle.keys(name: "Ana", address: "10.0.0.1")
    #expect(await throttle.delay(for: ana) == .zero)
    var delays: [Duration] = []
    for _ in 0..<5 {
      await throttle.failed(ana)
      delays.append(await throttle.delay(for: ana))
    }
    #expect(delays == [.milliseconds(500), .seconds(1), .seconds(2), .seconds(4), .seconds(4)])
    // The same name from elsewhere, and other names from the same address, wait too.
    #expect(
      await throttle.delay(for: SignInThrottle.keys(name: "ana", address: "10.0.0.2")) > .zero)
    #expect(
      await throttle.delay(for: SignInThrottle.keys(name: "cleo", address: "10.0.0.1")) > .zero)
    #expect(
      await throttle.delay(for: SignInThrottle.keys(name: "cleo", address: "10.0.0.2")) == .zero)
    // Forgotten after a while.
    #expect(await throttle.delay(for: ana, now: .now + .seconds(901)) == .zero)
  }

  @Test func theSyncUpsAndTheMeetingsPagesShowWhatWasSynced() async throws {
    let server = try await TestServer.make()
    let (syncUp, meeting) = try await server.pushMeeting(title: "Team <b>Standup</b>")
    try await server.test { http, _ in
      let list = try await http.send(.get, "/", token: server.readerToken)
      #expect(list.status == .ok)
      #expect(list.headers[.contentType] == "text/html; charset=utf-8")
      #expect(list.headers[.contentSecurityPolicy]?.contains("script-src 'self'") == true)
      #expect(list.text.contains("Team &lt;b&gt;Standup&lt;/b&gt;"))
      #expect(!list.text.contains("<b>Standup"))
      #expect(list.text.contains("theme-teal"))
      #expect(list.text.contains("1 meeting"))
      #expect(list.text.contains("Ana, Ben"))
      #expect(list.text.contains(#"<form class="search" role="search" action="/search""#))

      let meetings = try await http.send(.get, "/sync-ups/\(syncUp.id)", token: server.readerToken)
      #expect(meetings.status == .ok)
      #expect(meetings.text.contains("<title>Team &lt;b&gt;Standup&lt;/b&gt; · SyncUps</title>"))
      #expect(
        meetings.text.contains(
          #"<time datetime="2025-11-26T08:00:00Z">2025-11-26 08:00 UTC</time>"#))
      #expect(meetings.text.contains("Ana, Ben"))
      #expect(meetings.text.contains("“it has been very slow since monday…”"))
      #expect(meetings.text.contains("href=\"/meetings/\(meeting.id.uuidString.lowercased())\""))
      #expect(!meetings.text.contains("Older meetings"))
    }
  }

  @Test func meetingsArePagedTwentyAtATime() async throws {
    let server = try await TestServer.make()
    let syncUp = Fixture.syncUp()
    let meetings = (0..<23).map { day in
      Fixture.meeting(
        in: syncUp.id, said: [("Ana", "day \(day)")],
        date: Date(timeIntervalSince1970: 1_764_144_000 + Double(day) * 86_400))
    }
    try await server.test { http, _ in
      let pushed = try await http.push(
        Push(device: UUID(), pushID: UUID(), syncUps: [syncUp], meetings: meetings),
        token: server.writerToken)
      #expect(pushed.status == .ok)
      let first = try await http.send(.get, "/sync-ups/\(syncUp.id)", token: server.readerToken)
      #expect(first.text.components(separatedBy: "<li class=\"card\">").count - 1 == 20)
      #expect(first.text.contains("“day 22…”") && !first.text.contains("“day 2…”"))
      let older = try #require(
        first.text.range(of: #"href="([^"]*before=[^"]*)""#, options: .regularExpression)
      ).lowerBound
      let link = first.text[older...].dropFirst(6).prefix { $0 != "\"" }
        .replacingOccurrences(of: "&amp;", with: "&")
      let second = try await http.send(.get, link, token: server.readerToken)
      #expect(second.status == .ok)
      #expect(second.text.components(separatedBy: "<li class=\"card\">").count - 1 == 3)
      #expect(second.text.contains("“day 0…”") && second.text.contains(">Newest</a>"))
    }
  }

  @Test func theMeetingPageHasEveryWordTimedTheAudioCaptionsAndDownloads() async throws {
    let server = try await TestServer.make()
    let (_, meeting) = try await server.pushMeeting(title: "Team <b>Standup</b>")
    let id = meeting.id.uuidString.lowercased()
    try await server.test { http, _ in
      let page = try await http.send(.get, "/meetings/\(meeting.id)", token: server.readerToken)
      #expect(page.status == .ok)
      let html = page.text
      let words = meeting.segments.flatMap(\.words)
      #expect(html.components(separatedBy: "<span data-start=").count - 1 == words.count)
      #expect(html.contains(#"<span data-start="5.50" data-end="5.90">staging</span>"#))
      #expect(
        html.contains(
          #"<strong>Ben</strong> <a class="at" href="?t=5.00#s1" data-start="5.00">0:05</a>"#))
      #expect(
        html.contains("<audio id=\"player\" controls preload=\"metadata\" src=\"/audio/\(id)\""))
      #expect(html.contains("<track kind=\"captions\" src=\"/meetings/\(id)/transcript.vtt\""))
      #expect(html.contains(Assets.scriptPath) && html.contains(Assets.stylesheetPath))
      for format in ["txt", "srt", "vtt", "json"] {
        #expect(html.contains("href=\"/meetings/\(id)/transcript.\(format)\""))
      }
      #expect(html.contains("download=\"team-b-standup-b-2025-11-26.flac\""))
      #expect(!html.contains("aria-current"), "only the script marks the word being said")
      #expect(!html.contains("segment here"))

      // ?t= starts the audio there (a media fragment) and marks that segment.
      let at = try await http.send(.get, "/meetings/\(meeting.id)?t=6.5", token: server.readerToken)
      #expect(at.text.contains("src=\"/audio/\(id)#t=6.50\""))
      #expect(at.text.contains(#"<li class="segment here" id="s1">"#))

      let txt = try await http.send(
        .get, "/meetings/\(id)/transcript.txt", token: server.readerToken)
      #expect(txt.text.hasPrefix("[0:00 - 0:04] Ana: it has been very slow since monday\n"))
      #expect(txt.headers[.contentDisposition]?.contains("team-b-standup-b-2025-11-26.txt") == true)
      let vtt = try await http.send(
        .get, "/meetings/\(id)/transcript.vtt", token: server.readerToken)
      #expect(vtt.headers[.contentType] == "text/vtt; charset=utf-8")
      #expect(vtt.text.hasPrefix("WEBVTT\n\n00:00:00.000 --> 00:00:04.000\nAna: it has been"))
      let srt = try await http.send(
        .get, "/meetings/\(id)/transcript.srt", token: server.readerToken)
      #expect(srt.text.hasPrefix("1\n00:00:00,000 --> 00:00:04,000\nAna: it has been"))
      let json = try await http.send(
        .get, "/meetings/\(id)/transcript.json", token: server.readerToken)
      let object =
        try JSONSerialization.jsonObject(with: Data(json.body.readableBytesView)) as? [String: Any]
      #expect(
        Set(object?.keys.map { $0 } ?? []) == ["syncUp", "meeting", "date", "text", "segments"])
      #expect(object?["syncUp"] as? String == "Team <b>Standup</b>")

      let css = try await http.send(.get, Assets.stylesheetPath, token: nil)
      #expect(css.status == .ok && css.headers[.contentType] == "text/css; charset=utf-8")
      let js = try await http.send(.get, Assets.scriptPath, token: nil)
      #expect(js.status == .ok && js.text.contains("aria-current"))
    }
  }

  @Test func searchMarksTheMatchAndLinksToThatMoment() async throws {
    let server = try await TestServer.make()
    let (_, meeting) = try await server.pushMeeting(title: "Team <b>Standup</b>")
    try await server.test { http, _ in
      let page = try await http.send(
        .get, "/search?q=%22staging%20server%22", token: server.readerToken)
      #expect(page.status == .ok)
      let html = page.text
      #expect(html.contains("1 match for “&quot;staging server&quot;”."))
      #expect(html.contains(#"value="&quot;staging server&quot;""#))
      #expect(html.contains("the <mark>staging</mark> <mark>server</mark> is down again"))
      #expect(html.contains("href=\"/meetings/\(meeting.id.uuidString.lowercased())?t=5.00\""))
      #expect(html.contains("Team &lt;b&gt;Standup&lt;/b&gt; · <time"))
      #expect(html.contains("<strong>Ben</strong> at 0:05"))
      // Stems and prefixes are marked as the search matched them.
      let stems = try await http.send(.get, "/search?q=servers+migr*", token: server.readerToken)
      #expect(stems.text.contains("<mark>migrate</mark> the logs to the new <mark>server</mark>"))
      let none = try await http.send(.get, "/search?q=kubernetes", token: server.readerToken)
      #expect(none.status == .ok && none.text.contains("Nothing matches “kubernetes”."))
      let empty = try await http.send(.get, "/search", token: server.readerToken)
      #expect(empty.status == .ok && empty.text.contains("a phrase in quotes"))
    }
  }

  @Test func everyErrorIsAPageInWords() async throws {
    let server = try await TestServer.make()
    let (syncUp, meeting) = try await server.pushMeeting()
    try await server.test { http, _ in
      for (path, status, words) in [
        ("/meetings/\(UUID())", HTTPResponse.Status.notFound, "There is no meeting"),
        ("/meetings/not-an-id", .badRequest, "is not an id"),
        ("/meetings/\(meeting.id)?t=soon", .badRequest, "?t= takes seconds"),
        ("/meetings/\(meeting.id)?t=-3", .badRequest, "?t= takes seconds"),
        (
          "/meetings/\(meeting.id)/transcript.doc", .notFound, "transcript.txt, .srt, .vtt or .json"
        ),
        ("/sync-ups/\(UUID())", .notFound, "There is no sync-up"),
        ("/sync-ups/\(syncUp.id)?before=yesterday", .badRequest, "start again from the newest"),
        ("/search?q=%22unclosed", .badRequest, "a quote is not closed"),
        ("/search?q=a+%26+b", .badRequest, "is query syntax"),
        ("/search?q=x&since=someday", .badRequest, "?since= takes a day"),
        ("/nothing/here", .notFound, "There is no GET /nothing/here here"),
      ] {
        let response = try await http.send(.get, path, token: server.readerToken)
        #expect(response.status == status, "\(path)")
        #expect(response.headers[.contentType] == "text/html; charset=utf-8", "\(path)")
        #expect(response.text.contains(HTML.escape(words)), "\(path): \(response.text)")
        #expect(response.text.contains("<!doctype html>"), "\(path)")
      }
      let asset = try await http.send(.get, "/assets/app-000.css", token: nil)
      #expect(asset.status == .notFound)
      // The API keeps its JSON errors.
      let api = try await http.send(.get, "/api/v1/meetings/\(UUID())", token: server.readerToken)
      #expect(api.errorMessage?.contains("there is no meeting") == true)
    }
  }
}

extension TestServer {
  /// A sync-up and a meeting of three segments, with 1,000 bytes of audio, pushed by Ana.
  func pushMeeting(title: String = "Morning Sync") async throws -> (SyncUpDocument, MeetingDocument)
  {
    let audio = Data((0..<1000).map { UInt8($0 % 251) })
    let sha = SHA256.hash(data: audio).map { String(format: "%02x", $0) }.joined()
    let syncUp = Fixture.syncUp(title: title)
    let meeting = Fixture.meeting(
      in: syncUp.id,
      said: [
        ("Ana", "it has been very slow since monday"),
        ("Ben", "the staging server is down again"),
        ("Ana", "we should migrate the logs to the new server"),
      ],
      audio: .init(sha256: sha, size: Int64(audio.count), type: "audio/flac"))
    try await test { http, _ in
      let upload = try await http.send(
        .put, "/api/v1/audio/\(sha)", token: writerToken, body: audio)
      #expect(upload.status == .created)
      let pushed = try await http.push(
        Push(device: UUID(), pushID: UUID(), syncUps: [syncUp], meetings: [meeting]),
        token: writerToken)
      #expect(pushed.status == .ok)
    }
    return (syncUp, meeting)
  }
}

extension TestServer {
  /// The origin of the test client's requests (their `Host` is `localhost`).
  static let origin = "http://localhost"
}

extension TestClientProtocol {
  /// The sign-in form, posted from the server's own page unless `headers` say otherwise.
  func signIn(
    _ name: String, _ password: String, next: String = "/",
    headers: HTTPFields = [.origin: TestServer.origin]
  ) async throws -> TestResponse {
    let body =
      "name=\(HTML.queryValue(name))&password=\(HTML.queryValue(password))&next=\(HTML.queryValue(next))"
    var headers = headers
    headers[.contentType] = "application/x-www-form-urlencoded"
    return try await send(.post, "/sign-in", token: nil, headers: headers, body: Data(body.utf8))
  }
}
