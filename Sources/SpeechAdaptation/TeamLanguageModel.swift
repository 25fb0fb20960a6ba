import Foundation

/// A trigram model of a sync-up's own transcripts (the team's words), counted here in Swift and
/// smoothed with interpolated Witten-Bell, which copes with the small counts of a few meetings:
/// after a context seen `c` times with `n` different followers, the model keeps `c / (c + n)` for
/// what followed it and gives `n / (c + n)` to the shorter context's guess. Sentences carry a
/// weight (a corrected segment counts more than one nobody checked), so counts are fractional.
public struct TeamLanguageModel: Sendable {
  /// One sentence of training text and how much it counts.
  public struct Sentence: Sendable, Equatable {
    public var text: String
    public var weight: Double
    public init(text: String, weight: Double) {
      self.text = text
      self.weight = weight
    }
  }

  /// Word ids: 0 is `<s>`, 1 is `</s>`, then the words in order of first appearance.
  public private(set) var words: [String] = ["<s>", "</s>"]
  private var ids: [String: Int] = [:]
  private var unigrams: [Double] = [0, 0]
  private var bigrams: [UInt64: Double] = [:]
  private var trigrams: [UInt64: Double] = [:]
  /// Weighted words counted (without sentence marks): how much text the model knows.
  public private(set) var wordCount = 0.0

  public init(_ sentences: [Sentence] = []) {
    for sentence in sentences { add(sentence) }
  }

  /// The words of a text as the decoder spells them: lower case letters and apostrophes.
  public static func tokens(_ text: String) -> [String] {
    text.lowercased()
      .split { !(($0 >= "a" && $0 <= "z") || $0 == "'") }
      .map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "'")) }
      .filter { !$0.isEmpty && $0.count <= 40 }
  }

  public mutating func add(_ sentence: Sentence) {
    let tokens = Self.tokens(sentence.text)
    guard !tokens.isEmpty, sentence.weight > 0 else { return }
    let weight = sentence.weight
    var sequence = [0]
    for token in tokens {
      if let id = ids[token] {
        sequence.append(id)
      } else {
        ids[token] = words.count
        sequence.append(words.count)
        words.append(token)
        unigrams.append(0)
      }
    }
    sequence.append(1)
    wordCount += Double(tokens.count) * weight
    for index in 1..<sequence.count {
      unigrams[sequence[index]] += weight
      bigrams[Self.key(sequence[index - 1], sequence[index]), default: 0] += weight
      if index >= 2 {
        trigrams[Self.key(sequence[index - 2], sequence[index - 1], sequence[index]), default: 0] +=
          weight
      }
    }
  }

  /// Up to three ids of 21 bits packed in one key.
  static func key(_ ids: Int...) -> UInt64 {
    ids.reduce(0) { ($0 << 21) | UInt64($1 + 1) }
  }

  static func unpack(_ key: UInt64, _ count: Int) -> [Int] {
    (0..<count).reversed().map { Int((key >> (21 * UInt64($0))) & 0x1F_FFFF) - 1 }
  }

  /// A context's total count and how many different words followed it.
  private struct Context {
    var count = 0.0
    var followers = 0
    /// Witten-Bell's share for the shorter context: n / (c + n), the ARPA back-off weight.
    var backoff: Double { Double(followers) / (count + Double(followers)) }
  }

  private func contexts(_ grams: [UInt64: Double]) -> [UInt64: Context] {
    var found: [UInt64: Context] = [:]
    for (key, count) in grams {
      found[key >> 21, default: Context()].count += count
      found[key >> 21, default: Context()].followers += 1
    }
    return found
  }

  /// The model in ARPA text, which PocketSphinx reads.
  public func arpa() -> String {
    let total = unigrams.reduce(0, +)
    let types = Double(unigrams.count - 1)
    // Unigrams: Witten-Bell against a uniform guess over the words and </s> (all of them seen:
    // (c + types / types) / (total + types)). <s> (id 0) is never predicted.
    let unigram = unigrams.map { ($0 + 1) / (total + types) }
    let bigramContexts = contexts(bigrams)
    let trigramContexts = contexts(trigrams)
    var bigram: [UInt64: Double] = [:]
    bigram.reserveCapacity(bigrams.count)
    for (key, count) in bigrams {
      let context = bigramContexts[key >> 21]!
      let word = Int(key & 0x1F_FFFF) - 1
      bigram[key] =
        (count + Double(context.followers) * unigram[word])
        / (context.count + Double(context.followers))
    }
    func lowerBigram(_ key: UInt64) -> Double {
      if let seen = bigram[key] { return seen }
      let word = Int(key & 0x1F_FFFF) - 1
      return (bigramContexts[key >> 21]?.backoff ?? 1) * unigram[word]
    }
    var out = "\\data\\\nngram 1=\(words.count)\nngram 2=\(bigrams.count)\n"
    out += "ngram 3=\(trigrams.count)\n\n\\1-grams:\n"
    for (id, word) in words.enumerated() {
      let probability = id == 0 ? "-99.0000" : Self.log(unigram[id])
      let backoff = bigramContexts[Self.key(id)].map { " " + Self.log($0.backoff) } ?? ""
      out += "\(probability) \(word)\(backoff)\n"
    }
    out += "\n\\2-grams:\n"
    for key in bigrams.keys.sorted() {
      let pair = Self.unpack(key, 2)
      let backoff = trigramContexts[key].map { " " + Self.log($0.backoff) } ?? ""
      out += "\(Self.log(bigram[key]!)) \(words[pair[0]]) \(words[pair[1]])\(backoff)\n"
    }
    out += "\n\\3-grams:\n"
    for key in trigrams.keys.sorted() {
      let triple = Self.unpack(key, 3)
      let context = trigramContexts[key >> 21]!
      let lower = lowerBigram(Self.key(triple[1], triple[2]))
      let probability =
        (trigrams[key]! + Double(context.followers) * lower)
        / (context.count + Double(context.followers))
      out +=
        "\(Self.log(probability)) \(words[triple[0]]) \(words[triple[1]]) \(words[triple[2]])\n"
    }
    return out + "\n\\end\\\n"
  }

  static func log(_ value: Double) -> String { String(format: "%.4f", log10(value)) }
}
