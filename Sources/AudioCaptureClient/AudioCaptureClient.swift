import AudioCore
import AudioFilesClient
import Dependencies
import DependenciesMacros
import Foundation

/// Records 16 kHz mono audio from a PulseAudio source.
@DependencyClient
public struct AudioCaptureClient: Sendable {
  /// Throws the error `start` would (no server, no such source) without recording.
  public var checkAvailability: @Sendable (_ source: String?) async throws -> Void
  /// The server's sources.
  public var sources: @Sendable () async throws -> [AudioSource]
  /// Starts recording from the named source (nil: the server's default). Chunks arrive every
  /// 50 ms; the stream ends after `stop()`, or with an error if the server goes away.
  public var start: @Sendable (_ source: String?) async throws -> AsyncThrowingStream<AudioChunk, any Error>
  /// Ends every running recording normally (their streams finish after the current fragment).
  public var stop: @Sendable () async -> Void
}

extension AudioCaptureClient: DependencyKey {
  public static var liveValue: AudioCaptureClient { .live() }

  /// Records through PulseAudio. `server` overrides PULSE_SERVER (e.g. "unix:/nonexistent").
  public static func live(server: String? = nil) -> AudioCaptureClient {
    let running = Running<PulseCapture>()
    return AudioCaptureClient(
      checkAvailability: { source in
        let simple = try PulseCapture.connect(server: server, source: source)
        PulseCapture.free(simple)
      },
      sources: { try PulseSources.list(server: server) },
      start: { source in
        let (capture, stream) = try PulseCapture.start(server: server, source: source) {
          running.remove($0)
        }
        running.add(capture)
        return stream
      },
      stop: { running.removeAll().forEach { $0.stop() } }
    )
  }

  public static let testValue = AudioCaptureClient()

  /// How a replay delivers the file.
  public enum Pace: Sendable, Equatable {
    /// One chunk every chunk's duration, as a microphone would.
    case realTime
    /// As fast as the consumer takes them.
    case asFastAsPossible
  }

  /// A capture that "records" an audio file: every source replays it, in `chunkSamples` chunks.
  public static func replaying(
    _ url: URL, pace: Pace = .asFastAsPossible, chunkSamples: Int = 800
  ) -> AudioCaptureClient {
    let running = Running<ReplayStop>()
    return AudioCaptureClient(
      checkAvailability: { _ in _ = try AudioFileReader(path: url.path).info },
      sources: { [AudioSource(name: "replay", description: url.lastPathComponent, isDefault: true)] },
      start: { _ in
        let reader = try AudioFileReader(path: url.path, chunkSamples: chunkSamples)
        let stop = ReplayStop()
        running.add(stop)
        let chunks = reader.chunks()
        return AsyncThrowingStream { continuation in
          let task = Task {
            let clock = ContinuousClock()
            let started = clock.now
            do {
              for try await chunk in chunks {
                if stop.isStopped { break }
                if pace == .realTime {
                  try await clock.sleep(until: started + .seconds(chunk.end))
                }
                continuation.yield(chunk)
              }
              continuation.finish()
            } catch {
              continuation.finish(throwing: error)
            }
          }
          continuation.onTermination = { _ in
            task.cancel()
            running.remove(stop)
          }
        }
      },
      stop: { running.removeAll().forEach { $0.stop() } }
    )
  }
}

extension DependencyValues {
  public var audioCapture: AudioCaptureClient {
    get { self[AudioCaptureClient.self] }
    set { self[AudioCaptureClient.self] = newValue }
  }
}

/// The recordings a client has started, so `stop` can end them.
private final class Running<Element: AnyObject & Sendable>: @unchecked Sendable {
  private let lock = NSLock()
  private var elements: [Element] = []
  func add(_ element: Element) { lock.withLock { elements.append(element) } }
  func remove(_ element: Element) { lock.withLock { elements.removeAll { $0 === element } } }
  func removeAll() -> [Element] {
    lock.withLock {
      defer { elements = [] }
      return elements
    }
  }
}

private final class ReplayStop: @unchecked Sendable {
  private let lock = NSLock()
  private var stopped = false
  var isStopped: Bool { lock.withLock { stopped } }
  func stop() { lock.withLock { stopped = true } }
}
