import AudioCore
import AudioFilesClient
import Foundation
import MeetingRecorder

/// The chunks the live pass pulls, one at a time: so the decoder never falls behind a buffer, and
/// stopping takes effect at the next chunk. On its way each chunk's levels are said (`.levels`,
/// one per source), it is counted (`.recorded` at each whole second), written to the meeting's
/// audio if it is kept (a write error deletes the audio, says so once, and the recording goes on
/// without it) and handed to the second pass. Used by one consumer at a time (the live pass, then the recording after it).
final class ChunkFeed: @unchecked Sendable {
  private var iterator: AsyncThrowingStream<HeardChunk, any Error>.AsyncIterator
  private let request: RecordingRequest
  private let stop: StopRequest
  private let audioFiles: AudioFilesClient
  private let clock: any Clock<Duration>
  private let emit: @Sendable (RecordingEvent) -> Void
  /// The second pass's input: every chunk the live pass gets, finished when the input ends.
  private var sentences: AsyncThrowingStream<AudioChunk, any Error>.Continuation?
  private var audioURL: URL?
  private var wroteAudio = false
  private let started = ContinuousClock.now
  private var seconds = 0

  init(
    _ chunks: AsyncThrowingStream<HeardChunk, any Error>, request: RecordingRequest,
    stop: StopRequest, audioFiles: AudioFilesClient, clock: any Clock<Duration>,
    emit: @escaping @Sendable (RecordingEvent) -> Void,
    sentences: AsyncThrowingStream<AudioChunk, any Error>.Continuation?
  ) {
    self.iterator = chunks.makeAsyncIterator()
    self.request = request
    self.stop = stop
    self.audioFiles = audioFiles
    self.clock = clock
    self.emit = emit
    self.sentences = sentences
    self.audioURL = request.audioFile
  }

  func next() async throws -> AudioChunk? {
    do {
      guard let chunk = try await pull() else {
        sentences?.finish()
        return nil
      }
      sentences?.yield(chunk)
      return chunk
    } catch {
      // The second pass keeps what was heard before the failure.
      sentences?.finish()
      throw error
    }
  }

  private func pull() async throws -> AudioChunk? {
    guard !stop.isStopped, let heard = try await iterator.next(), !stop.isStopped else {
      return nil
    }
    let chunk = heard.chunk
    if let endsAt = request.endsAt, chunk.start >= endsAt { return nil }
    if case .file(_, .realTime) = request.input {
      let wait = started + .seconds(chunk.end) - ContinuousClock.now
      if wait > .zero { try await clock.sleep(for: wait) }
    }
    // Written first: what is reported as heard is in the audio file.
    if let url = audioURL {
      do {
        try await audioFiles.append(chunk.samples, url)
        wroteAudio = true
      } catch {
        await deleteAudio()
        // The second pass is for the kept audio: without it, there is none.
        sentences?.finish()
        sentences = nil
        emit(.audioDropped(describe(error)))
      }
    }
    if !heard.levels.isEmpty { emit(.levels(heard.levels)) }
    while Double(seconds + 1) <= chunk.end {
      seconds += 1
      emit(.recorded(seconds: seconds))
    }
    return chunk
  }

  /// The meeting's audio is still being kept.
  var keepsAudio: Bool { audioURL != nil }

  /// Finishes the audio file; whether there is audio to keep.
  func closeAudio() async -> Bool {
    guard let url = audioURL, wroteAudio else { return false }
    do {
      try await audioFiles.close(url)
      return true
    } catch {
      await deleteAudio()
      return false
    }
  }

  /// The meeting was discarded, or its audio could not be kept: the file goes.
  func deleteAudio() async {
    guard let url = audioURL else { return }
    audioURL = nil
    try? await audioFiles.close(url)
    // Even a first write that failed may have left a file behind.
    try? await audioFiles.delete(url)
    wroteAudio = false
  }
}
