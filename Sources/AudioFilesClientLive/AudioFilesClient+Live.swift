import AudioCore
import AudioFilesClient
import Dependencies
import Foundation
import WorkerThreads

extension AudioFilesClient: DependencyKey {
  /// libsndfile and the file system, each file on a thread of its own.
  public static let liveValue: AudioFilesClient = {
    let writers = OpenWriters()
    return AudioFilesClient(
      info: { url in
        try await WorkerThread.run(name: "syncups.audio-info") {
          try AudioFileReader(path: url.path).info
        }
      },
      read: { url in try await ThreadedAudioReader.open(path: url.path).chunks() },
      write: { samples, url in
        try await WorkerThread.run(name: "syncups.audio-write") {
          let writer = try AudioFileWriter(path: url.path)
          try writer.append(samples)
          try writer.close()
        }
      },
      append: { samples, url in try await writers.append(samples, to: url.path) },
      close: { url in try await writers.close(url.path) },
      move: { source, destination in
        try await WorkerThread.run(name: "syncups.audio-move") {
          try FileOperations.move(source.path, to: destination.path)
        }
      },
      delete: { url in
        try await WorkerThread.run(name: "syncups.audio-delete") {
          try FileOperations.delete(url.path)
        }
      }
    )
  }()
}

/// A file reader that lives on a thread of its own: every libsndfile call (open, read,
/// resample, close) runs there; async callers only receive the chunks.
public final class ThreadedAudioReader: Sendable {
  public let info: AudioFileInfo
  private let worker: WorkerThread
  private let reader: ThreadConfined<AudioFileReader?>

  private init(
    info: AudioFileInfo, worker: WorkerThread, reader: ThreadConfined<AudioFileReader?>
  ) {
    self.info = info
    self.worker = worker
    self.reader = reader
  }

  /// Opens the file on a new thread; opening errors (missing, empty, not audio) are thrown here.
  public static func open(
    path: String, chunkSamples: Int = AudioFormat.chunkSamples
  ) async throws -> ThreadedAudioReader {
    let worker = WorkerThread(name: "syncups.audio-read")
    let (reader, info) = try await worker.run {
      let reader = try AudioFileReader(path: path, chunkSamples: chunkSamples)
      return (ThreadConfined<AudioFileReader?>(reader), reader.info)
    }
    return ThreadedAudioReader(info: info, worker: worker, reader: reader)
  }

  /// The next chunk, read on the reader's thread; nil at the end of the file (the file is
  /// closed then) or once the calling task is cancelled.
  public func next() async throws -> AudioChunk? {
    if Task.isCancelled {
      close()
      return nil
    }
    return try await worker.run { [reader] in
      guard let chunk = try reader.value?.next() else {
        reader.value = nil
        return nil
      }
      return chunk
    }
  }

  /// The rest of the file as a stream that reads a chunk only when its consumer asks for one.
  public func chunks() -> AsyncThrowingStream<AudioChunk, any Error> {
    AsyncThrowingStream { try await self.next() }
  }

  /// Lets go of the file (on the reader's thread) before the end.
  public func close() {
    worker.submit { [reader] in reader.value = nil }
  }

  deinit { close() }
}

/// The files being written with `append`, by path, each with its own writing thread.
private final class OpenWriters: Sendable {
  private let open = LockedDictionary<String, FileWriterThread>()

  func append(_ samples: [Int16], to path: String) async throws {
    let file = open.value(for: path) { FileWriterThread(path: path) }
    try await file.append(samples)
  }

  func close(_ path: String) async throws {
    guard let file = open.removeValue(for: path) else { return }
    try await file.close()
  }
}

/// One file being written, and the thread that writes it.
private final class FileWriterThread: @unchecked Sendable {
  private let path: String
  private let worker: WorkerThread
  /// Touched only on `worker`.
  private var writer: AudioFileWriter?

  init(path: String) {
    self.path = path
    worker = WorkerThread(name: "syncups.audio-append")
  }

  func append(_ samples: [Int16]) async throws {
    try await worker.run {
      let writer =
        try self.writer
        ?? {
          // A meeting's audio goes into the data directory's audio folder, made on first use.
          try FileOperations.createFolders((self.path as NSString).deletingLastPathComponent)
          return try AudioFileWriter(path: self.path)
        }()
      self.writer = writer
      try writer.append(samples)
    }
  }

  /// Finishes the file and makes it durable (fsync) before returning.
  func close() async throws {
    try await worker.run {
      guard let writer = self.writer else { return }
      self.writer = nil
      try writer.close()
      try FileOperations.sync(self.path)
    }
  }
}

/// A dictionary behind a lock.
private final class LockedDictionary<Key: Hashable & Sendable, Value: Sendable>:
  @unchecked Sendable
{
  private let lock = NSLock()
  private var values: [Key: Value] = [:]

  func value(for key: Key, orMake make: () -> Value) -> Value {
    lock.withLock {
      if let value = values[key] { return value }
      let value = make()
      values[key] = value
      return value
    }
  }

  func removeValue(for key: Key) -> Value? {
    lock.withLock { values.removeValue(forKey: key) }
  }
}
