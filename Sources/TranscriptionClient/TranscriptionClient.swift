import AudioCore
import AudioFilesClient
import Dependencies
import DependenciesMacros
import Foundation

/// Speech to text with PocketSphinx.
@DependencyClient
public struct TranscriptionClient: Sendable {
  /// Throws the error `transcribe` would if the model cannot be found or loaded.
  public var checkModel: @Sendable () async throws -> Void
  /// Transcribes a stream of 16 kHz chunks with one warm decoder (loaded before this returns,
  /// so a missing model throws here). Emits `.partial` while someone speaks and `.final` at the
  /// end of each utterance; when `chunks` ends, the last utterance is flushed and the stream ends.
  public var transcribe:
    @Sendable (_ chunks: AsyncThrowingStream<AudioChunk, any Error>) async throws
      -> AsyncThrowingStream<TranscriptionEvent, any Error>
  /// Transcribes a whole audio file (any format the audio files client reads).
  public var transcribeFile: @Sendable (_ url: URL) async throws -> Transcript
  /// The live pass of a meeting, as `transcribe`, with the meeting's vocabulary.
  public var transcribeMeeting:
    @Sendable (
      _ chunks: AsyncThrowingStream<AudioChunk, any Error>, _ options: TranscriptionOptions
    ) async throws -> AsyncThrowingStream<TranscriptionEvent, any Error>
  /// The second pass of a meeting, for the saved transcript: fed the same chunks as the live
  /// pass while the meeting runs, it decodes them on a thread of its own with endpointing that
  /// keeps sentences whole, the stand-up model and the vocabulary. When `chunks` ends it returns
  /// the utterances, with word times in the chunks' time base (seconds into the meeting).
  public var transcribeSentences:
    @Sendable (
      _ chunks: AsyncThrowingStream<AudioChunk, any Error>, _ options: TranscriptionOptions
    ) async throws -> [Utterance]
}

extension TranscriptionClient: DependencyKey {
  public static var liveValue: TranscriptionClient { .live() }

  /// The live client with the given decoder options (model folder, verbosity, endpointing).
  public static func live(options: DecoderOptions = DecoderOptions()) -> TranscriptionClient {
    TranscriptionClient(
      checkModel: { _ = try SpeechModel.resolve(explicit: options.modelDirectory) },
      transcribe: { chunks in
        let decoder = try SpeechDecoder(options: options)
        let (events, continuation) = AsyncThrowingStream<TranscriptionEvent, any Error>.makeStream()
        // The decoder belongs to this task alone from here on.
        let task = Task {
          do {
            for try await chunk in chunks {
              for event in decoder.process(chunk.samples) { continuation.yield(event) }
            }
            for event in decoder.finish() { continuation.yield(event) }
            continuation.finish()
          } catch {
            // Whatever was heard before the failure still counts.
            for event in decoder.finish() { continuation.yield(event) }
            continuation.finish(throwing: error)
          }
        }
        continuation.onTermination = { _ in task.cancel() }
        return events
      },
      transcribeFile: { url in
        var options = options
        options.partials = false
        let decoder = try SpeechDecoder(options: options)
        return try decoder.transcribe(AudioFileReader(path: url.path))
      },
      transcribeMeeting: { chunks, request in
        try await TranscriptionClient.live(options: options.with(request)).transcribe(chunks)
      },
      transcribeSentences: { chunks, request in
        try await SentencePass.run(chunks, options: options.sentencePass(request))
      }
    )
  }

  public static let testValue = TranscriptionClient()
}

extension DependencyValues {
  public var transcription: TranscriptionClient {
    get { self[TranscriptionClient.self] }
    set { self[TranscriptionClient.self] = newValue }
  }
}
