import AudioCore
import Dependencies
import Foundation
import MeetingRecorder

/// The rule that a person's acoustic adaptation must earn its use: a transform estimated
/// without their newest meeting is tried on their sentences of that meeting (held out), and is
/// worth keeping only when it makes fewer word errors there than no transform at all.
extension VoiceAdaptation {
  /// The least speech a trial transform is estimated from.
  static let trialSeconds = 20.0
  /// The fewest words of held-out sentences a check is made on.
  static let heldOutWords = 5

  enum Check {
    typealias Recording = (audioFile: URL, spans: [SpokenSpan])

    /// Word errors on the held-out sentences with the trial transform and without any.
    struct Errors: Equatable {
      var with: Int
      var without: Int
      var words: Int

      var lowers: Bool { with < without }
      var said: String {
        "on their newest sentences (\(words) words) \(with) errors with it, \(without) without"
      }
    }

    /// The newest meeting's sentences held out, the others to estimate the trial transform
    /// from; nil when either is too little.
    static func split(_ recordings: [Recording])
      -> (estimateFrom: [Recording], heldOut: Recording)?
    {
      guard let newest = recordings.first, recordings.count > 1 else { return nil }
      let rest = Array(recordings.dropFirst())
      let seconds = rest.flatMap(\.spans).reduce(0) { $0 + max(0, $1.end - $1.start) }
      let words = newest.spans.reduce(0) { $0 + $1.words.count }
      guard seconds >= trialSeconds, words >= heldOutWords else { return nil }
      return (rest, newest)
    }

    /// The held-out sentences decoded with `transform` and without, as the second pass decodes
    /// (the sync-up's vocabulary; not its learned words, which have heard these sentences),
    /// each against the words confirmed there.
    static func errors(of heldOut: Recording, with transform: Data, vocabulary: [String])
      async throws -> Errors
    {
      @Dependency(\.speakerAdapter) var adapter
      let spans = heldOut.spans
      let adapted = try await adapter.redecode(heldOut.audioFile, spans, transform, vocabulary, nil)
      let plain = try await adapter.redecode(heldOut.audioFile, spans, nil, vocabulary, nil)
      func errors(_ heard: [Utterance?]) -> Int {
        spans.indices.reduce(0) { total, index in
          let words = index < heard.count ? heard[index]?.words.map(\.word) ?? [] : []
          return total
            + SpokenSpan.wordErrors(
              spans[index].words, heard: words.flatMap { SpokenSpan.words(of: $0) })
        }
      }
      return Errors(
        with: errors(adapted), without: errors(plain),
        words: spans.reduce(0) { $0 + $1.words.count })
    }
  }
}
