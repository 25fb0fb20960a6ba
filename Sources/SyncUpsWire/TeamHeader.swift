/// Which team a laptop's request is for: every request of a laptop that joined a team sends its
/// team's name in this header (`SyncUps-Team: NAME`), and the server checks that the token's
/// person belongs to that team. A request without it is for all of the person's teams when it
/// reads (the web pages, a search), and for their only team when it syncs: a person in several
/// teams must name one to pull, push or upload audio. Team names are ASCII (letters, digits,
/// `.`, `-`, `_`), so they travel in a header as they are.
public enum TeamHeader {
  public static let name = "SyncUps-Team"

  /// The most characters a team's name has.
  public static let longestName = 64

  /// Whether `name` can be a team's name: 1 to `longestName` letters, digits, `.`, `-` or `_`
  /// (ASCII), starting with a letter or a digit.
  public static func isName(_ name: String) -> Bool {
    let scalars = name.unicodeScalars
    guard let first = scalars.first, scalars.count <= longestName, isLetterOrDigit(first)
    else { return false }
    return scalars.allSatisfy { isLetterOrDigit($0) || $0 == "." || $0 == "-" || $0 == "_" }
  }

  static func isLetterOrDigit(_ scalar: Unicode.Scalar) -> Bool {
    ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
  }
}
