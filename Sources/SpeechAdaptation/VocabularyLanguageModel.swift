import Foundation
import SpeechVocabulary

/// A small language model of a vocabulary alone, in ARPA text, for interpolation with the
/// general and stand-up models: every word of the vocabulary equally likely anywhere, and each
/// word of a phrase likely after the one before it ("staging" → "server").
enum VocabularyLanguageModel {
  /// Half the probability mass after a phrase word goes to the words that follow it in phrases.
  static let phraseMass = 0.5

  static func arpa(_ vocabulary: Vocabulary) -> String {
    let words = vocabulary.words
    // Unigrams: the vocabulary's words and the sentence end, uniformly.
    let unigram = 1.0 / Double(words.count + 1)
    var successors: [String: [String]] = [:]
    var order: [String] = []
    for phrase in vocabulary.phrases {
      for (first, next) in zip(phrase, phrase.dropFirst()) {
        if successors[first] == nil { order.append(first) }
        if !(successors[first] ?? []).contains(next) { successors[first, default: []].append(next) }
      }
    }
    let bigramCount = successors.values.reduce(0) { $0 + $1.count }
    func log10String(_ value: Double) -> String { String(format: "%.6f", log10(value)) }

    var lines = ["\\data\\", "ngram 1=\(words.count + 2)"]
    if bigramCount > 0 { lines.append("ngram 2=\(bigramCount)") }
    lines += ["", "\\1-grams:", "-99.000000 <s> 0.000000", "\(log10String(unigram)) </s>"]
    for word in words {
      if let next = successors[word] {
        // What the phrase bigrams leave goes to the unigrams they do not cover.
        let backoff = (1 - phraseMass) / (1 - Double(next.count) * unigram)
        lines.append("\(log10String(unigram)) \(word) \(log10String(backoff))")
      } else {
        lines.append("\(log10String(unigram)) \(word)")
      }
    }
    if bigramCount > 0 {
      lines += ["", "\\2-grams:"]
      for first in order {
        let next = successors[first] ?? []
        for word in next {
          lines.append("\(log10String(phraseMass / Double(next.count))) \(first) \(word)")
        }
      }
    }
    lines += ["", "\\end\\", ""]
    return lines.joined(separator: "\n")
  }
}
