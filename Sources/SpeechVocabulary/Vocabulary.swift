import Foundation

/// The words and phrases a team uses: attendees' names, product and project words. A decoder
/// started with a vocabulary knows how to say each word (its dictionary or letter-to-sound rules)
/// and expects the words and phrases more than the general language model would.
///
/// Terms are kept as they are said: lower case, words separated by one space, accents folded
/// ("José" is "jose"), hyphens and slashes as spaces ("on-call" is "on call"), in first-seen order
/// without repeats.
public struct Vocabulary: Sendable, Hashable, Codable {
  public private(set) var terms: [String]

  /// Most words in one term: a vocabulary names things, it is not a corpus.
  public static let maximumWordsPerTerm = 6

  /// Terms that cannot be normalized (see `normalize`) are left out.
  public init(_ terms: some Sequence<String> = [String]()) {
    self.terms = []
    for term in terms { insert(term) }
  }

  /// Adds a term; returns false when it is invalid or already there.
  @discardableResult
  public mutating func insert(_ term: String) -> Bool {
    guard case .success(let normalized) = Self.normalize(term), !terms.contains(normalized)
    else { return false }
    terms.append(normalized)
    return true
  }

  /// The union of two vocabularies, `self`'s terms first (e.g. attendees' names + team words).
  public func merging(_ other: Vocabulary) -> Vocabulary {
    var merged = self
    for term in other.terms { merged.insert(term) }
    return merged
  }

  public var isEmpty: Bool { terms.isEmpty }

  /// Every distinct word of every term, in order.
  public var words: [String] {
    var seen = Set<String>()
    return terms.flatMap { $0.split(separator: " ").map(String.init) }
      .filter { seen.insert($0).inserted }
  }

  /// The terms of more than one word, as word lists.
  public var phrases: [[String]] {
    terms.map { $0.split(separator: " ").map(String.init) }.filter { $0.count > 1 }
  }

  /// Why a term cannot be used, in words a user understands.
  public enum TermProblem: Error, Equatable, Sendable, CustomStringConvertible {
    case empty
    case notLetters(String)
    /// Letters of another script (日本, Ελλάδα): real letters the English model has no sounds for.
    case notEnglishLetters(String)
    case tooManyWords

    public var description: String {
      switch self {
      case .empty: "it has no letters"
      case .notLetters(let word):
        "'\(word)' has characters other than letters; write it as it is said (e.g. 'k eight s')"
      case .notEnglishLetters(let word):
        "'\(word)' has letters the English speech model cannot say (it knows a to z); "
          + "write it as it sounds in English letters"
      case .tooManyWords: "it has more than \(Vocabulary.maximumWordsPerTerm) words"
      }
    }
  }

  /// The spoken form of a term: lower case ASCII letters and apostrophes, one space between words.
  public static func normalize(_ term: String) -> Result<String, TermProblem> {
    let folded =
      term
      .folding(options: [.diacriticInsensitive, .caseInsensitive, .widthInsensitive], locale: nil)
      .lowercased()
    let spaced = folded.map { "-/_".contains($0) ? " " : $0 }
    var words: [String] = []
    for raw in String(spaced).split(whereSeparator: { $0.isWhitespace }) {
      let word = raw.trimmingCharacters(in: CharacterSet(charactersIn: "'.,;:!?\"()"))
      guard !word.isEmpty else { continue }
      guard word.allSatisfy({ ($0 >= "a" && $0 <= "z") || $0 == "'" }) else {
        let others = word.filter { !(($0 >= "a" && $0 <= "z") || $0 == "'") }
        return .failure(
          others.allSatisfy(\.isLetter)
            ? .notEnglishLetters(String(raw)) : .notLetters(String(raw)))
      }
      words.append(word)
    }
    guard !words.isEmpty else { return .failure(.empty) }
    guard words.count <= maximumWordsPerTerm else { return .failure(.tooManyWords) }
    return .success(words.joined(separator: " "))
  }
}
