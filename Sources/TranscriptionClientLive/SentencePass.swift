import AudioCore
import Foundation
import TranscriptionClient
import WorkerThreads

/// The second pass over a meeting's audio: a `SentenceDecoder` (each sentence decoded alone,
/// from its own mean) on a thread of its own, fed chunks as they come (so it runs behind the
/// live pass and finishes soon after the audio ends), with each sentence's voice features from
/// the MFCC front end beside it. Word and utterance times are in the chunks' time base (the
/// first chunk's `start` is where the stream begins).
final class SentencePass: @unchecked Sendable {
  // Everything below is used on `worker` only.
  private let decoder: SentenceDecoder
  /// Each sentence's voice features (nil: the front end could not start; sentences come
  /// without them and are attributed by slot).
  private let voices: VoiceFrontEnd?
  private var utterances: [Utterance] = []
  private var origin: Double?
  private let worker: WorkerThread

  private init(options: DecoderOptions, worker: WorkerThread) throws(TranscriptionError) {
    decoder = try SentenceDecoder(options: options)
    // After the decoder, which silences sphinxbase's log (the front end's arguments print).
    voices = VoiceFrontEnd()
    self.worker = worker
  }

  /// Loads the decoder on its own thread, then decodes `chunks` there until they end.
  /// Cancelled, it stops at once: the chunks still waiting for the decoder (a pass that fell
  /// behind has minutes of them) are dropped rather than decoded.
  static func run(
    _ chunks: AsyncThrowingStream<AudioChunk, any Error>, options: DecoderOptions
  ) async throws -> [Utterance] {
    let worker = WorkerThread(name: "syncups.sentence-pass", stackSize: SpeechDecoder.stackSize)
    let pass = try await worker.run {
      try SentencePass(options: options, worker: worker)
    }
    let cancelled = StopFlag()
    return try await withTaskCancellationHandler {
      do {
        for try await chunk in chunks {
          worker.submit { if !cancelled.isSet { pass.process(chunk) } }
        }
      } catch is CancellationError {
        throw CancellationError()
      } catch {
        // The live pass reports the audio's errors; what was heard before still counts here.
      }
      let utterances = try await worker.run { cancelled.isSet ? nil : pass.finish() }
      guard let utterances else { throw CancellationError() }
      return utterances
    } onCancel: {
      cancelled.set()
    }
  }

  private func process(_ chunk: AudioChunk) {
    if origin == nil { origin = chunk.start }
    voices?.process(chunk.samples)
    collect(decoder.process(chunk.samples))
  }

  private func finish() -> [Utterance] {
    collect(decoder.finish())
    return utterances
  }

  private func collect(_ sentences: [Utterance]) {
    let shift = origin ?? 0
    for var sentence in sentences {
      sentence.voice = voices?.take(from: sentence.start, to: sentence.end, origin: shift)
      utterances.append(sentence.shifted(by: shift))
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
