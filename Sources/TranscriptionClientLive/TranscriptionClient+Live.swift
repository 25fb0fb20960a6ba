import AudioCore
import AudioFilesClientLive
import Dependencies
import Foundation
import TranscriptionClient
import WorkerThreads

extension TranscriptionClient: DependencyKey {
  public static let liveValue = TranscriptionClient.live()

  /// The live client with the given decoder options (model folder, verbosity, endpointing).
  /// Every decoder lives on a thread of its own; the cooperative pool only passes chunks and
  /// results along.
  public static func live(options: DecoderOptions = DecoderOptions()) -> TranscriptionClient {
    TranscriptionClient(
      checkModel: {
        try await WorkerThread.run(name: "syncups.model-check") {
          _ = try SpeechModel.resolve(explicit: options.modelDirectory)
        }
      },
      transcribe: { chunks in
        let decoder = try await DecoderThread.start(options: options)
        let (events, continuation) = AsyncThrowingStream<TranscriptionEvent, any Error>.makeStream()
        let task = Task {
          do {
            for try await chunk in chunks {
              for event in try await decoder.process(chunk.samples) { continuation.yield(event) }
            }
            // Cancelled: nobody waits for the last utterance.
            if !Task.isCancelled {
              for event in try await decoder.finish() { continuation.yield(event) }
            }
            continuation.finish()
          } catch {
            // Whatever was heard before the failure still counts.
            if !Task.isCancelled, let events = try? await decoder.finish() {
              for event in events { continuation.yield(event) }
            }
            continuation.finish(throwing: error)
          }
        }
        continuation.onTermination = { _ in task.cancel() }
        return events
      },
      transcribeFile: { url in
        var fileOptions = options
        fileOptions.partials = false
        let options = fileOptions
        let worker = WorkerThread(name: "syncups.decoder", stackSize: SpeechDecoder.stackSize)
        return try await worker.run { stop in
          let decoder = try SpeechDecoder(options: options)
          let transcript = try decoder.transcribe(AudioFileReader(path: url.path), until: stop)
          if stop.isSet { throw CancellationError() }
          return transcript
        }
      },
      transcribeMeeting: { chunks, request in
        try await TranscriptionClient.live(options: options.with(request)).transcribe(chunks)
      },
      transcribeSentences: { chunks, request in
        try await SentencePass.run(chunks, options: options.sentencePass(request))
      },
      voiceFrames: { url, from, to in
        try await WorkerThread.run(name: "syncups.voice-frames") {
          try VoiceFrontEnd.frames(of: url, from: from, to: to)
        }
      }
    )
  }
}

extension SpeechDecoder {
  /// Stack for a decoder's thread: PocketSphinx recurses deeply in places.
  public static let stackSize = 8 << 20
}

/// One decoder on the thread it lives on: each call is a job there, so chunks go in and
/// results come out while the decoding itself never runs on the cooperative pool.
final class DecoderThread: Sendable {
  private let worker: WorkerThread
  private let decoder: ThreadConfined<SpeechDecoder?>

  private init(worker: WorkerThread, decoder: ThreadConfined<SpeechDecoder?>) {
    self.worker = worker
    self.decoder = decoder
  }

  /// Loads the model on a new thread (a missing or damaged model throws here).
  static func start(options: DecoderOptions) async throws -> DecoderThread {
    let worker = WorkerThread(name: "syncups.decoder", stackSize: SpeechDecoder.stackSize)
    let decoder = try await worker.run {
      ThreadConfined<SpeechDecoder?>(try SpeechDecoder(options: options))
    }
    return DecoderThread(worker: worker, decoder: decoder)
  }

  func process(_ samples: [Int16]) async throws -> [TranscriptionEvent] {
    try await worker.run { [decoder] in decoder.value?.process(samples) ?? [] }
  }

  func finish() async throws -> [TranscriptionEvent] {
    try await worker.run { [decoder] in decoder.value?.finish() ?? [] }
  }

  /// The decoder is freed on its own thread too.
  deinit { worker.submit { [decoder] in decoder.value = nil } }
}
