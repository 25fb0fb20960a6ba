import Foundation

/// A correction of one segment: a new speaker, new text, or both (nil: unchanged). The rules
/// of a correction live here, once: `syncups correct`, the interactive meeting screen and the
/// team server's meeting page all go through them.
public struct SegmentCorrection: Equatable, Sendable {
  public var speaker: String?
  public var text: String?

  public init(speaker: String? = nil, text: String? = nil) {
    self.speaker = speaker
    self.text = text
  }

  /// The most characters a corrected segment holds.
  public static let longestText = Rules.longestText

  /// The correction of a segment that says `current` into `speaker` and `text` as a person
  /// wrote them, by the rules: the speaker is one of `attendees` (any case: saved as the
  /// attendee is named), the text is not empty (whitespace, line breaks included, becomes
  /// single spaces), holds no control characters and at most `longestText` characters.
  public static func checked(
    speaker: String, text: String, current: (speaker: String, text: String),
    attendees: [String], syncUpTitle: String
  ) throws(CorrectionRefused) -> SegmentCorrection {
    let wanted = speaker.trimmingCharacters(in: .whitespacesAndNewlines)
    guard let name = attendees.first(where: { $0.lowercased() == wanted.lowercased() }) else {
      let choices = attendees.map { "'\($0)'" }.joined(separator: ", ")
      throw CorrectionRefused(
        wanted.isEmpty
          ? "give the speaker: one of \(choices)"
          : "'\(wanted)' is not an attendee of '\(syncUpTitle)'; choose one of \(choices)")
    }
    let words = text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    guard !words.isEmpty else { throw CorrectionRefused("the text is empty: write what was said") }
    // The rules a pushed segment is kept by (`Rules.segment`, `Rules.word`), so a correction
    // is never one that every laptop or the server then refuses.
    guard !Rules.hasControlCharacters(words) else {
      throw CorrectionRefused(
        "the text holds control characters (such as direction marks): write only words")
    }
    guard words.count <= longestText else {
      throw CorrectionRefused("the text is too long (at most \(longestText) characters)")
    }
    if let long = words.split(separator: " ").first(where: { $0.count > Rules.longestSpokenWord }) {
      throw CorrectionRefused(
        "'\(long.prefix(20))…' is too long for one word (at most \(Rules.longestSpokenWord) "
          + "characters): put spaces between the words")
    }
    return SegmentCorrection(
      speaker: name == current.speaker ? nil : name, text: words == current.text ? nil : words)
  }
}

extension SegmentCorrection {
  /// `text` made to keep the rules `checked` holds a correction to, for one saved before it
  /// did: control characters (direction marks among them) dropped, whitespace single spaces, a
  /// word longer than a spoken word (`Rules.longestSpokenWord`) cut into words that long, and
  /// at most `longestText` characters in all. Empty when nothing is left of it.
  public static func repaired(_ text: String) -> String {
    var words: [Substring] = []
    // Whitespace (tabs and line breaks too) separates words, as `checked` reads it.
    for spaced in text.split(whereSeparator: \.isWhitespace) {
      var kept = String.UnicodeScalarView()
      for scalar in spaced.unicodeScalars where !Rules.isControl(scalar) { kept.append(scalar) }
      guard !kept.isEmpty else { continue }
      var rest = Substring(String(kept))
      while rest.count > Rules.longestSpokenWord {
        words.append(rest.prefix(Rules.longestSpokenWord))
        rest = rest.dropFirst(Rules.longestSpokenWord)
      }
      words.append(rest)
    }
    let joined = words.joined(separator: " ")
    guard joined.count > longestText else { return joined }
    return String(joined.prefix(longestText)).trimmingCharacters(in: .whitespaces)
  }
}

/// Why a correction cannot be saved, in one line.
public struct CorrectionRefused: Error, Equatable, CustomStringConvertible {
  public let description: String
  public init(_ description: String) { self.description = description }
}

extension MeetingDocument.Segment {
  /// The segment as recognised (itself when never corrected; its clock kept).
  public var recognised: MeetingDocument.Segment {
    guard let original else { return self }
    return MeetingDocument.Segment(
      speaker: original.speaker, start: start, end: end, text: original.text,
      words: original.words, clock: clock)
  }

