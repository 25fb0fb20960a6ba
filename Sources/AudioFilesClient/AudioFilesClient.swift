import AudioCore
import Dependencies
import Foundation
import IssueReporting

/// Reads audio files as 16 kHz mono chunks and writes the meeting's audio (FLAC/WAV/OGG).
/// The live value (module `AudioFilesClientLive`, libsndfile) does every read, write, fsync,
/// move and delete on a thread of its own: callers await it, the cooperative pool never blocks.
public struct AudioFilesClient: Sendable {
  /// What the file holds, as stored.
  public var info: @Sendable (_ url: URL) async throws -> AudioFileInfo = unimplemented(
    "AudioFilesClient.info")
  /// The file as 16 kHz mono 16-bit chunks of 100 ms, read on demand (never held whole).
  /// Opening errors (missing, empty, not audio) are thrown here; read errors end the stream.
  public var read:
    @Sendable (_ url: URL) async throws -> AsyncThrowingStream<AudioChunk, any Error> =
      unimplemented("AudioFilesClient.read")
  /// Writes samples as a whole new file, in the format the extension names.
  public var write: @Sendable (_ samples: [Int16], _ url: URL) async throws -> Void = unimplemented(
    "AudioFilesClient.write")
  /// Appends samples to the file at `url`, creating it on the first call; `close` finishes it.
  public var append: @Sendable (_ samples: [Int16], _ url: URL) async throws -> Void =
    unimplemented("AudioFilesClient.append")
  /// Finishes a file written with `append` (FLAC needs this to be complete).
  public var close: @Sendable (_ url: URL) async throws -> Void = unimplemented(
    "AudioFilesClient.close")
  /// Renames a finished file, creating the destination's folder (a meeting's audio is filed
  /// under the meeting's id once it is saved). Never replaces a file already there.
  public var move: @Sendable (_ source: URL, _ destination: URL) async throws -> Void =
    unimplemented("AudioFilesClient.move")
  /// Deletes a file (the audio of a discarded meeting).
  public var delete: @Sendable (_ url: URL) async throws -> Void = unimplemented(
    "AudioFilesClient.delete")

  public init(
    info: @escaping @Sendable (_ url: URL) async throws -> AudioFileInfo,
    read:
      @escaping @Sendable (_ url: URL) async throws -> AsyncThrowingStream<AudioChunk, any Error>,
    write: @escaping @Sendable (_ samples: [Int16], _ url: URL) async throws -> Void,
    append: @escaping @Sendable (_ samples: [Int16], _ url: URL) async throws -> Void,
    close: @escaping @Sendable (_ url: URL) async throws -> Void,
    move: @escaping @Sendable (_ source: URL, _ destination: URL) async throws -> Void,
    delete: @escaping @Sendable (_ url: URL) async throws -> Void
  ) {
    self.info = info
    self.read = read
    self.write = write
    self.append = append
    self.close = close
    self.move = move
    self.delete = delete
  }

  /// Every endpoint unimplemented: calling one reports an issue (and throws, or returns a
  /// placeholder). The test value.
  public init() {}
}

/// What a file holds, as stored (before conversion to 16 kHz mono).
public struct AudioFileInfo: Sendable, Equatable {
  public var sampleRate: Int
  public var channels: Int
  /// Frames (samples per channel) the file's header says it holds; 0 when the header does not
  /// know (a FLAC whose writer was killed before finishing it): such a file is read to its end.
  public var frames: Int
  /// Seconds.
  public var duration: Double { sampleRate > 0 ? Double(frames) / Double(sampleRate) : 0 }

  public init(sampleRate: Int, channels: Int, frames: Int) {
    self.sampleRate = sampleRate
    self.channels = channels
    self.frames = frames
  }
}

extension AudioFilesClient: TestDependencyKey {
  public static let testValue = AudioFilesClient()
}

extension DependencyValues {
  public var audioFiles: AudioFilesClient {
    get { self[AudioFilesClient.self] }
    set { self[AudioFilesClient.self] = newValue }
  }
}
