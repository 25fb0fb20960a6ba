import AudioCore
import Foundation

extension SpeakerLabels {
  /// Where a sentence is cut into pieces told apart by voice: the index of each piece's first
  /// word, and whether the cut is a pause that may be a turn (`turnPause`) rather than one of
  /// a long sentence's.
  struct Cut: Equatable {
    var word: Int
    var atTurn = false
  }

  /// Where each sentence may be cut (the first piece starts at word 0):
  /// - a sentence longer than `longSentence` seconds (in a noisy room the recogniser may hear
  ///   no pause between turns, and a whole meeting may come as one sentence) at the pauses
  ///   between its words: each pause of at least `piecePause` seconds ends a piece once it
  ///   lasts `minimumPiece` seconds;
  /// - any sentence at a pause of at least `turnPause` seconds with `minimumTurn` seconds of
  ///   words on either side.
  static func cuts(_ sentence: Sentence, settings: Settings) -> [Cut] {
    let words = sentence.words
    guard sentence.voice != nil, let first = words.first, let last = words.last else {
      return [Cut(word: 0)]
    }
    let isLong = last.upperBound - first.lowerBound > settings.longSentence
    var cuts = [Cut(word: 0)]
    for next in words.indices.dropFirst() {
      let pause = words[next].lowerBound - words[next - 1].upperBound
      let before = words[next - 1].upperBound - words[cuts.last!.word].lowerBound
      if isLong, pause >= settings.piecePause, before >= settings.minimumPiece {
        cuts.append(Cut(word: next))
      } else if pause >= settings.turnPause, before >= settings.minimumTurn,
        last.upperBound - words[next].lowerBound >= settings.minimumTurn
      {
        cuts.append(Cut(word: next, atTurn: true))
      }
    }
    return cuts
  }

  /// Each sentence's cuts, but the turn cuts whose two sides sound alike (a pause within one
  /// person's words): the voices heard either side against the meeting's typical pair, as
  /// `MeetingVoices.alikeness` says.
  static func turnsKept(_ sentences: [Sentence], settings: Settings) -> [[Cut]] {
    var cuts = sentences.map { Self.cuts($0, settings: settings) }
    guard cuts.contains(where: { $0.contains(where: \.atTurn) }) else { return cuts }
    let (pieces, owners) = Self.pieces(sentences, cuts: cuts)
    let heard = heard(pieces, settings: settings)
    let voices = heard.map {
      MeetingVoices(
        speech: $0.speech, slots: pieces.map { _ in 0 }, attendees: 1, background: $0.background,
        profiles: [:], settings: settings)
    }
    for index in pieces.indices.dropFirst().reversed() {
      let (sentence, firstWord) = owners[index]
      guard let position = cuts[sentence].firstIndex(where: { $0.word == firstWord }),
        cuts[sentence][position].atTurn
      else { continue }
      let alike = voices?.alikeness(index - 1, index) ?? .infinity
      if alike > settings.sameVoice { cuts[sentence].remove(at: position) }
    }
    return cuts
  }

  /// The sentences cut into pieces at `cuts`, each piece's voice from the pause before it to
  /// the pause after it. Returns the pieces and, per piece, its sentence and the index of its
  /// first word there.
  static func pieces(_ sentences: [Sentence], cuts: [[Cut]])
    -> (pieces: [Sentence], owners: [(sentence: Int, firstWord: Int)])
  {
    var pieces: [Sentence] = []
    var owners: [(sentence: Int, firstWord: Int)] = []
    for (index, sentence) in sentences.enumerated() {
      let words = sentence.words
      guard let voice = sentence.voice, cuts[index].count > 1 else {
        pieces.append(sentence)
        owners.append((index, 0))
        continue
      }
      let starts = cuts[index].map(\.word)
      for (from, next) in zip(starts, starts.dropFirst() + [words.count]) {
        let start = from == 0 ? voice.start : words[from].lowerBound
        let end = next == words.count ? .infinity : words[next].lowerBound
        pieces.append(
          Sentence(
            voice: voice.between(start, end), slot: sentence.slot,
            words: Array(words[from..<next])))
        owners.append((index, from))
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
