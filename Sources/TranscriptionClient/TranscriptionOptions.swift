import AudioCore
import Foundation

/// What one transcription is told about its meeting.
public struct TranscriptionOptions: Sendable, Equatable {
  /// Words and phrases to expect: the sync-up's attendees' names, then its own words.
  public var vocabulary: [String]
  /// The sync-up's own language model, learned from its transcripts (nil: none).
  public var teamModel: String?

  public init(vocabulary: [String] = [], teamModel: String? = nil) {
    self.vocabulary = vocabulary
    self.teamModel = teamModel
  }
}

extension DecoderOptions {
  /// The stand-up model's and the vocabulary model's shares of the interpolated language model
  /// (measured on the development set, see Models/README.md).
  public static let defaultStandupWeight = 0.2
  public static let defaultVocabularyWeight = 0.05

  /// Silence (10 ms frames) that ends an utterance in the second pass: 0.8 s, so a breath inside
  /// a sentence does not cut it and the language model keeps its context. On the development set
  /// (Models/README.md) clean stand-ups with their vocabulary: 15.6 % word errors (0.5 s: 16.3 %);
  /// read speech 17.4 % (0.5 s: 16.2 %; pocketsphinx_batch 17.7 %).
  public static let sentenceEndSilenceFrames = 80

  /// These options for the second pass: no partials, whole-sentence endpointing, plus the
  /// meeting's vocabulary.
  public func sentencePass(_ request: TranscriptionOptions) -> DecoderOptions {
    var options = self
    options.partials = false
    options.endSilenceFrames = Self.sentenceEndSilenceFrames
    options.vocabulary += request.vocabulary
    options.teamModel = request.teamModel ?? options.teamModel
    return options
  }

  /// These options with the meeting's vocabulary added.
  public func with(_ request: TranscriptionOptions) -> DecoderOptions {
    var options = self
    options.vocabulary += request.vocabulary
    options.teamModel = request.teamModel ?? options.teamModel
    return options
  }
}

extension TranscriptionClient {
  /// A second pass for tests and previews: waits for `chunks` to end, then returns the given
  /// utterances that start before the audio's end (as the real pass would have heard them).
  public static func replayingSentences(
    _ utterances: [Utterance]
  )
    -> @Sendable (AsyncThrowingStream<AudioChunk, any Error>, TranscriptionOptions) async throws
    -> [Utterance]
  {
    { chunks, _ in
      var end = 0.0
      for try await chunk in chunks { end = max(end, chunk.end) }
      return utterances.filter { $0.start < end }
    }
  }
}
