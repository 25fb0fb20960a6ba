import AudioCore
import Dependencies
import Foundation
import MeetingRecorder

/// The rule that a person's acoustic adaptation must earn its use, cross-validated over their
/// newest meetings: each in turn is held out, a trial transform is estimated from their other
/// meetings and decodes their sentences of the held-out one; summed over the folds, the trials
/// must make fewer word errors there than no transform at all.
extension VoiceAdaptation {
  /// The least speech a trial transform is estimated from.
  static let trialSeconds = 20.0
  /// The fewest words of a held-out meeting's sentences a fold is made on.
  static let heldOutWords = 5
  /// The newest meetings held out in turn (each fold costs an estimate and a decode).
  static let folds = 3

  struct Check {
    typealias Recording = (audioFile: URL, spans: [SpokenSpan])

    /// Word errors on the held-out sentences with the trial transforms and without any.
    struct Errors: Equatable {
      var with = 0
      var without = 0
      var words = 0
      var folds = 0

      var lowers: Bool { with < without }
      var said: String {
        "on their sentences of \(folds == 1 ? "1 meeting" : "\(folds) meetings") held out in turn "
          + "(\(words) words), \(with) errors with it, \(without) without"
      }
    }

    /// The whole-file words of each meeting decoded without a transform, shared by everyone
    /// whose sentences it holds.
    var plain: [URL: [Transcription.Word]] = [:]
    let vocabulary: [String]

    init(vocabulary: [String]) { self.vocabulary = vocabulary }

    /// The folds: each of the newest meetings (with enough words) held out, the others to
    /// estimate from (with enough speech).
    static func folds(_ recordings: [Recording]) -> [(
      estimateFrom: [Recording], heldOut: Recording
    )] {
      recordings.indices.prefix(VoiceAdaptation.folds).compactMap { index in
        var rest = recordings
        let heldOut = rest.remove(at: index)
        let seconds = rest.flatMap(\.spans).reduce(0) { $0 + max(0, $1.end - $1.start) }
        let words = heldOut.spans.reduce(0) { $0 + $1.words.count }
        guard seconds >= trialSeconds, words >= heldOutWords else { return nil }
        return (rest, heldOut)
      }
    }

    /// The person's errors over the folds; nil when there is no fold (one meeting, or too
    /// little speech).
    mutating func errors(of recordings: [Recording]) async throws -> Errors? {
      @Dependency(\.speakerAdapter) var adapter
      let folds = Self.folds(recordings)
      guard !folds.isEmpty else { return nil }
      var total = Errors()
      for fold in folds {
        guard let trial = try await adapter.estimate(fold.estimateFrom) else { continue }
        let file = fold.heldOut.audioFile
        let adapted = try await heard(file, trial.transform)
        if plain[file] == nil { plain[file] = try await heard(file, nil) }
        let spans = fold.heldOut.spans
        total.with += Self.errors(spans, adapted)
        total.without += Self.errors(spans, plain[file] ?? [])
        total.words += spans.reduce(0) { $0 + $1.words.count }
        total.folds += 1
      }
      return total.folds > 0 ? total : nil
    }

    /// Every word of `file`, decoded as the second pass decodes (the sync-up's vocabulary; not
    /// its learned words, which have heard these sentences) with `transform` or none.
    func heard(_ file: URL, _ transform: Data?) async throws -> [Transcription.Word] {
      @Dependency(\.speakerAdapter) var adapter
      let whole = SpokenSpan(start: 0, end: .greatestFiniteMagnitude)
      return try await adapter.redecode(file, [whole], transform, vocabulary, nil)
        .first??.words ?? []
    }

    /// The word errors of `words` (those whose middle falls in a span) against each span's
    /// confirmed words.
    static func errors(_ spans: [SpokenSpan], _ words: [Transcription.Word]) -> Int {
      spans.reduce(0) { total, span in
        let inside = words.filter { span.start...span.end ~= ($0.start + $0.end) / 2 }
        return total
          + SpokenSpan.wordErrors(
            span.words, heard: inside.flatMap { SpokenSpan.words(of: $0.word) })
      }
    }
  }
}
