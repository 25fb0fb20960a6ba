import Foundation

/// How a digest is laid out for people to read. One layout, spelled three ways: the terminal's
/// text (`syncups digest`), Markdown (`syncups digest --format markdown`), and a chat message
/// (the team server's post to a Slack or Mattermost incoming webhook: `*bold*`, `•` bullets,
/// which both show alike).
public enum DigestStyle: Sendable {
  case text, markdown, chat
}

/// What a layout needs beside the digest itself.
public struct DigestPage: Sendable {
  /// The first line, as the reader sees it (already made safe by `show`'s caller).
  public var heading: String
  /// Whether the meeting has any segment (else: no speech was recognised).
  public var hasSpeech: Bool
  /// The attendees who said nothing, in the sync-up's order.
  public var silent: [String]

  public init(heading: String, hasSpeech: Bool, silent: [String]) {
    self.heading = heading
    self.hasSpeech = hasSpeech
    self.silent = silent
  }

  /// The attendees of `attendees` whose name no segment's speaker has (any case).
  public static func silent(_ attendees: [String], speakers: [String]) -> [String] {
    let spoke = Set(speakers.map { $0.lowercased() })
    return attendees.filter { !spoke.contains($0.lowercased()) }
  }
}

extension Digest {
  /// The digest laid out in `style`. `show` makes a name or an item safe for where it goes
  /// (the terminal's control characters, chat's markup); `clock` writes a time in the meeting.
  public func rendered(
    _ style: DigestStyle, page: DigestPage, show: (String) -> String,
    clock: (Double) -> String = Digest.clock
  ) -> String {
    var out: String
    switch style {
    case .text: out = page.heading + "\n\n"
    case .markdown: out = "# " + page.heading + "\n\n"
    case .chat: out = "*" + page.heading + "*\n\n"
    }
    if !page.hasSpeech {
      out += "No speech was recognised in this meeting.\n"
    } else if people.isEmpty {
      out += "No segment of this meeting names its speaker.\n"
    }
    for person in people {
      switch style {
      case .text: out += show(person.name) + "\n"
      case .markdown: out += "## " + show(person.name) + "\n\n"
      case .chat: out += "*" + show(person.name) + "*\n"
      }
      for question in DigestQuestion.allCases {
        out += Self.lines(person[question], question, style, show: show, clock: clock)
      }
      out += style == .markdown ? "" : "\n"
    }
    if !page.silent.isEmpty {
      out += "Nothing heard from: " + page.silent.map(show).joined(separator: ", ") + "\n"
    }
    return out.hasSuffix("\n\n") ? String(out.dropLast()) : out
  }

  private static func lines(
    _ items: [DigestItem], _ question: DigestQuestion, _ style: DigestStyle,
    show: (String) -> String, clock: (Double) -> String
  ) -> String {
    let title = question.rawValue.capitalized
    if items.isEmpty {
      switch style {
      case .text: return "  \(title): nothing found\n"
      case .markdown: return "**\(title)**: nothing found\n\n"
      case .chat: return "\(title): nothing found\n"
      }
    }
    var out: String
    switch style {
    case .text: out = "  \(title):\n"
    case .markdown: out = "**\(title)**\n\n"
    case .chat: out = "\(title):\n"
    }
    let bullet = ["    - ", "- ", "• "][style == .text ? 0 : style == .markdown ? 1 : 2]
    for item in items {
      let named = item.person.map { " (\(show($0)))" } ?? ""
      let place = "[\(clock(item.time)), segment \(item.segment)]"
      out += bullet + "\(show(item.text))\(named) \(place)\n"
    }
    return style == .markdown ? out + "\n" : out
  }

  /// `mm:ss`, or `h:mm:ss` from an hour on: a time in the meeting (a value that is no number,
  /// or below 0, is 0).
  public static func clock(_ seconds: Double) -> String {
    let bounded = seconds.isFinite ? min(max(seconds, 0), 1e9) : 0
    let total = Int(bounded.rounded(.down))
    let (h, m, s) = (total / 3600, total / 60 % 60, total % 60)
    func pad(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
    return h > 0 ? "\(h):\(pad(m)):\(pad(s))" : "\(pad(m)):\(pad(s))"
  }
}
