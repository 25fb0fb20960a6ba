import Architecture
import Foundation
import SyncUpsFeatures

/// `b` from the list: the team's open blockers of the last week, newest first, two lines each:
/// where (its id, date, sync-up, who raised it, whom it names) and what was said. `c` closes
/// the selected one by hand, as `syncups blockers close` does.
public struct BlockersScreen {
  public var state: TeamBlockers.State
  /// The terminal's columns and rows, at least 1 each.
  public var width: Int, height: Int

  public init(state: TeamBlockers.State, width: Int = 80, height: Int = 24) {
    self.state = state
    (self.width, self.height) = (max(width, 1), max(height, 1))
  }

  public var lines: [String] {
    let header = [
      ANSI.bold + " Open blockers since \(Format.date(state.since))" + ANSI.reset, status, "",
    ]
    let footer = ["", Text.hint("↑↓ select · c close it · esc back", width: width)]
    let rows = state.board.open.enumerated().flatMap { index, blocker in
      self.rows(blocker, selected: index == state.selection)
    }
    return Text.pairs(
      header: header, rows: rows, selection: state.selection, footer: footer, columns: width,
      rows: height)
  }

  /// What was read or closed, or why nothing shows.
  var status: String {
    if let problem = state.problem { return ANSI.red + " " + problem.visible + ANSI.reset }
    if state.isLoading && !state.isShown { return ANSI.dim + " reading…" + ANSI.reset }
    switch state.closing {
    case .closed(let blocker)?:
      return " Closed \(blocker.id): 'syncups sync' takes it to the team."
    case .alreadyClosed(let blocker)?:
      return " \(blocker.id) was closed already."
    case nil:
      break
    }
    let open = state.board.open.count
    let more = [
      (state.board.resolved.count, "resolved"), (state.board.closed.count, "closed by hand"),
    ].filter { $0.0 > 0 }.map { "\($0.0) \($0.1)" }
    let counts = open == 0 ? " No open blockers" : " \(Format.count(open, "open blocker"))"
    return counts + (more.isEmpty ? "" : " · " + more.joined(separator: " · "))
  }

  private func rows(_ blocker: Blocker, selected: Bool) -> [String] {
    let entry = blocker.entry
    let named = entry.named.map { " → " + $0.visible } ?? ""
    let place = [
      blocker.id, Format.date(entry.raised.date), entry.syncUp.visible,
      entry.person.visible + named,
    ].joined(separator: " · ")
    let head = (selected ? " › " : "   ") + place
    return [selected ? ANSI.bold + head + ANSI.reset : head, "     " + entry.raised.text.visible]
  }
}
