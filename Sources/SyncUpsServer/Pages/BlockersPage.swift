import Foundation
import StandupDigest
import SyncUpsWire

/// `/blockers?since=7d`: the open blockers of every sync-up the signed-in person reads, newest
/// first, with who raised them, when, and in which meeting (linking to that moment); a writer
/// of the blocker's team can close it by hand. Below, the blockers closed since then: by their
/// owner's words in a later meeting, or by hand.
enum BlockersPage {
  /// One blocker as the page shows it.
  struct Row: Sendable {
    var entry: BlockerLog.Entry
    var meeting: UUID
    var title: String
    /// Whether the person asking may close it (a writer of its team).
    var closable: Bool
    /// Who closed it by hand, and when.
    var closed: (by: String, at: Date)?
  }

  /// The default window, and the longest one `?since=` takes in days or weeks.
  static let defaultSince = "7d"
  static let longestDays = 366

  /// `?since=`: days or weeks back from `now` (`7d`, `2w`, at most a year), or a day
  /// (`2026-11-20`, from its midnight UTC); a 400 in words otherwise.
  static func since(_ text: String, now: Date = Date()) throws -> Date {
    let problem = APIError(
      .badRequest,
      "?since= takes days or weeks back (7d, 2w; at most \(longestDays)d) or a day "
        + "(2026-11-20), not '\(text.prefix(40))'")
    if let unit = text.last, unit == "d" || unit == "w", text.utf8.count <= 5 {
      guard let count = Int(text.dropLast()), count >= 0,
        count * (unit == "w" ? 7 : 1) <= longestDays
      else { throw problem }
      return now.addingTimeInterval(-Double(count * (unit == "w" ? 7 : 1)) * 86_400)
    }
    guard let date = TeamServer.date(text), text.utf8.count == 10 else { throw problem }
    return date
  }

  static func render(
    open: [Row], closed: [Row], since text: String, from: Date, more: Bool, person: Person
  ) -> String {
    var content: Markup = "<h1>Blockers</h1>\n"
    content += "<form class=\"since\" action=\"/blockers\" method=\"get\">"
    content += "<label for=\"since\">Since</label> <input id=\"since\" name=\"since\" "
    content += "value=\"\(text)\" size=\"10\" aria-describedby=\"since-hint\"> "
    content += "<button type=\"submit\">Show</button></form>\n"
    content += "<p class=\"hint\" id=\"since-hint\">Days or weeks back (<code>7d</code>, "
    content += "<code>2w</code>) or a day (<code>2026-11-20</code>).</p>\n"
    if more {
      content += "<p class=\"hint\" role=\"status\">Only the newest meetings since then are "
      content += "read (at most \(TeamStore.blockerMeetings), holding at most "
      content +=
        "\(TeamStore.blockerSegments) segments): give a later day to see all of theirs.</p>\n"
    }
    content += "<p class=\"meta\" role=\"status\">"
    content +=
      open.isEmpty
      ? "No open blockers" : open.count == 1 ? "1 open blocker" : "\(open.count) open blockers"
    content += " in the meetings since \(HTML.day(from)), newest first.</p>\n"
    content += "<ol class=\"blockers\" aria-label=\"Open blockers\">\n"
    for row in open { content += Self.row(row, since: text) }
    content += "</ol>\n"
    if !closed.isEmpty {
      content += "<h2>Closed</h2>\n<ol class=\"blockers closed\" aria-label=\"Closed blockers\">\n"
      for row in closed { content += Self.row(row, since: text) }
      content += "</ol>\n"
    }
    return Pages.page(title: "Blockers", person: person, content: content)
  }

  /// One blocker: who raised it, in which sync-up and when, the phrase linking to its moment;
  /// how it was closed, or the button that closes it.
  static func row(_ row: Row, since: String) -> Markup {
    let entry = row.entry
    let raised = entry.raised
    let meeting = row.meeting.uuidString.lowercased()
    var out: Markup = "<li class=\"card blocker\"><p class=\"meta\"><strong>\(entry.person)"
    out += "</strong> · \(row.title) · \(time: raised.date)</p>\n<p class=\"said\">"
    out += "<a href=\"/meetings/\(meeting)?t=\(seconds: raised.time)#s\(raised.segment - 1)\">"
    out += "\(raised.text)</a> <span class=\"meta\">at \(clock: raised.time)"
    if let named = entry.named { out += " · needs \(named)" }
    out += "</span></p>\n"
    if let resolved = entry.resolved {
      out += "<p class=\"meta\">Resolved by \(entry.person) on \(time: resolved.date): "
      out += "“\(resolved.text)”</p>"
    } else if let closed = row.closed {
      out += "<p class=\"meta\">Closed by hand by \(closed.by.isEmpty ? "someone" : closed.by) "
      out += "on \(time: closed.at)</p>"
    } else if row.closable {
      out += "<form action=\"/blockers/close\" method=\"post\">"
      out += "<input type=\"hidden\" name=\"meeting\" value=\"\(meeting)\">"
      out += "<input type=\"hidden\" name=\"segment\" value=\"\(raised.segment)\">"
      out += "<input type=\"hidden\" name=\"key\" value=\"\(BlockerClosure.key(of: raised.text))\">"
      out += "<input type=\"hidden\" name=\"since\" value=\"\(since)\">"
      out += "<button type=\"submit\" class=\"close\">Close</button></form>"
    }
    out += "</li>\n"
    return out
  }
}
