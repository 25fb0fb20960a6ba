import Foundation
import StandupDigest

/// The digest at the top of a meeting's page: per person who spoke, what they did, will do and
/// are blocked on, each item the phrase said, linking to its moment (`?t=SECONDS#sN`, the
/// segment it came from: without the script the page opens there with the audio at that time;
/// with it, a click seeks the player). The same for everyone who reads the meeting
/// (`MeetingPageCache` keeps it with the transcript's version and the attendees).
enum DigestSection {
  static let headings: [(DigestQuestion, StaticString)] = [
    (.yesterday, "Yesterday"), (.today, "Today"), (.blockers, "Blockers"),
  ]

  static func render(_ digest: Digest, spoke: Bool) -> Markup {
    var out: Markup =
      "<section class=\"digest card\" id=\"digest\" aria-labelledby=\"digest-title\">"
    out += "<h2 id=\"digest-title\">Digest</h2>\n"
    if !spoke {
      out += "<p class=\"hint\">Nothing was said in this meeting, so it has no digest.</p>"
      out += "</section>\n"
      return out
    }
    if digest.people.isEmpty || digest.isEmpty {
      out += "<p class=\"hint\">Nobody said here what they did, what they will do or what "
      out += "blocks them, in words the digest knows (see the transcript below).</p>"
      out += "</section>\n"
      return out
    }
    for person in digest.people where !person.isEmpty {
      out += "<div class=\"digest-person\"><h3>\(person.name)</h3>\n<dl>"
      for (question, title) in headings {
        var heading = Markup()
        heading.append(title)
        out += "<dt>\(heading)</dt>"
        let items = person[question]
        if items.isEmpty { out += "<dd class=\"none\">Nothing said.</dd>" }
        for item in items { out += Self.item(item) }
      }
      out += "</dl></div>\n"
    }
    let silent = digest.people.filter(\.isEmpty).map(\.name)
    if !silent.isEmpty {
      out += "<p class=\"hint\">Nothing the digest takes from "
      out += "\(silent.joined(separator: ", ")).</p>"
    }
    out += "</section>\n"
    return out
  }

  /// One item: its phrase linking to its moment, the time, and whom a blocker names.
  static func item(_ item: DigestItem) -> Markup {
    var out: Markup =
      "<dd><a class=\"moment\" href=\"?t=\(seconds: item.time)#s\(item.segment - 1)\" "
    out += "data-start=\"\(seconds: item.time)\">\(item.text)</a> "
    out += "<span class=\"meta\">\(clock: item.time)"
    if let person = item.person { out += " · needs \(person)" }
    out += "</span></dd>"
    return out
  }
}
