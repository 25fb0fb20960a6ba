import Foundation
import StandupDigest
import SyncUpsWire

/// The message a meeting's digest becomes in the team's chat: `{"text": "..."}`, which both
/// Slack's and Mattermost's incoming webhooks take, laid out by `StandupDigest`'s chat style
/// (the same layout `syncups digest` prints).
struct ChatPost: Encodable, Equatable {
  var text: String

  /// The longest text posted, in characters: Mattermost takes 16,383 at most (Slack 40,000);
  /// a longer digest is cut at a line, saying how many lines were left out.
  static let longest = 12_000

  init(_ found: MeetingDigest, syncUp title: String, team: String) {
    let heading =
      "Digest of \(Self.show(title)): \(Self.date(found.date)) (team \(Self.show(team)))"
    let page = DigestPage(
      heading: heading, hasSpeech: !found.speakers.isEmpty,
      silent: DigestPage.silent(found.attendees, speakers: found.speakers))
    text = Self.bounded(found.digest.rendered(.chat, page: page, show: Self.show))
  }

  /// The JSON the webhook is sent.
  func json() throws -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return try encoder.encode(self)
  }

  /// Text from the data (titles, names, what was said) made inert in a chat message: no
  /// control character breaks a line; `&`, `<` and `>` are escaped as Slack asks (so no
  /// `<!channel>` or `<URL|link>` is obeyed, and Mattermost reads Slack's form); an `@` before
  /// a word never mentions anyone (a word joiner after it).
  static func show(_ text: String) -> String {
    var out = ""
    out.reserveCapacity(text.utf8.count)
    var previous: Unicode.Scalar?
    for scalar in text.unicodeScalars {
      if let previous, previous == "@", scalar.properties.isAlphabetic || scalar == "!" {
        out.unicodeScalars.append("\u{2060}")
      }
      switch scalar {
      case "&": out += "&amp;"
      case "<": out += "&lt;"
      case ">": out += "&gt;"
      default:
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069:
          out += " "
        default: out.unicodeScalars.append(scalar)
        }
      }
      previous = scalar
    }
    return out
  }

  /// `text` cut at the last line that fits in `longest` characters, saying so.
  static func bounded(_ text: String) -> String {
    guard text.count > longest else { return text }
    var kept: [Substring] = []
    var count = 0
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    for line in lines {
      guard count + line.count + 1 <= longest - 100 else { break }
      kept.append(line)
      count += line.count + 1
    }
    let left = lines.count - kept.count
    return kept.joined(separator: "\n")
      + "\n… and \(left) more lines: see the meeting's digest on the team server"
  }

  /// `2026-11-26 08:00 UTC`: the server's posts say the time the same on every server.
  static func date(_ date: Date) -> String {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC")!
    let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: date)
    func pad(_ value: Int?) -> String {
      let value = value ?? 0
      return value < 10 ? "0\(value)" : "\(value)"
    }
    return "\(parts.year ?? 0)-\(pad(parts.month))-\(pad(parts.day)) "
      + "\(pad(parts.hour)):\(pad(parts.minute)) UTC"
  }
}
