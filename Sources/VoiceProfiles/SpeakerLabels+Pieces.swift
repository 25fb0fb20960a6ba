import AudioCore
import Foundation

extension SpeakerLabels {
  /// A sentence longer than `longSentence` seconds (in a noisy room the recogniser may hear no
  /// pause between turns, and a whole meeting may come as one sentence) cut into pieces at the
  /// pauses between its words: each pause of at least `piecePause` seconds ends a piece once
  /// it lasts `minimumPiece` seconds. Shorter sentences stay whole. Returns the pieces and,
  /// per piece, its sentence and the index of its first word there.
  static func pieces(_ sentences: [Sentence], settings: Settings)
    -> (pieces: [Sentence], owners: [(sentence: Int, firstWord: Int)])
  {
    var pieces: [Sentence] = []
    var owners: [(sentence: Int, firstWord: Int)] = []
    for (index, sentence) in sentences.enumerated() {
      let words = sentence.words
      guard let voice = sentence.voice, let first = words.first, let last = words.last,
        last.upperBound - first.lowerBound > settings.longSentence
      else {
        pieces.append(sentence)
        owners.append((index, 0))
        continue
      }
      var from = 0
      for next in 1...words.count {
        let ends =
          next == words.count
          || (words[next].lowerBound - words[next - 1].upperBound >= settings.piecePause
            && words[next - 1].upperBound - words[from].lowerBound >= settings.minimumPiece)
        guard ends else { continue }
        // From the pause before the piece to the pause after it.
        let start = from == 0 ? voice.start : words[from].lowerBound
        let end = next == words.count ? .infinity : words[next].lowerBound
        pieces.append(
          Sentence(
            voice: voice.between(start, end), slot: sentence.slot,
            words: Array(words[from..<next])))
        owners.append((index, from))
        from = next
      }
    }
    return (pieces, owners)
  }

  /// The pieces' parts as their sentences' parts (a sentence's pieces said by one attendee in
  /// a row make one part).
  static func joined(
    _ parts: [[Part]], owners: [(sentence: Int, firstWord: Int)], sentences: Int
  ) -> [[Part]] {
    var joined = [[Part]](repeating: [], count: sentences)
    for (pieceParts, owner) in zip(parts, owners) {
      for part in pieceParts {
        let words =
          (part.words.lowerBound + owner.firstWord)..<(part.words.upperBound + owner.firstWord)
        if let last = joined[owner.sentence].last, last.speaker == part.speaker {
          joined[owner.sentence][joined[owner.sentence].count - 1].words =
            last.words.lowerBound..<words.upperBound
        } else {
          joined[owner.sentence].append(Part(speaker: part.speaker, words: words))
        }
      }
    }
    return joined
  }
}
