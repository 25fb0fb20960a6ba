import AudioCaptureClient
import AudioCore
import CPulse
import Foundation

/// Records from PulseAudio with the simple API: s16le, 16 kHz, mono (the server resamples and
/// down-mixes), in 50 ms fragments, read on a dedicated thread so a slow consumer never makes
/// the server overrun; chunks wait in the stream's buffer instead.
final class PulseCapture: @unchecked Sendable {
  /// 50 ms of 16 kHz mono 16-bit audio.
  static let fragmentBytes = 1_600

  private let simple: OpaquePointer
  /// The source's name, for saying it went away (nil: the server's default).
  private let source: String?
  private let continuation: AsyncThrowingStream<AudioChunk, any Error>.Continuation
  private let lock = NSLock()
  private var stopRequested = false
  /// Signalled on stop, so the watcher does not wait out its interval.
  private let stopped = DispatchSemaphore(value: 0)

  /// Connects (throwing a clear error when it cannot) and starts the reading thread.
  static func start(
    server: String?, source: String?, onEnd: @escaping @Sendable (PulseCapture) -> Void = { _ in }
  ) throws(AudioCaptureError)
    -> (PulseCapture, AsyncThrowingStream<AudioChunk, any Error>)
  {
    let simple = try connect(server: server, source: source)
    let (stream, continuation) = AsyncThrowingStream<AudioChunk, any Error>.makeStream()
    let capture = PulseCapture(simple: simple, source: source, continuation: continuation)
    continuation.onTermination = { _ in
      capture.stop()
      onEnd(capture)
    }
    let thread = Thread { capture.readLoop() }
    thread.name = "syncups.pulse-capture"
    thread.start()
    if let source {
      let watcher = Thread { capture.watch(source, server: server) }
      watcher.name = "syncups.pulse-watch"
      watcher.start()
    }
    return (capture, stream)
  }

  /// Opens a record stream; used on its own to check that recording would work.
  static func connect(server: String?, source: String?) throws(AudioCaptureError) -> OpaquePointer {
    var spec = pa_sample_spec(
      format: PA_SAMPLE_S16LE, rate: UInt32(AudioFormat.sampleRate), channels: 1)
    var attributes = pa_buffer_attr(
      maxlength: UInt32.max, tlength: UInt32.max, prebuf: UInt32.max, minreq: UInt32.max,
      fragsize: UInt32(fragmentBytes))
    var error: Int32 = 0
    let simple = pa_simple_new(
      server, "SyncUps", PA_STREAM_RECORD, source, "meeting", &spec, nil, &attributes, &error)
    guard let simple else {
      let reason = String(cString: pa_strerror(error))
      switch error {
      case Int32(PA_ERR_NOENTITY.rawValue):
        throw .sourceNotFound(name: source ?? "(default)")
      case Int32(PA_ERR_CONNECTIONREFUSED.rawValue), Int32(PA_ERR_INVALIDSERVER.rawValue),
        Int32(PA_ERR_CONNECTIONTERMINATED.rawValue), Int32(PA_ERR_TIMEOUT.rawValue):
        throw .serverNotRunning(reason: reason)
      default:
        throw .failed(reason: reason)
      }
    }
    return simple
  }

  static func free(_ simple: OpaquePointer) { pa_simple_free(simple) }

  private init(
    simple: OpaquePointer, source: String?,
    continuation: AsyncThrowingStream<AudioChunk, any Error>.Continuation
  ) {
    self.simple = simple
    self.source = source
    self.continuation = continuation
  }

  /// Ends the stream normally, at once. The reading thread lets go of the server when its
  /// current read returns (at most a fragment later while the source delivers audio).
  func stop() {
    lock.withLock { stopRequested = true }
    stopped.signal()
    continuation.finish()
  }

  /// How often the watcher looks for the source.
  static let watchInterval: Double = 0.5

  /// A named source that goes away (unplugged, its module unloaded) ends the stream with
  /// `sourceGone`: PulseAudio itself would quietly move the recording to another source, which
  /// may be one that is already recorded. Looks every `watchInterval`, on a thread of its own.
  private func watch(_ source: String, server: String?) {
    while stopped.wait(timeout: .now() + Self.watchInterval) == .timedOut, !isStopped {
      // A server that cannot be asked is the reading thread's to report.
      guard let sources = try? PulseSources.list(server: server),
        !sources.contains(where: { $0.name == source })
      else { continue }
      lock.withLock { stopRequested = true }
      continuation.finish(throwing: AudioCaptureError.sourceGone(name: source))
      return
    }
  }

  private var isStopped: Bool { lock.withLock { stopRequested } }

  private func readLoop() {
    defer { pa_simple_free(simple) }
    var buffer = [Int16](repeating: 0, count: Self.fragmentBytes / 2)
    var position = 0
    while !isStopped {
      var error: Int32 = 0
      let status = buffer.withUnsafeMutableBytes { bytes in
        pa_simple_read(simple, bytes.baseAddress, bytes.count, &error)
      }
      if isStopped { break }
      if status < 0 {
        continuation.finish(throwing: lost(error))
        return
      }
      continuation.yield(AudioChunk(samples: buffer, startSample: position))
      position += buffer.count
    }
    continuation.finish()
  }

  /// Why a read failed: the source was removed (its stream killed), or the server went away.
  private func lost(_ error: Int32) -> AudioCaptureError {
    if error == Int32(PA_ERR_KILLED.rawValue) || error == Int32(PA_ERR_NOENTITY.rawValue) {
      return .sourceGone(name: source ?? "(default)")
    }
    return .connectionLost(reason: String(cString: pa_strerror(error)))
  }
}
