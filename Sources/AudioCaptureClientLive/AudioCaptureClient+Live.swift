import AudioCaptureClient
import AudioCore
import AudioFilesClientLive
import Dependencies
import Foundation
import WorkerThreads

extension AudioCaptureClient: DependencyKey {
  public static let liveValue = AudioCaptureClient.live()

  /// Records through PulseAudio. `server` overrides PULSE_SERVER (e.g. "unix:/nonexistent").
  /// Connecting and listing block on the server: they run on threads of their own, as the
  /// recording's reads do.
  public static func live(server: String? = nil) -> AudioCaptureClient {
    let running = Running<PulseCapture>()
    return AudioCaptureClient(
      checkAvailability: { source in
        try await WorkerThread.run(name: "syncups.pulse-check") {
          let simple = try PulseCapture.connect(server: server, source: source)
          PulseCapture.free(simple)
        }
      },
      sources: {
        try await WorkerThread.run(name: "syncups.pulse-sources") {
          try PulseSources.list(server: server)
        }
      },
      start: { source in
        let (capture, stream) = try await WorkerThread.run(name: "syncups.pulse-connect") {
          try PulseCapture.start(server: server, source: source) { running.remove($0) }
        }
        running.add(capture)
        return stream
      },
      stop: { for recording in running.removeAll() { recording.stop() } }
    )
  }

  /// How a replay delivers the file.
  public enum Pace: Sendable, Equatable {
    /// One chunk every chunk's duration, as a microphone would.
    case realTime
    /// As fast as the consumer takes them.
    case asFastAsPossible
  }

  /// A capture that "records" an audio file: every source replays it, in `chunkSamples` chunks.
  /// The file is read on a thread of its own, a chunk each time the consumer asks for one, so a
  /// replay never runs ahead of its consumer, and it ends at once when its consumer's task is
  /// cancelled or `stop` is called.
  public static func replaying(
    _ url: URL, pace: Pace = .asFastAsPossible, chunkSamples: Int = 800
  ) -> AudioCaptureClient {
    let running = Running<StopFlag>()
    return AudioCaptureClient(
      checkAvailability: { _ in _ = try await ThreadedAudioReader.open(path: url.path) },
      sources: {
        [AudioSource(name: "replay", description: url.lastPathComponent, isDefault: true)]
      },
      start: { _ in
        let reader = try await ThreadedAudioReader.open(path: url.path, chunkSamples: chunkSamples)
        let stop = StopFlag()
        running.add(stop)
        let clock = ContinuousClock()
        let started = clock.now
        return AsyncThrowingStream {
          guard !stop.isSet, let chunk = try await reader.next() else {
            running.remove(stop)
            reader.close()
            return nil
          }
          if pace == .realTime {
            try await clock.sleep(until: started + .seconds(chunk.end))
          }
          return chunk
        }
      },
      stop: { for flag in running.removeAll() { flag.set() } }
    )
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
