/// What the speech decoder heard.
public enum Transcription {
  /// One recognised word, with times in seconds from the start of the stream.
  public struct Word: Sendable, Equatable, Hashable, Codable {
    public var word: String
    public var start: Double
    public var end: Double
    /// Posterior probability of the word, 0...1.
    public var confidence: Double

    public init(word: String, start: Double, end: Double, confidence: Double) {
      self.word = word
      self.start = start
      self.end = end
      self.confidence = confidence
    }
  }

  /// One stretch of speech between pauses, with times in seconds from the start of the stream.
  public struct Utterance: Sendable, Equatable, Hashable, Codable {
    public var start: Double
    public var end: Double
    public var text: String
    public var words: [Word]
    /// How it sounded, for telling who said it (the second pass's sentences); never encoded.
    public var voice: VoiceFrames?

    public init(
      start: Double, end: Double, text: String, words: [Word], voice: VoiceFrames? = nil
    ) {
      self.start = start
      self.end = end
      self.text = text
      self.words = words
      self.voice = voice
    }

    enum CodingKeys: String, CodingKey {
      case start, end, text, words
    }
  }
}

public typealias Utterance = Transcription.Utterance

/// What a transcription stream emits: hypotheses while someone speaks, then a final per utterance.
public enum TranscriptionEvent: Sendable, Equatable, Hashable, Codable {
  /// The best guess so far for the utterance in progress.
  case partial(String)
  /// The decoder's result for a finished utterance.
  case final(Utterance)
}

/// A whole stream's transcript: its finished utterances in order.
public struct Transcript: Sendable, Equatable, Hashable, Codable {
  /// Seconds of audio transcribed.
  public var duration: Double
  public var utterances: [Utterance]

  public init(duration: Double, utterances: [Utterance]) {
    self.duration = duration
    self.utterances = utterances
  }

  /// The utterances' texts joined by single spaces.
  public var text: String {
    utterances.map(\.text).filter { !$0.isEmpty }.joined(separator: " ")
  }
}
