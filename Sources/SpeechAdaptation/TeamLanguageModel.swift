import AudioCore
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

  public mutating func add(_ sentence: Sentence) {
    let tokens = SpokenSpan.words(of: sentence.text)
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
    /// Witten-Bell's share for the shorter context: n / (c + n).
    var share: Double { Double(followers) / (count + Double(followers)) }
  }

  private static func contexts(_ grams: [UInt64: Double]) -> [UInt64: Context] {
    var found: [UInt64: Context] = [:]
    for (key, count) in grams {
      found[key >> 21, default: Context()].count += count
      found[key >> 21, default: Context()].followers += 1
    }
    return found
  }

  /// Bigrams and trigrams counted less than this are left out of the file (their probability
  /// goes to the shorter context's guess): a sentence nobody corrected, heard once, adds nothing
  /// the other models lack, and a year of them would make the model slow to load.
  public static let minimumCount = 0.5

  /// One order's kept n-grams with their probabilities, and each context's back-off weight so
  /// that what is left out still adds up to one: (1 - kept) / (1 - kept's lower guesses).
  private struct Layer {
    var probabilities: [UInt64: Double] = [:]
    var backoffs: [UInt64: Double] = [:]

    init(
      _ grams: [UInt64: Double], lower: (UInt64) -> Double, interpolatedLower: (UInt64) -> Double
    ) {
      let contexts = TeamLanguageModel.contexts(grams)
      var kept: [UInt64: (probability: Double, lower: Double)] = [:]
      for (key, count) in grams where count >= TeamLanguageModel.minimumCount {
        let context = contexts[key >> 21]!
        let probability =
          (count + Double(context.followers) * interpolatedLower(key))
          / (context.count + Double(context.followers))
        probabilities[key] = probability
        kept[key >> 21, default: (0, 0)].probability += probability
        kept[key >> 21, default: (0, 0)].lower += lower(key)
      }
      for (context, sums) in kept {
        backoffs[context] = max(1 - sums.probability, 1e-6) / max(1 - sums.lower, 1e-6)
      }
    }
  }

  /// The model in ARPA text, which PocketSphinx reads.
  public func arpa() -> String {
    let total = unigrams.reduce(0, +)
    let types = Double(unigrams.count - 1)
    // Unigrams: Witten-Bell against a uniform guess over the words and </s> (all of them seen:
    // (c + types / types) / (total + types)). <s> (id 0) is never predicted.
    let unigram = unigrams.map { ($0 + 1) / (total + types) }
    func word(_ key: UInt64) -> Int { Int(key & 0x1F_FFFF) - 1 }
    let bigramContexts = Self.contexts(bigrams)
    // What the bigrams interpolate with (unpruned), and what a pruned one backs off to.
    let second = Layer(
      bigrams, lower: { unigram[word($0)] }, interpolatedLower: { unigram[word($0)] })
    func backedOffBigram(_ key: UInt64) -> Double {
      second.probabilities[key] ?? (second.backoffs[key >> 21] ?? 1) * unigram[word(key)]
    }
    func interpolatedBigram(_ key: UInt64) -> Double {
      guard let count = bigrams[key], let context = bigramContexts[key >> 21] else {
        return (bigramContexts[key >> 21]?.share ?? 1) * unigram[word(key)]
      }
      return (count + Double(context.followers) * unigram[word(key)])
        / (context.count + Double(context.followers))
    }
    let third = Layer(
      trigrams, lower: { backedOffBigram($0 & 0x3FF_FFFF_FFFF) },
      interpolatedLower: { interpolatedBigram($0 & 0x3FF_FFFF_FFFF) })

    var out = "\\data\\\nngram 1=\(words.count)\nngram 2=\(second.probabilities.count)\n"
    out += "ngram 3=\(third.probabilities.count)\n\n\\1-grams:\n"
    for (id, text) in words.enumerated() {
      let probability = id == 0 ? "-99.0000" : Self.log(unigram[id])
      let backoff = second.backoffs[Self.key(id)].map { " " + Self.log($0) } ?? ""
      out += "\(probability) \(text)\(backoff)\n"
    }
    out += "\n\\2-grams:\n"
    for key in second.probabilities.keys.sorted() {
      let pair = Self.unpack(key, 2)
      let backoff = third.backoffs[key].map { " " + Self.log($0) } ?? ""
      out +=
        "\(Self.log(second.probabilities[key]!)) \(words[pair[0]]) \(words[pair[1]])\(backoff)\n"
    }
    out += "\n\\3-grams:\n"
    for key in third.probabilities.keys.sorted() {
      let triple = Self.unpack(key, 3)
      out += "\(Self.log(third.probabilities[key]!)) \(words[triple[0]]) \(words[triple[1]]) "
      out += "\(words[triple[2]])\n"
    }
    return out + "\n\\end\\\n"
  }

  /// log10 of `value` with four decimals (String(format:) is too slow for a year of meetings).
  static func log(_ value: Double) -> String {
    let scaled = Int((log10(value) * 10_000).rounded())
    let magnitude = abs(scaled)
    let fraction = String(magnitude % 10_000)
    return (scaled < 0 ? "-" : "") + String(magnitude / 10_000) + "."
      + String(repeating: "0", count: 4 - fraction.count) + fraction
  }
}
