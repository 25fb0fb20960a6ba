import Architecture
import Foundation
import SyncUpsFeatures

/// `/` from the list: the query being typed, then the hits (best first), two lines each: where
/// (sync-up, date, time in the meeting, speaker) and what was said, the matches in bold.
public struct SearchScreen {
  public var state: TranscriptSearchFeature.State
  /// The terminal's columns and rows, at least 1 each.
  public var width: Int, height: Int

  public init(state: TranscriptSearchFeature.State, width: Int = 80, height: Int = 24) {
    self.state = state
    (self.width, self.height) = (max(width, 1), max(height, 1))
  }

  public var lines: [String] {
    let header = [
      ANSI.bold + " Search what was said" + ANSI.reset,
      " / " + state.query.visible + "▏",
      status,
      "",
    ]
    let footer = [
      "", Text.hint("type to search · ↑↓ select · enter open · esc back", width: width),
    ]
    let rows = state.hits.enumerated().flatMap { index, hit in
      self.rows(hit, selected: index == state.selection)
    }
    return Text.pairs(
      header: header, rows: rows, selection: state.selection, footer: footer, columns: width,
      rows: height)
  }

  /// What the search found, or why there is nothing to show.
  var status: String {
    if let problem = state.problem {
      return ANSI.red + " " + problem.visible + ANSI.reset
    }
    if state.isSearching { return ANSI.dim + " searching…" + ANSI.reset }
    if !TranscriptSearch(state.query).hasTerms {
      return ANSI.dim + " words, prefixes (migr*) or \"a phrase\", in every meeting"
        + ANSI.reset
    }
    if state.hits.isEmpty { return " nothing said matches" }
    let more = state.hits.count == TranscriptSearchFeature.limit ? " (the best)" : ""
    return state.hits.count == 1 ? " 1 match" : " \(state.hits.count) matches\(more)"
  }

  private func rows(_ hit: TranscriptSearchHit, selected: Bool) -> [String] {
    let place = [
      hit.syncUpTitle.visible, Format.date(hit.date), Format.clock(hit.start),
      hit.speaker.visible,
    ].joined(separator: " · ")
    let head = (selected ? " › " : "   ") + place
    let text = "     " + SearchOutput.marked(Self.nearMatch(hit.text, room: width - 5), bold: true)
    return [selected ? ANSI.bold + head + ANSI.reset : head, text]
  }

  /// The text from a few words before its first match when the match would be beyond `room`
  /// columns, so the match shows.
  static func nearMatch(_ text: String, room: Int) -> String {
    guard let mark = text.range(of: TranscriptSearchHit.marks.open) else { return text }
    let before = text[..<mark.lowerBound]
    guard before.columns > room / 2 else { return text }
    var words = before.split(separator: " ", omittingEmptySubsequences: false)
    while words.count > 1, words.joined(separator: " ").columns > room / 3 {
      words.removeFirst()
    }
    return "…" + words.joined(separator: " ") + text[mark.lowerBound...]
  }
}
