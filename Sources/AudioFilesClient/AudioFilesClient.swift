import AudioCore
import Dependencies
import DependenciesMacros
import Foundation

/// Reads audio files as 16 kHz mono chunks and writes the meeting's audio (FLAC/WAV/OGG).
@DependencyClient
public struct AudioFilesClient: Sendable {
  /// What the file holds, as stored.
  public var info: @Sendable (_ url: URL) throws -> AudioFileInfo
  /// The file as 16 kHz mono 16-bit chunks of 100 ms, read on demand (never held whole).
  /// Opening errors (missing, empty, not audio) are thrown here; read errors end the stream.
  public var read: @Sendable (_ url: URL) throws -> AsyncThrowingStream<AudioChunk, any Error>
  /// Writes samples as a whole new file, in the format the extension names.
  public var write: @Sendable (_ samples: [Int16], _ url: URL) throws -> Void
  /// Appends samples to the file at `url`, creating it on the first call; `close` finishes it.
  public var append: @Sendable (_ samples: [Int16], _ url: URL) throws -> Void
  /// Finishes a file written with `append` (FLAC needs this to be complete).
  public var close: @Sendable (_ url: URL) throws -> Void
  /// Renames a finished file, creating the destination's folder (a meeting's audio is filed
  /// under the meeting's id once it is saved).
  public var move: @Sendable (_ source: URL, _ destination: URL) throws -> Void
  /// Deletes a file (the audio of a discarded meeting).
  public var delete: @Sendable (_ url: URL) throws -> Void
}

extension AudioFilesClient: DependencyKey {
  public static var liveValue: AudioFilesClient {
    let writers = OpenWriters()
    return AudioFilesClient(
      info: { url in try AudioFileReader(path: url.path).info },
      read: { url in try AudioFileReader(path: url.path).chunks() },
      write: { samples, url in
        let writer = try AudioFileWriter(path: url.path)
        try writer.append(samples)
        try writer.close()
      },
      append: { samples, url in try writers.append(samples, to: url.path) },
      close: { url in try writers.close(url.path) },
      move: { source, destination in
        try FileManager.default.createDirectory(
          at: destination.deletingLastPathComponent(), withIntermediateDirectories: true
        )
        try FileManager.default.moveItem(at: source, to: destination)
      },
      delete: { url in try FileManager.default.removeItem(at: url) }
    )
  }

  public static let testValue = AudioFilesClient()
}

extension DependencyValues {
  public var audioFiles: AudioFilesClient {
    get { self[AudioFilesClient.self] }
    set { self[AudioFilesClient.self] = newValue }
  }
}

extension AudioFileReader {
  /// The rest of the file as a stream that reads a chunk only when the consumer asks for it.
  public func chunks() -> AsyncThrowingStream<AudioChunk, any Error> {
    let reader = LockedReader(self)
    return AsyncThrowingStream { try reader.next() }
  }
}

/// Lets a stream's `unfolding` closure (which may run on any thread) use one reader.
private final class LockedReader: @unchecked Sendable {
  private let lock = NSLock()
  private let reader: AudioFileReader
  init(_ reader: AudioFileReader) { self.reader = reader }
  func next() throws -> AudioChunk? {
    try lock.withLock { try reader.next() }
  }
}

/// The files being written with `append`, by path.
private final class OpenWriters: @unchecked Sendable {
  private let lock = NSLock()
  private var writers: [String: AudioFileWriter] = [:]

  func append(_ samples: [Int16], to path: String) throws {
    try lock.withLock {
      let writer = try writers[path] ?? {
        // A meeting's audio goes into the data directory's audio folder, made on first use.
        try FileManager.default.createDirectory(
          atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true
        )
        return try AudioFileWriter(path: path)
      }()
      writers[path] = writer
      try writer.append(samples)
    }
  }

  func close(_ path: String) throws {
    try lock.withLock {
      guard let writer = writers.removeValue(forKey: path) else { return }
      try writer.close()
    }
  }
}
