import AudioCore
import Foundation
import WorkerThreads

/// What one transcription is told about its meeting.
public struct TranscriptionOptions: Sendable, Equatable {
  /// Words and phrases to expect: the sync-up's attendees' names, then its own words.
  public var vocabulary: [String]

  public init(vocabulary: [String] = []) {
    self.vocabulary = vocabulary
  }
}

extension DecoderOptions {
  /// Silence (10 ms frames) that ends an utterance in the second pass: 0.5 s, so a breath inside
  /// a sentence does not cut it and the language model keeps its context. On the development set
  /// (Models/README.md) it gave read speech 16.2 % word errors, 0.8 s 17.4 %.
  public static let sentenceEndSilenceFrames = 50

  /// These options for the second pass: no partials, whole-sentence endpointing, plus the
  /// meeting's vocabulary.
  public func sentencePass(_ request: TranscriptionOptions) -> DecoderOptions {
    var options = self
    options.partials = false
    options.endSilenceFrames = Self.sentenceEndSilenceFrames
    options.vocabulary += request.vocabulary
    return options
  }

  /// These options with the meeting's vocabulary added.
  public func with(_ request: TranscriptionOptions) -> DecoderOptions {
    var options = self
    options.vocabulary += request.vocabulary
    return options
  }
}

/// The second pass over a meeting's audio: one decoder on a thread of its own, fed chunks as
/// they come (so it runs behind the live pass and finishes soon after the audio ends). Word and
/// utterance times are in the chunks' time base (the first chunk's `start` is where the decoder's
/// stream begins).
final class SentencePass: @unchecked Sendable {
  // Everything below is used on `worker` only.
  private let decoder: SpeechDecoder
  private var utterances: [Utterance] = []
  private var origin: Double?
  private let worker: WorkerThread

  private init(decoder: SpeechDecoder, worker: WorkerThread) {
    self.decoder = decoder
    self.worker = worker
  }

  /// Loads the decoder on its own thread, then decodes `chunks` there until they end.
  static func run(
    _ chunks: AsyncThrowingStream<AudioChunk, any Error>, options: DecoderOptions
  ) async throws -> [Utterance] {
    let worker = WorkerThread(name: "syncups-sentence-pass")
    let pass = try await worker.run {
      SentencePass(decoder: try SpeechDecoder(options: options), worker: worker)
    }
    do {
      for try await chunk in chunks {
        worker.submit { pass.process(chunk) }
      }
    } catch is CancellationError {
      throw CancellationError()
    } catch {
      // The live pass reports the audio's errors; what was heard before still counts here.
    }
    return try await worker.run { pass.finish() }
  }

  private func process(_ chunk: AudioChunk) {
    if origin == nil { origin = chunk.start }
    collect(decoder.process(chunk.samples))
  }

  private func finish() -> [Utterance] {
    collect(decoder.finish())
    return utterances
  }

  private func collect(_ events: [TranscriptionEvent]) {
    let shift = origin ?? 0
    for case let .final(utterance) in events {
      utterances.append(utterance.shifted(by: shift))
    }
  }
}

extension Utterance {
  /// The same utterance `seconds` later (a stream's times moved to the meeting's).
  func shifted(by seconds: Double) -> Utterance {
    guard seconds != 0 else { return self }
    var moved = self
    moved.start += seconds
    moved.end += seconds
    moved.words = words.map { word in
      var word = word
      word.start += seconds
      word.end += seconds
      return word
    }
    return moved
  }
}

extension TranscriptionClient {
  /// A second pass for tests and previews: waits for `chunks` to end, then returns the given
  /// utterances that start before the audio's end (as the real pass would have heard them).
  public static func replayingSentences(
    _ utterances: [Utterance]
  ) -> @Sendable (AsyncThrowingStream<AudioChunk, any Error>, TranscriptionOptions) async throws
    -> [Utterance]
  {
    { chunks, _ in
      var end = 0.0
      for try await chunk in chunks { end = max(end, chunk.end) }
      return utterances.filter { $0.start < end }
    }
  }
}
