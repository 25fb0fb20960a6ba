import AudioCore
import Dependencies
import Foundation
import IssueReporting

/// Speech to text. The live value (module `TranscriptionClientLive`, PocketSphinx) runs each
/// decoder on a thread of its own; async callers only hand it chunks and receive results.
public struct TranscriptionClient: Sendable {
  /// Throws the error `transcribe` would if the model cannot be found or loaded.
  public var checkModel: @Sendable () async throws -> Void = unimplemented(
    "TranscriptionClient.checkModel")
  /// Transcribes a stream of 16 kHz chunks with one warm decoder (loaded before this returns,
  /// so a missing model throws here). Emits `.partial` while someone speaks and `.final` at the
  /// end of each utterance; when `chunks` ends, the last utterance is flushed and the stream ends.
  /// Cancelling the consumer's task stops the decoder within a chunk.
  public var transcribe:
    @Sendable (_ chunks: AsyncThrowingStream<AudioChunk, any Error>) async throws
      -> AsyncThrowingStream<TranscriptionEvent, any Error> = unimplemented(
        "TranscriptionClient.transcribe")
  /// Transcribes a whole audio file (any format the audio files client reads). Cancelling the
  /// calling task stops it within a chunk, with `CancellationError`.
  public var transcribeFile: @Sendable (_ url: URL) async throws -> Transcript = unimplemented(
    "TranscriptionClient.transcribeFile")
  /// The live pass of a meeting, as `transcribe`, with the meeting's vocabulary.
  public var transcribeMeeting:
    @Sendable (
      _ chunks: AsyncThrowingStream<AudioChunk, any Error>, _ options: TranscriptionOptions
    ) async throws -> AsyncThrowingStream<TranscriptionEvent, any Error> = unimplemented(
      "TranscriptionClient.transcribeMeeting")
  /// The second pass of a meeting, for the saved transcript: fed the same chunks as the live
  /// pass while the meeting runs, it decodes them on a thread of its own with endpointing that
  /// keeps sentences whole, the stand-up model and the vocabulary. When `chunks` ends it returns
  /// the utterances, with word times in the chunks' time base (seconds into the meeting).
  public var transcribeSentences:
    @Sendable (
      _ chunks: AsyncThrowingStream<AudioChunk, any Error>, _ options: TranscriptionOptions
    ) async throws -> [Utterance] = unimplemented("TranscriptionClient.transcribeSentences")
  /// The voice features (the front end's frames, as the second pass hands them over) of an
  /// audio file between two times, in seconds: what a corrected speaker's profile learns from.
  public var voiceFrames:
    @Sendable (_ url: URL, _ from: Double, _ to: Double) async throws -> VoiceFrames =
      unimplemented("TranscriptionClient.voiceFrames")

  public init(
    checkModel: @escaping @Sendable () async throws -> Void,
    transcribe:
      @escaping @Sendable (_ chunks: AsyncThrowingStream<AudioChunk, any Error>) async throws ->
      AsyncThrowingStream<TranscriptionEvent, any Error>,
    transcribeFile: @escaping @Sendable (_ url: URL) async throws -> Transcript,
    transcribeMeeting:
      @escaping @Sendable (
        _ chunks: AsyncThrowingStream<AudioChunk, any Error>, _ options: TranscriptionOptions
      ) async throws -> AsyncThrowingStream<TranscriptionEvent, any Error>,
    transcribeSentences:
      @escaping @Sendable (
        _ chunks: AsyncThrowingStream<AudioChunk, any Error>, _ options: TranscriptionOptions
      ) async throws -> [Utterance],
    voiceFrames:
      @escaping @Sendable (_ url: URL, _ from: Double, _ to: Double) async throws -> VoiceFrames
  ) {
    self.checkModel = checkModel
    self.transcribe = transcribe
    self.transcribeFile = transcribeFile
    self.transcribeMeeting = transcribeMeeting
    self.transcribeSentences = transcribeSentences
    self.voiceFrames = voiceFrames
  }

  /// Every endpoint unimplemented: calling one reports an issue (and throws, or returns a
  /// placeholder). The test value.
  public init() {}
}

extension TranscriptionClient: TestDependencyKey {
  public static let testValue = TranscriptionClient()
}

extension DependencyValues {
  public var transcription: TranscriptionClient {
    get { self[TranscriptionClient.self] }
    set { self[TranscriptionClient.self] = newValue }
  }
}
