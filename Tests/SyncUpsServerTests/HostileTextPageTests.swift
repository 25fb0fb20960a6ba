import Foundation
import Hummingbird
import StandupDigest
import SyncUpsWire
import Testing

@testable import SyncUpsServer

/// Every page rendered with hostile text in every field that comes from data (the database, the
/// query, the form): the page has exactly the markup it has with plain words there, and the text
/// shows escaped. Rendered by the page functions directly (no server, no database).
struct HostileTextPageTests {
  static let hostile = [
    "<script>alert(1)</script>",
    #""><img src=x onerror=alert(1)>"#,
    "' onmouseover='alert(1)",
    "Tom & Jerry &amp; &lt;b&gt;",
    "</textarea></title></span></p><plaintext>",
    "control \u{0}\u{7}\u{8}\u{1b}[31m\u{7f}\u{85} chars",
    "ünïcødé ✓ 🎉 \u{202E}gnp.exe 日本語 e\u{301}",
    "<!-- --><![CDATA[ ]]><style>*{}</style>",
  ]

  /// Every page, with `text` in each field that comes from data.
  static func pages(_ text: String) -> [(name: String, html: String)] {
    let person = Person(id: 1, name: text, role: .reader)
    let date = Date(timeIntervalSince1970: 1_764_144_000)
    let syncUp = SyncUpSummary(
      id: UUID(), title: text, theme: text, duration: 300, attendees: [text, text], meetings: 2)
    let summary = MeetingSummary(id: UUID(), date: date, length: 75, segments: 3, firstWords: text)
    let hit = SearchHit(
      syncUp: text, meeting: text, date: date, speaker: text, start: 5, end: 7, text: text)
    // The database never returns the marks' delimiters inside the text it marks.
    let marked = "\u{1}" + text.filter { $0 != "\u{1}" && $0 != "\u{2}" } + "\u{2}"
    return [
      ("sync-ups", SyncUpsPage.list([syncUp], person: person)),
      (
        "meetings",
        SyncUpsPage.meetings(
          title: text, theme: text, syncUpID: syncUp.id,
          page: MeetingsPage(meetings: [summary], next: text),
          speakers: [summary.id: [text, text]],
          first: false, person: person)
      ),
      (
        "meeting",
        MeetingPage.render(meeting(text), title: text, theme: text, person: person, at: 5)
      ),
      (
        "search",
        SearchPage.render(query: text, hits: [hit], marked: [marked], problem: nil, person: person)
      ),
      (
        "search problem",
        SearchPage.render(query: text, hits: [], marked: [], problem: text, person: person)
      ),
      ("meeting with its digest", digestPage(text, person: person)),
      ("blockers", blockersPage(text, person: person)),
      ("sign-in", SignInPage.render(name: text, next: text, problem: text)),
      ("error", Pages.errorPage(.notFound, text, person: person)),
    ]
  }

  /// A meeting page whose digest has `text` as each person's name, phrase and named person.
  static func digestPage(_ text: String, person: Person) -> String {
    var who = DigestPerson(name: text)
    for question in DigestQuestion.allCases {
      who[question] = [
        DigestItem(
          question: question, text: text, segment: 2, time: 5, person: text, reason: text)
      ]
    }
    let digest = DigestSection.render(
      Digest(people: [who, DigestPerson(name: text)]), spoke: true)
    return MeetingPage.render(
      meeting(text), digest: digest, transcript: MeetingPage.transcript([], here: nil),
      title: text, theme: text, person: person, at: nil, speakers: [text])
  }

  /// The blockers page with `text` in every field: one open, one resolved, one closed by hand.
  static func blockersPage(_ text: String, person: Person) -> String {
    let date = Date(timeIntervalSince1970: 1_764_144_000)
    let moment = BlockerLog.Moment(meeting: text, date: date, segment: 2, time: 5, text: text)
    let entry = BlockerLog.Entry(syncUp: text, person: text, named: text, raised: moment)
    var resolved = entry
    resolved.resolved = moment
    let rows = [
      BlockersPage.Row(entry: entry, meeting: UUID(), title: text, closable: true, closed: nil),
      BlockersPage.Row(
        entry: resolved, meeting: UUID(), title: text, closable: true, closed: nil),
      BlockersPage.Row(
        entry: entry, meeting: UUID(), title: text, closable: false, closed: (text, date)),
    ]
    return BlockersPage.render(
      open: [rows[0]], closed: Array(rows.dropFirst()), since: text, from: date, more: true,
      person: person)
  }

