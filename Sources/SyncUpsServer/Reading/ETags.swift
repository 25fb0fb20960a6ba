import Hummingbird

/// Entity tags: a meeting's JSON is tagged with its clock and the version of its last write
/// (which changes whenever any segment does, by a per-segment merge too), its page with a digest of all it shows (`MeetingPageCache.tag`). A
/// request whose `If-None-Match` names the tag gets `304 Not Modified` and no body.
enum ETag {
  /// The most tags of an `If-None-Match` looked at.
  static let mostNamed = 32

  /// The strong tag of a text of letters, digits, dots and dashes.
  static func quoted(_ text: String) -> String { "\"" + text + "\"" }

  /// The tags an `If-None-Match` names, without their quotes (a weak one as a strong one: the
  /// header compares weakly), and `*` as itself.
  static func named(in request: Request) -> [String] {
    var tags: [String] = []
    for header in request.headers[values: .ifNoneMatch] {
      for part in header.split(separator: ",") where tags.count < mostNamed {
        var tag = part.trimmingPrefix(while: \.isWhitespace)
        while tag.last?.isWhitespace == true { tag = tag.dropLast() }
        if tag == "*" {
          tags.append("*")
          continue
        }
        if tag.hasPrefix("W/") { tag = tag.dropFirst(2) }
        guard tag.count >= 2, tag.first == "\"", tag.last == "\"" else { continue }
        tags.append(String(tag.dropFirst().dropLast()))
      }
    }
    return tags
  }

  /// Whether `tag` (quoted) is among `named` (or they name `*`).
  static func matches(_ tag: String, _ named: [String]) -> Bool {
    named.contains("*") || named.contains(String(tag.dropFirst().dropLast()))
  }
}
