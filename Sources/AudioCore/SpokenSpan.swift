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
  /// Its words as the decoder spells them (`words(of:)`).
  public var words: [String] { Self.words(of: text) }

  /// The words of a text as the decoder spells them: lower case letters and apostrophes (none
  /// at either end), at most 40 letters. Works on ASCII bytes (fast on a year of meetings):
  /// other letters split words, as the decoder's dictionary has none.
  public static func words(of text: String) -> [String] {
    var words: [String] = []
    var word: [UInt8] = []
    func flush() {
      while word.last == UInt8(ascii: "'") { word.removeLast() }
      let start = word.firstIndex { $0 != UInt8(ascii: "'") } ?? word.endIndex
      if start < word.endIndex, word.count - start <= 40 {
        words.append(String(decoding: word[start...], as: UTF8.self))
      }
      word.removeAll(keepingCapacity: true)
    }
    for byte in text.utf8 {
      switch byte {
      case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "'"): word.append(byte)
      case UInt8(ascii: "A")...UInt8(ascii: "Z"): word.append(byte + 32)
      default: flush()
      }
    }
    flush()
    return words
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