  /// A meeting whose speakers, words, segment text and corrected original are all `text`.
  static func meeting(_ text: String) -> MeetingDocument {
    let word = MeetingDocument.Word(text: text, start: 5, end: 5.5)
    let segments = [
      MeetingDocument.Segment(speaker: text, start: 0, end: 4, text: text),
      MeetingDocument.Segment(
        speaker: text, start: 5, end: 6, text: text, words: [word, word],
        original: .init(speaker: text, text: text, words: [word])),
    ]
    return MeetingDocument(
      id: UUID(), syncUpID: UUID(), date: Date(timeIntervalSince1970: 1_764_144_000), length: 6,
      segments: segments,
      audio: .init(sha256: String(repeating: "a", count: 64), size: 10, type: "audio/flac"),
      clock: HybridClock(milliseconds: 1, device: "a1b2c3d4"))
  }

  /// How many times `piece` occurs in `text`'s UTF-8 (not its characters: a combining accent
  /// after a `>` makes one character of the two).
  static func count(_ piece: String, in text: String) -> Int {
    let (bytes, piece) = (Array(text.utf8), Array(piece.utf8))
    guard bytes.count >= piece.count else { return 0 }
    return (0...(bytes.count - piece.count)).count {
      bytes[$0..<$0 + piece.count].elementsEqual(piece)
    }
  }

  @Test(
    "every page shows hostile text as text, with the markup of the same page with plain words",
    arguments: hostile)
  func everyPageEscapesHostileText(_ text: String) {
    let plain = Self.pages("plain words")
    for ((name, html), (_, expected)) in zip(Self.pages(text), plain) {
      // Text adds no element, no attribute and no quote: every `<`, `>`, `"` and `'` on the
      // page is one the page's own markup has.
      for piece in ["<", ">", "\"", "'"] {
        #expect(
          Self.count(piece, in: html) == Self.count(piece, in: expected),
          "\(name): \(piece) with \(text.debugDescription)\n\(html)")
      }
      #expect(Self.count("<script", in: html) == Self.count("<script", in: expected), "\(name)")
      #expect(!html.contains("<img") && !html.contains("</textarea"), "\(name)")
      #expect(html.contains(HTML.escape(text)), "\(name): \(text.debugDescription) not shown")
    }
  }

  @Test func theScriptAndTheStylesComeOnlyFromTheServersOwnFiles() {
    for (name, html) in Self.pages("plain words") {
      #expect(!html.contains("<style"), "\(name)")
      #expect(!html.contains(" style="), "\(name)")
      #expect(
        html.range(of: #"\son[a-z]+="#, options: .regularExpression) == nil,
        "\(name) has an inline handler")
      let scripts = html.components(separatedBy: "<script").dropFirst()
      #expect(scripts.allSatisfy { $0.hasPrefix(" src=\"\(Assets.scriptPath)\" defer></script>") })
      #expect(html.contains("<link rel=\"stylesheet\" href=\"\(Assets.stylesheetPath)\">"))
    }
    let css = String(decoding: Assets.stylesheet, as: UTF8.self)
    for theme in Pages.themes {
      #expect(css.contains(".theme-\(theme){--theme:"), "no colours for the theme \(theme)")
    }
    #expect(String(decoding: Assets.script, as: UTF8.self).contains("aria-current"))
  }

  @Test func markupEscapesWhatIsPutIntoItAndKeepsItsLiterals() {
    let name = #"<b>"Ana" & 'Ben'</b>"#
    let markup: Markup = "<p title=\"\(name)\">\(name) at \(seconds: 75.5), \(clock: 3725)</p>"
    #expect(
      markup.description
        == "<p title=\"&lt;b&gt;&quot;Ana&quot; &amp; &#39;Ben&#39;&lt;/b&gt;\">"
        + "&lt;b&gt;&quot;Ana&quot; &amp; &#39;Ben&#39;&lt;/b&gt; at 75.50, 1:02:05</p>")
    var page: Markup = "<ul>"
    page += "<li>\(-42) \(0) \(Int.max)</li>"
    page += "\(markup)</ul>"
    #expect(page.description.hasPrefix("<ul><li>-42 0 9223372036854775807</li><p title="))
    let date = Date(timeIntervalSince1970: 1_764_144_000 + 3_723)
    let time: Markup = "\(time: date)"
    #expect(
      time.description == #"<time datetime="2025-11-26T09:02:03Z">2025-11-26 09:02 UTC</time>"#)
  }
}
