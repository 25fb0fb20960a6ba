import AudioCore
import Dependencies
import Foundation
import IssueReporting

/// Records 16 kHz mono audio from a PulseAudio source. The live value and the file replay are in
/// `AudioCaptureClientLive`; both read on threads of their own and only hand chunks across.
public struct AudioCaptureClient: Sendable {
  /// Throws the error `start` would (no server, no such source) without recording.
  public var checkAvailability: @Sendable (_ source: String?) async throws -> Void = unimplemented(
    "AudioCaptureClient.checkAvailability")
  /// The server's sources.
  public var sources: @Sendable () async throws -> [AudioSource] = unimplemented(
    "AudioCaptureClient.sources")
  /// Starts recording from the named source (nil: the server's default). Chunks arrive every
  /// 50 ms; the stream ends after `stop()`, or with an error if the server goes away.
  public var start:
    @Sendable (_ source: String?) async throws -> AsyncThrowingStream<AudioChunk, any Error> =
      unimplemented("AudioCaptureClient.start")
  /// Ends every running recording normally (their streams finish after the current fragment).
  public var stop: @Sendable () async -> Void = unimplemented("AudioCaptureClient.stop")

  public init(
    checkAvailability: @escaping @Sendable (_ source: String?) async throws -> Void,
    sources: @escaping @Sendable () async throws -> [AudioSource],
    start:
      @escaping @Sendable (_ source: String?) async throws -> AsyncThrowingStream<
        AudioChunk, any Error
      >,
    stop: @escaping @Sendable () async -> Void
  ) {
    self.checkAvailability = checkAvailability
    self.sources = sources
    self.start = start
    self.stop = stop
  }

  /// Every endpoint unimplemented: calling one reports an issue (and throws, or returns a
  /// placeholder). The test value.
  public init() {}
}

extension AudioCaptureClient: TestDependencyKey {
  public static let testValue = AudioCaptureClient()
}

extension DependencyValues {
  public var audioCapture: AudioCaptureClient {
    get { self[AudioCaptureClient.self] }
    set { self[AudioCaptureClient.self] = newValue }
  }
}
