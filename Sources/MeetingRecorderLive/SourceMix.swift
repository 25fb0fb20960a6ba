import AudioCaptureClient
import AudioCore
import Foundation
import MeetingRecorder

/// A chunk of a recording's input and how loud each of its sources was in it.
struct HeardChunk: Sendable {
  var chunk: AudioChunk
  var levels: [AudioLevel]
}

/// Records several PulseAudio sources at once, through the capture client, and mixes them into
/// one stream with `AudioMixer` (one source is the same path: its chunks come out as they went
/// in). All start or none does; when one breaks, the others are stopped, what every source had
/// delivered is still mixed and handed on, then the stream ends with that source's error.
enum SourceMix {
  /// The sources' names (nil: the server's default), in the order their levels are given.
  static func start(
    _ sources: [String?], capture: AudioCaptureClient
  ) async throws -> AsyncThrowingStream<HeardChunk, any Error> {
    let streams = try await startAll(sources, capture: capture)
    let (output, continuation) = AsyncThrowingStream<HeardChunk, any Error>.makeStream()
    let mixing = Mixing(names: sources.map { $0 ?? "default" }, output: continuation)
    let pumps = streams.enumerated().map { index, stream in
      Task {
        do {
          for try await chunk in stream { mixing.append(chunk.samples, from: index) }
          mixing.end(index, failure: nil)
        } catch {
          // One source broke: the others stop, so the meeting keeps what was heard until now.
          mixing.end(index, failure: error)
          await capture.stop()
        }
      }
    }
    continuation.onTermination = { _ in
      for pump in pumps { pump.cancel() }
    }
    return output
  }

  /// Connects to every source at once; if one cannot be recorded, those that could are stopped
  /// and the first failure (in the sources' order) is thrown.
  private static func startAll(
    _ sources: [String?], capture: AudioCaptureClient
  ) async throws -> [AsyncThrowingStream<AudioChunk, any Error>] {
    let results = await withTaskGroup(
      of: (Int, Result<AsyncThrowingStream<AudioChunk, any Error>, any Error>).self
    ) { group in
      for (index, source) in sources.enumerated() {
        group.addTask {
          do {
            return (index, .success(try await capture.start(source)))
          } catch {
            return (index, .failure(error))
          }
        }
      }
      var results: [(Int, Result<AsyncThrowingStream<AudioChunk, any Error>, any Error>)] = []
      for await result in group { results.append(result) }
      return results.sorted { $0.0 < $1.0 }.map(\.1)
    }
    do {
      return try results.map { try $0.get() }
    } catch {
      if results.count > 1 { await capture.stop() }
      throw error
    }
  }
}

/// The mixer, each source's level meter and the output, shared by the sources' readers.
private final class Mixing: @unchecked Sendable {
  private let lock = NSLock()
  private var mixer: AudioMixer
  private var meters: [LevelMeter]
  private var failure: (any Error)?
  private let output: AsyncThrowingStream<HeardChunk, any Error>.Continuation

  init(names: [String], output: AsyncThrowingStream<HeardChunk, any Error>.Continuation) {
    mixer = AudioMixer(sources: names.count)
    meters = names.map { LevelMeter(source: $0) }
    self.output = output
  }

  func append(_ samples: [Int16], from index: Int) {
    lock.withLock {
      mixer.append(samples, from: index)
      flush()
    }
  }

  /// Source `index` ended (with `failure` if it broke). Once all have, the stream ends, with the
  /// first failure if there was one.
  func end(_ index: Int, failure: (any Error)?) {
    lock.withLock {
      if self.failure == nil { self.failure = failure }
      mixer.end(index)
      flush()
      guard mixer.isFinished else { return }
      if let failure = self.failure {
        output.finish(throwing: failure)
      } else {
        output.finish()
      }
    }
  }

  /// Hands on everything the mixer can mix now (called with the lock held, so in order).
  private func flush() {
    while let mix = mixer.next() {
      let levels = mix.parts.indices.compactMap { meters[$0].measure(mix.parts[$0]) }
      output.yield(HeardChunk(chunk: mix.chunk, levels: levels))
    }
  }
}

/// One source's loudness for each chunk, and how long it has been silent, in audio time.
struct LevelMeter: Sendable {
  let source: String
  private var lastSound: Double?
  private var start: Double?

  init(source: String) { self.source = source }

  mutating func measure(_ chunk: AudioChunk) -> AudioLevel? {
    guard !chunk.samples.isEmpty else { return nil }
    let sum = chunk.samples.reduce(0.0) { $0 + Double($1) * Double($1) }
    let rms = (sum / Double(chunk.samples.count)).squareRoot() / 32768
    let decibels = 20 * log10(max(rms, 1e-6))
    if start == nil { start = chunk.start }
    if decibels > -45 { lastSound = chunk.end }
    return AudioLevel(
      source: source, loudness: min(1, max(0, (decibels + 60) / 60)),
      silentFor: chunk.end - (lastSound ?? start ?? 0))
  }

  /// A file's chunks with its level, as a source of one.
  static func measuring(
    _ chunks: AsyncThrowingStream<AudioChunk, any Error>, as source: String
  ) -> AsyncThrowingStream<HeardChunk, any Error> {
    let measured = Measured(chunks, meter: LevelMeter(source: source))
    return AsyncThrowingStream { try await measured.next() }
  }
}

/// A stream's chunks measured one at a time (pulled by one consumer at a time).
private final class Measured: @unchecked Sendable {
  private var iterator: AsyncThrowingStream<AudioChunk, any Error>.AsyncIterator
  private var meter: LevelMeter

  init(_ chunks: AsyncThrowingStream<AudioChunk, any Error>, meter: LevelMeter) {
    iterator = chunks.makeAsyncIterator()
    self.meter = meter
  }

  func next() async throws -> HeardChunk? {
    guard let chunk = try await iterator.next() else { return nil }
    return HeardChunk(chunk: chunk, levels: meter.measure(chunk).map { [$0] } ?? [])
  }
}
