import AudioCaptureClient
import AudioCore
import AudioFilesClient
import ConcurrencyExtras
import Foundation

/// The microphone level for the recording screen, measured on the chunks as they pass: a view
/// concern, so it wraps the capture client instead of living in the feature.
public final class LevelMeter: Sendable {
  private struct Reading {
    var level = 0.0
    var lastSound: ContinuousClock.Instant?
    var started: ContinuousClock.Instant?
  }

  private let reading = LockIsolated(Reading())

  public init() {}

  /// 0…1: the chunk's loudness on a −60…0 dBFS scale.
  public var level: Double { reading.value.level }

  /// Seconds since anything louder than a whisper was heard (since the start if never).
  public var silentFor: Double? {
    let reading = reading.value
    guard let since = reading.lastSound ?? reading.started else { return nil }
    let elapsed = ContinuousClock.now - since
    return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
  }

  func measure(_ chunk: AudioChunk) {
    guard !chunk.samples.isEmpty else { return }
    let sum = chunk.samples.reduce(0.0) { $0 + Double($1) * Double($1) }
    let rms = (sum / Double(chunk.samples.count)).squareRoot() / 32768
    let decibels = 20 * log10(max(rms, 1e-6))
    let now = ContinuousClock.now
    reading.withValue {
      $0.level = min(1, max(0, (decibels + 60) / 60))
      if $0.started == nil { $0.started = now }
      if decibels > -45 { $0.lastSound = now }
    }
  }
}

extension AudioCaptureClient {
  /// The same capture, with every chunk measured by `meter` on its way.
  public func metered(by meter: LevelMeter) -> AudioCaptureClient {
    var client = self
    let start = self.start
    client.start = { source in
      let chunks = try await start(source)
      return AsyncThrowingStream { continuation in
        let task = Task {
          do {
            for try await chunk in chunks {
              meter.measure(chunk)
              continuation.yield(chunk)
            }
            continuation.finish()
          } catch {
            continuation.finish(throwing: error)
          }
        }
        continuation.onTermination = { _ in task.cancel() }
      }
    }
    return client
  }
}

extension AudioFilesClient {
  /// The same files, with every chunk read measured by `meter` as it is pulled.
  public func metered(by meter: LevelMeter) -> AudioFilesClient {
    var client = self
    let read = self.read
    client.read = { url in
      let chunks = MeteredChunks(try await read(url), meter: meter)
      return AsyncThrowingStream { try await chunks.next() }
    }
    return client
  }
}

/// Pulls one chunk at a time (the reader's pace stays the consumer's) and measures it.
private final class MeteredChunks: @unchecked Sendable {
  private var iterator: AsyncThrowingStream<AudioChunk, any Error>.AsyncIterator
  private let meter: LevelMeter

  init(_ chunks: AsyncThrowingStream<AudioChunk, any Error>, meter: LevelMeter) {
    iterator = chunks.makeAsyncIterator()
    self.meter = meter
  }

  func next() async throws -> AudioChunk? {
    let chunk = try await iterator.next()
    if let chunk { meter.measure(chunk) }
    return chunk
  }
}
