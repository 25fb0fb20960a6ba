import Foundation
import SyncUpsFeatures
import Testing

@testable import SyncUpsCLI

/// The search screen and the search command's lines are pure functions of their inputs.
@Suite("Search screen and output")
struct SearchScreenTests {
  static func hit(_ segment: Int, text: String, title: String = "Morning Sync")
    -> TranscriptSearchHit
  {
    TranscriptSearchHit(
      syncUpID: SyncUp.ID(UUID()), syncUpTitle: title, meetingID: Meeting.ID(UUID()),
      date: Date(timeIntervalSince1970: 1_790_000_000), segment: segment, speaker: "Ana",
      start: Double(segment) * 61, end: Double(segment) * 61 + 4, text: text)
  }

  func plain(_ lines: [String]) -> [String] {
    lines.map {
      $0.replacingOccurrences(
        of: "\u{1B}\\[[0-9;?]*[A-Za-z]", with: "", options: .regularExpression)
    }
  }

  @Test func anEmptyQuerySaysWhatCanBeTyped() {
    let lines = plain(SearchScreen(state: TranscriptSearchFeature.State()).lines)
    #expect(lines[0] == " Search what was said")
    #expect(lines[1] == " / ▏")
    #expect(lines[2].contains("prefixes (migr*)"))
    #expect(lines.count == 24)
    #expect(lines.last?.contains("enter open · esc back") == true)
  }

  @Test func hitsShowWhereAndWhatTheSelectedOneMarked() {
    let state = TranscriptSearchFeature.State(
      query: "staging",
      hits: [
        Self.hit(1, text: "the \u{E000}staging\u{E001} server"),
        Self.hit(2, text: "\u{E000}staging\u{E001} is slow", title: "Platform"),
      ],
      selection: 1)
    let screen = SearchScreen(state: state, width: 80, height: 24).lines
    let lines = plain(screen)
    #expect(lines[2] == " 2 matches")
    #expect(lines[4].hasPrefix("   Morning Sync · ") && lines[4].hasSuffix(" · 01:01 · Ana"))
    #expect(lines[5] == "     the staging server")
    #expect(lines[6].hasPrefix(" › Platform · "))
    // The match is bold (and the rest of the line is not).
    #expect(screen[5] == "     the " + ANSI.bold + "staging" + ANSI.reset + " server")
  }

  @Test func theSelectionScrollsIntoView() {
    let hits = (0..<30).map { Self.hit($0, text: "hit number \($0) \u{E000}x\u{E001}") }
    let state = TranscriptSearchFeature.State(query: "x", hits: hits, selection: 25)
    let lines = plain(SearchScreen(state: state, width: 80, height: 24).lines)
    #expect(lines.count == 24)
    #expect(lines.contains { $0.hasPrefix(" › ") })
    #expect(lines.contains("     hit number 25 x"))
    #expect(!lines.contains("     hit number 0 x"))
  }

  @Test func noMatchesAndFailuresAreSaid() {
    let none = TranscriptSearchFeature.State(query: "kubernetes")
    #expect(plain(SearchScreen(state: none).lines)[2] == " nothing said matches")
    let busy = TranscriptSearchFeature.State(query: "kube", isSearching: true)
    #expect(plain(SearchScreen(state: busy).lines)[2] == " searching…")
    let failed = TranscriptSearchFeature.State(query: "x", problem: "the database is locked")
    #expect(plain(SearchScreen(state: failed).lines)[2] == " the database is locked")
  }

  @Test func aMatchFarIntoALongSegmentStillShows() {
    let long = (0..<40).map { "word\($0)" }.joined(separator: " ")
    let text = SearchScreen.nearMatch(long + " \u{E000}found\u{E001} end", room: 60)
    #expect(text.hasPrefix("…"))
    #expect(text.hasSuffix("\u{E000}found\u{E001} end"))
    #expect(text.count < 60)
    #expect(
      SearchScreen.nearMatch("short \u{E000}x\u{E001}", room: 60) == "short \u{E000}x\u{E001}")
  }

  @Test func commandLinesMarkMatchesAndShowControlCharacters() {
    let hit = Self.hit(1, text: "the \u{E000}staging\u{E001} \u{1B}[31mserver")
    #expect(SearchOutput.marked(hit.text, bold: false) == "the [staging] ␛[31mserver")
    #expect(
      SearchOutput.marked(hit.text, bold: true)
        == "the " + ANSI.bold + "staging" + ANSI.reset + " ␛[31mserver")
    #expect(
      SearchOutput.line(hit, bold: false).hasSuffix(" · 01:01 · Ana: the [staging] ␛[31mserver\n"))
    // JSON keeps the text exactly, without marks, escaped.
    #expect(SearchOutput.json(hit).contains(#""text":"the staging \u001b[31mserver"}"#))
  }
}