  /// The segment with `change` applied. What the recogniser gave is kept in `original` (from
  /// the first correction on); a correction that brings back exactly what was recognised is
  /// the recognition again (`original` nil). New text is timed word by word: a word that is
  /// still one the recogniser heard, in the same order, keeps its times; the others share the
  /// time between their neighbours (the replaced words' time, or the segment's ends), in
  /// proportion to their length. The clock is left as it is: the caller stamps the change.
  public func corrected(_ change: SegmentCorrection) -> MeetingDocument.Segment {
    let recognised = self.recognised
    var result = self
    if let speaker = change.speaker { result.speaker = speaker }
    if let text = change.text, text != self.text {
      result.text = text
      result.words =
        text == recognised.text
        ? recognised.words
        : WordTiming.retimed(
          text.split(whereSeparator: \.isWhitespace).map(String.init),
          over: recognised.words, start: start, end: end)
    }
    let original = MeetingDocument.Original(
      speaker: recognised.speaker, text: recognised.text, words: recognised.words)
    let isRecognition = result.speaker == original.speaker && result.text == original.text
    result.original = isRecognition ? nil : original
    if isRecognition { result.words = original.words }
    return result
  }
}

/// Times for the words of a corrected text, from the words the recogniser timed.
enum WordTiming {
  /// `tokens` timed within `start...end`: each token matched (same word, same order: the
  /// longest common subsequence) to a recognised word takes its times and confidence; each run
  /// of other tokens shares the time between the matched words around it, by length, with
  /// confidence 1 (a person wrote them).
  static func retimed(
    _ tokens: [String], over words: [MeetingDocument.Word], start: Double, end: Double
  ) -> [MeetingDocument.Word] {
    let matches = matched(tokens.map(normalised), words.map { normalised($0.text) })
    var timed: [MeetingDocument.Word] = []
    var pending: [String] = []
    var from = start
    func flush(until to: Double) {
      guard !pending.isEmpty else { return }
      let upper = max(to, from)
      let weights = pending.map { Double($0.count + 1) }
      let total = weights.reduce(0, +)
      var at = from
      for (token, weight) in zip(pending, weights) {
        let length = (upper - from) * weight / total
        timed.append(MeetingDocument.Word(text: token, start: at, end: at + length, confidence: 1))
        at += length
      }
      pending = []
    }
    for (index, token) in tokens.enumerated() {
      guard let match = matches[index] else {
        pending.append(token)
        continue
      }
      let word = words[match]
      flush(until: word.start)
      timed.append(
        MeetingDocument.Word(
          text: token, start: word.start, end: word.end, confidence: word.confidence))
      from = word.end
    }
    flush(until: end)
    return timed
  }

  /// For each token, the index of the recognised word it is matched to (nil: none).
  private static func matched(_ tokens: [String], _ words: [String]) -> [Int?] {
    let n = tokens.count
    let m = words.count
    // lengths[i][j]: the longest common subsequence of tokens[i...] and words[j...].
    var lengths = Array(repeating: Array(repeating: 0, count: m + 1), count: n + 1)
    for i in stride(from: n - 1, through: 0, by: -1) {
      for j in stride(from: m - 1, through: 0, by: -1) {
        lengths[i][j] =
          tokens[i] == words[j]
          ? lengths[i + 1][j + 1] + 1 : max(lengths[i + 1][j], lengths[i][j + 1])
      }
    }
    var result = [Int?](repeating: nil, count: n)
    var (i, j) = (0, 0)
    while i < n && j < m {
      if tokens[i] == words[j] {
        result[i] = j
        i += 1
        j += 1
      } else if lengths[i + 1][j] >= lengths[i][j + 1] {
        i += 1
      } else {
        j += 1
      }
    }
    return result
  }

  /// A word as compared: lower case, without the punctuation a person adds.
  static func normalised(_ word: String) -> String {
    String(word.lowercased().filter { $0.isLetter || $0.isNumber || $0 == "'" })
  }
}
