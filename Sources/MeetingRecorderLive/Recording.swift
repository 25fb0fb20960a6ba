import AudioCaptureClient
import AudioCore
import AudioFilesClient
import ErrorWords
import Foundation
import MeetingRecorder
import TranscriptionClient

/// One recording, from opening its input to `.finished`: the input's chunks go through the
/// `ChunkFeed` (audio file, level, seconds) to the live pass and, when the audio is kept, to the
/// second pass on a thread of its own, whose sentences come before `.finished`. Cancelled (the
/// meeting was discarded), it stops at once and deletes the audio.
struct Recording: Sendable {
  let request: RecordingRequest
  let stop: StopRequest
  let audioCapture: AudioCaptureClient
  let audioFiles: AudioFilesClient
  let transcription: TranscriptionClient
  let clock: any Clock<Duration>
  let emit: @Sendable (RecordingEvent) -> Void

  func run() async {
    await withTaskCancellationHandler {
      await record()
    } onCancel: {
      stop.stop()
    }
  }

  private func record() async {
    if request.transcribes {
      do {
        try await transcription.checkModel()
      } catch {
        return emit(.startFailed("\(error)"))
      }
    }
    let chunks: AsyncThrowingStream<HeardChunk, any Error>
    do {
      chunks = try await open()
    } catch {
      return emit(.inputUnavailable(describe(error)))
    }
    let options = TranscriptionOptions(
      vocabulary: request.vocabulary, teamModel: request.teamModel?.path)
    let sentences =
      request.transcribes && request.audioFile != nil
      ? AsyncThrowingStream<AudioChunk, any Error>.makeStream() : nil
    let feed = ChunkFeed(
      chunks, request: request, stop: stop, audioFiles: audioFiles, clock: clock, emit: emit,
      sentences: sentences?.continuation)
    // How far the second pass has taken the audio the input gave, in seconds.
    let progress = SecondPassProgress()
    let secondPass = sentences.map { sentences in
      Task {
        try await transcription.transcribeSentences(progress.counting(sentences.stream), options)
      }
    }
    var failure: String?
    do {
      let fed = AsyncThrowingStream<AudioChunk, any Error> {
        let chunk = try await feed.next()
        if let chunk { progress.fed(chunk) }
        return chunk
      }
      if request.transcribes {
        for try await event in try await transcription.transcribeMeeting(fed, options) {
          switch event {
          case .partial(let text): emit(.partial(text))
          case .final(let utterance): emit(.utterance(utterance))
          }
        }
      } else {
        for try await _ in fed {}
      }
    } catch {
      failure = describe(error)
    }
    sentences?.continuation.finish()
    // Without the kept audio (it could not be written) there are no sentences to wait for.
    if let secondPass, feed.keepsAudio, !Task.isCancelled {
      emit(
        request.waitsForSentences
          ? await Self.awaited(secondPass, progress: progress, clock: clock, emit: emit)
          : await Self.outcome(of: secondPass, clock: clock))
    } else {
      secondPass?.cancel()
    }
    // Whatever was recorded before a failure is kept: the audio file is finished.
    let kept = await feed.closeAudio()
    guard !Task.isCancelled else {
      secondPass?.cancel()
      return await feed.deleteAudio()
    }
    emit(failure.map { .failed($0, keptAudio: kept) } ?? .finished(keptAudio: kept))
  }

  /// The input's chunks with their levels; a microphone (or several, mixed) stops capturing
  /// when the recording is stopped.
  private func open() async throws -> AsyncThrowingStream<HeardChunk, any Error> {
    let sources: [String?]
    switch request.input {
    case .microphone(let source):
      sources = [source]
    case .mix(let names):
      sources = names
    case .file(let url, _):
      return LevelMeter.measuring(try await audioFiles.read(url), as: url.lastPathComponent)
    }
    let chunks = try await SourceMix.start(sources, capture: audioCapture)
    stop.onStop { [audioCapture] in Task { await audioCapture.stop() } }
    return chunks
  }

  /// The second pass's sentences, however long it takes once its input has ended (nobody waits
  /// on a microphone), saying how far it is every fifth of a second; why if it fails.
  static func awaited(
    _ secondPass: Task<[Utterance], any Error>, progress: SecondPassProgress,
    clock: any Clock<Duration>, emit: @escaping @Sendable (RecordingEvent) -> Void
  ) async -> RecordingEvent {
    let reporter = Task {
      var said: Double?
      while !Task.isCancelled {
        let fraction = progress.fraction
        if fraction != said { emit(.sentencesProgress(fraction)) }
        said = fraction
        guard (try? await clock.sleep(for: .milliseconds(200))) != nil else { return }
      }
    }
    defer { reporter.cancel() }
    return await withTaskCancellationHandler {
      do {
        return .sentences(try await secondPass.value)
      } catch is CancellationError {
        return .sentencesFailed("was stopped")
      } catch {
        return .sentencesFailed("failed (\(describe(error)))")
      }
    } onCancel: {
      secondPass.cancel()
    }
  }

  /// The second pass's sentences once its input has ended; why if it fails; `.sentencesLate`
  /// if it has not caught up within `catchUpBound`.
  static func outcome(
    of secondPass: Task<[Utterance], any Error>, clock: any Clock<Duration>
  ) async -> RecordingEvent {
    await withTaskCancellationHandler {
      await withTaskGroup(of: RecordingEvent?.self) { group in
        group.addTask {
          do {
            return .sentences(try await secondPass.value)
          } catch is CancellationError {
            return nil
          } catch {
            return .sentencesFailed("failed (\(describe(error)))")
          }
        }
        group.addTask {
          guard (try? await clock.sleep(for: MeetingRecorder.catchUpBound)) != nil else {
            return nil
          }
          secondPass.cancel()
          return .sentencesLate
        }
        var outcome: RecordingEvent?
        while outcome == nil, let next = await group.next() {
          outcome = next
          group.cancelAll()
        }
        return outcome ?? .sentencesFailed("was stopped")
      }
    } onCancel: {
      secondPass.cancel()
    }
  }
}

/// An error in words, naming the file a file error concerns (`ErrorWords`).
func describe(_ error: any Error) -> String {
  ErrorWords.describe(error, namingPath: true)
}

/// How far the second pass is: the end of the audio the input gave, and of what the pass took.
final class SecondPassProgress: @unchecked Sendable {
  private let lock = NSLock()
  private var given = 0.0
  private var taken = 0.0

  func fed(_ chunk: AudioChunk) { lock.withLock { given = max(given, chunk.end) } }

  /// 0…1: the share of the given audio the pass has taken.
  var fraction: Double {
    lock.withLock { given > 0 ? min(1, taken / given) : 0 }
  }

  /// `chunks`, noting each one the pass takes.
  func counting(
    _ chunks: AsyncThrowingStream<AudioChunk, any Error>
  ) -> AsyncThrowingStream<AudioChunk, any Error> {
    let iterator = Iterator(chunks.makeAsyncIterator())
    return AsyncThrowingStream { [self] in
      let chunk = try await iterator.next()
      if let chunk { lock.withLock { taken = max(taken, chunk.end) } }
      return chunk
    }
  }

  /// One consumer at a time takes from it (the second pass).
  private final class Iterator: @unchecked Sendable {
    var base: AsyncThrowingStream<AudioChunk, any Error>.AsyncIterator
    init(_ base: AsyncThrowingStream<AudioChunk, any Error>.AsyncIterator) { self.base = base }
    func next() async throws -> AudioChunk? { try await base.next() }
  }
}
