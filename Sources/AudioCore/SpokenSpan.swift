/// Part of a recording, from `start` to `end` seconds, and the words said there (empty when
/// not known yet).
public struct SpokenSpan: Equatable, Hashable, Sendable {
  public var start: Double
  public var end: Double
  public var text: String

  public init(start: Double, end: Double, text: String = "") {
    self.start = start
    self.end = end
    self.text = text
  }
}

extension SpokenSpan {
  /// Its words as the dictionary spells them: lower case, letters and apostrophes.
  public var words: [String] { Self.words(of: text) }

  public static func words(of text: String) -> [String] {
    text.lowercased().split(whereSeparator: { !$0.isLetter && $0 != "'" }).map(String.init)
  }

  /// The word errors of `heard` against `reference`: substitutions, insertions and deletions
  /// (the edit distance over words).
  public static func wordErrors(_ reference: [String], heard: [String]) -> Int {
    var previous = Array(0...heard.count)
    for (row, said) in reference.enumerated() {
      var current = [row + 1] + Array(repeating: 0, count: heard.count)
      for (column, word) in heard.enumerated() {
        let substitution = previous[column] + (said == word ? 0 : 1)
        current[column + 1] = min(substitution, previous[column + 1] + 1, current[column] + 1)
      }
      previous = current
    }
    return previous[heard.count]
  }
}
