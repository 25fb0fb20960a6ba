import Crypto
import Foundation
import Hummingbird
import Logging
import NIOCore
import NIOPosix
import PostgresNIO

/// The team's audio, in PostgreSQL, named by the SHA-256 of its bytes: a row of `audio` (its
/// size, and the size of its chunks) and its bytes in `audio_chunk` rows of `chunkSize` bytes,
/// numbered from 0. Every server on the database sees the same audio.
///
/// An upload is spooled to a file of its own as it arrives, hashed on the way, holding no
/// database connection (a slow or stalled client holds none, so it starves no reader); once
/// whole and known to have its hash, its chunks are written in one short transaction: a row
/// under a hash always has that hash, and an upload cut short leaves nothing. Two uploads of one hash take turns on the `audio` row: the second finds
/// the first's. A read fetches one chunk (or the part of one a range needs) at a time.
public struct AudioStore: Sendable {
  /// 256 KiB: what an upload or a download holds of a recording at once (beside the buffers in
  /// flight), and few enough rows (4,096 for a GiB) to write and read one at a time.
  public static let chunkSize = 256 * 1024

  let client: PostgresClient
  let logger: Logger
  /// Where uploads are spooled while they arrive (the system's temporary folder unless told).
  let spoolFolder: URL
  /// Copies of recordings as files, which downloads read when they are there.
  let cache: AudioCache?

  /// `cacheBytes`: what the copies of recordings as files (in a folder of `spoolFolder`) may
  /// hold at most; 0 for none.
  public init(
    client: PostgresClient, logger: Logger,
    spoolFolder: URL = FileManager.default.temporaryDirectory, cacheBytes: Int = 0
  ) {
    self.client = client
    self.logger = logger
    self.spoolFolder = spoolFolder
    cache = AudioCache.make(
      folder: spoolFolder.appendingPathComponent("syncups-audio-cache-\(geteuid())"),
      limit: cacheBytes, logger: logger)
  }

  /// 64 lowercase hex digits: the only names audio can have.
  public static func isHash(_ text: String) -> Bool {
    text.utf8.count == 64
      && text.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
  }

  /// A recording whose bytes are here.
  public struct Recording: Sendable, Equatable {
    public let size: Int
    let chunkSize: Int
  }

  /// What an upload did: stored the bytes, or found them already here.
  public enum Stored: Sendable, Equatable {
    case created(Int)
    case alreadyHere(Int)
  }

  /// The bytes of an upload do not have the hash it was sent under.
  public struct Mismatch: Error, Equatable {
    public let actual: String
  }

  /// The recording with this hash, or nil when its bytes are not here (never uploaded, or kept
  /// on the disk of a server from before: `migrate --data` brings those).
  public func recording(_ sha256: String) async throws -> Recording? {
    let rows = try await client.withOpenConnection { connection in
      try await connection.run(
        "SELECT size, chunk_size FROM audio WHERE sha256 = \(sha256) AND chunk_size IS NOT NULL",
        logger: logger
      ).collect()
    }
    return try rows.first.map { row in
      let (size, chunkSize) = try row.decode((Int64, Int32).self)
      return Recording(size: Int(size), chunkSize: Int(chunkSize))
    }
  }

  /// Stores `body` under `sha256` if its bytes have that hash (`Mismatch` when not; 413 past
  /// `limit` bytes): spooled to a file first, then written a chunk at a time in one
  /// transaction. The body is read once: the database lost meanwhile is a 503, never a second
  /// reading.
  public func store(
    _ body: some AsyncSequence<ByteBuffer, any Error> & Sendable, sha256: String, limit: Int
  ) async throws -> Stored {
    let spool = spoolFolder.appendingPathComponent("syncups-upload-\(UUID().uuidString)").path
    let files = NonBlockingFileIO(threadPool: .singleton)
    do {
      let stored = try await files.withFileHandle(
        _deprecatedPath: spool, mode: [.read, .write],
        flags: .allowFileCreation(posixMode: 0o600)
      ) { file in
        let size = try await Self.spool(body, to: file, sha256: sha256, limit: limit, files: files)
        return try await write(file, size: size, sha256: sha256, files: files)
      }
      // The spooled bytes have their hash: the copy downloads read.
      if let cache {
        await cache.keep(spool, as: sha256)
      } else {
        try? await files.remove(path: spool)
      }
      return stored
    } catch {
      try? await files.remove(path: spool)
      throw error
    }
  }

  /// Writes `body` to `file`, hashing as it goes; returns its size once the hash is `sha256`.
  private static func spool(
    _ body: some AsyncSequence<ByteBuffer, any Error>, to file: NIOFileHandle, sha256: String,
    limit: Int, files: NonBlockingFileIO
  ) async throws -> Int {
    var hasher = SHA256()
    var size = 0
    var parts = body.makeAsyncIterator()
    while let buffer = try await Self.next(of: &parts, after: size) {
      size += buffer.readableBytes
      guard size <= limit else {
        throw APIError(
          .contentTooLarge, "the audio is larger than this server takes (\(limit) bytes)")
      }
      buffer.withUnsafeReadableBytes { hasher.update(bufferPointer: $0) }
      try await files.write(fileHandle: file, buffer: buffer)
    }
    let actual = hasher.finalize().map { String(format: "%02x", $0) }.joined()
    guard actual == sha256 else { throw Mismatch(actual: actual) }
    return size
  }

  /// The body's next part; a body that ended before its last byte (the client went away, or
  /// was closed for stalling) is the client's doing, refused in words rather than logged as
  /// the server's failure.
  private static func next<Parts: AsyncIteratorProtocol>(
    of parts: inout Parts, after size: Int
  ) async throws -> ByteBuffer? where Parts.Element == ByteBuffer {
    do {
      return try await parts.next()
    } catch {
      throw APIError(
        .badRequest,
        "the upload ended after \(size) bytes, before its last byte arrived; send it again")
    }
  }

  /// Writes the spooled `file` under `sha256` in one transaction, a chunk at a time (unless
  /// another upload stored it meanwhile).
  private func write(
    _ file: NIOFileHandle, size: Int, sha256: String, files: NonBlockingFileIO
  ) async throws -> Stored {
    try await client.withOpenConnection { connection in
      try await connection.run("BEGIN", logger: logger)
      do {
        // The row first, locked until this transaction ends: another upload of this hash waits
        // here, then finds it stored (or, if this one failed, stores it itself).
        try await connection.run(
          "INSERT INTO audio (sha256, size) VALUES (\(sha256), 0) ON CONFLICT DO NOTHING",
          logger: logger)
        let rows = try await connection.run(
          "SELECT size, chunk_size FROM audio WHERE sha256 = \(sha256) FOR UPDATE", logger: logger
        ).collect()
        if let (size, chunkSize) = try rows.first?.decode((Int64, Int32?).self), chunkSize != nil {
          try await connection.run("ROLLBACK", logger: logger)
          return .alreadyHere(Int(size))
        }
        var number: Int32 = 0
        var offset = 0
        while offset < size {
          let chunk = try await files.read(
            fileHandle: file, fromOffset: Int64(offset),
            byteCount: min(Self.chunkSize, size - offset), allocator: ByteBufferAllocator())
          guard chunk.readableBytes > 0 else { throw Mismatch(actual: "a shorter file") }
          try await connection.run(
            "INSERT INTO audio_chunk (sha256, number, bytes) VALUES (\(sha256), \(number), \(chunk))",
            logger: logger)
          number += 1
          offset += chunk.readableBytes
        }
        try await connection.run(
          """
          UPDATE audio SET size = \(Int64(size)), chunk_size = \(Int32(Self.chunkSize))
          WHERE sha256 = \(sha256)
          """, logger: logger)
        try await connection.run("COMMIT", logger: logger)
        return .created(size)
      } catch {
        _ = try? await connection.run("ROLLBACK", logger: logger)
        if error is ConnectionClosed {
          throw APIError(
            .serviceUnavailable, "the server lost its database during the upload; send it again")
        }
        throw error
      }
    }
  }

  /// What one query of a download reads at most: 1 MiB (four chunks). The next piece is read
  /// while one is written, so a download holds two at most.
  public static let pieceSize = 4 * chunkSize

  /// Writes bytes `range` of `recording` to `writer` a piece at a time, each read by a query of
  /// its own (a slow listener holds no database connection) while the one before it is being
  /// written: the database and the listener's socket work at once, and a piece is a few chunks,
  /// not one query and one round trip each.
  public func write(
    _ range: ClosedRange<Int>, of sha256: String, _ recording: Recording,
    to writer: inout any ResponseBodyWriter,
    copy: ((ByteBuffer) async throws -> Void)? = nil
  ) async throws {
    let pieceSize = max(
      recording.chunkSize, Self.pieceSize / recording.chunkSize * recording.chunkSize)
    /// The piece that starts at `offset`: up to the next multiple of `pieceSize`.
    func piece(at offset: Int) -> ClosedRange<Int> {
      offset...min(range.upperBound, (offset / pieceSize + 1) * pieceSize - 1)
    }
    var part = piece(at: range.lowerBound)
    var bytes = try await read(part, of: sha256, recording)
    while true {
      guard part.upperBound < range.upperBound else {
        for buffer in bytes {
          try await writer.write(buffer)
          try await copy?(buffer)
        }
        return
      }
      let next = piece(at: part.upperBound + 1)
      async let following = read(next, of: sha256, recording)
      for buffer in bytes {
        try await writer.write(buffer)
        try await copy?(buffer)
      }
      bytes = try await following
      part = next
    }
  }

  /// Writes the whole of `recording` to `writer` from the database, keeping what it read as
  /// the recording's copy in the cache (once all of it is written).
  public func writeWhole(
    of sha256: String, _ recording: Recording, to writer: inout any ResponseBodyWriter
  ) async throws {
    let whole = 0...(recording.size - 1)
    guard let cache else { return try await write(whole, of: sha256, recording, to: &writer) }
    let partial = cache.newFile()
    let files = NonBlockingFileIO(threadPool: .singleton)
    do {
      try await files.withFileHandle(
        _deprecatedPath: partial, mode: .write, flags: .allowFileCreation(posixMode: 0o600)
      ) { file in
        try await write(whole, of: sha256, recording, to: &writer) {
          try await files.write(fileHandle: file, buffer: $0)
        }
      }
    } catch {
      try? await files.remove(path: partial)
      throw error
    }
    await cache.keep(partial, as: sha256)
  }

  /// Bytes `part` of a recording, by one query: the part of each chunk it needs, in order.
  private func read(_ part: ClosedRange<Int>, of sha256: String, _ recording: Recording)
    async throws -> [ByteBuffer]
  {
    let size = Int64(recording.chunkSize)
    let (first, last) = (Int64(part.lowerBound), Int64(part.upperBound))
    let rows = try await client.withOpenConnection { connection in
      // Chunk n holds bytes n * size ..< (n + 1) * size: each row is its part within `part`.
      try await connection.run(
        """
        SELECT substring(bytes FROM (greatest(\(first) - number * \(size), 0) + 1)::integer
          FOR (least(\(last) + 1 - number * \(size), \(size))
            - greatest(\(first) - number * \(size), 0))::integer)
        FROM audio_chunk
        WHERE sha256 = \(sha256) AND number BETWEEN \(Int32(first / size)) AND \(Int32(last / size))
        ORDER BY number
        """, logger: logger
      ).collect()
    }
    let bytes = try rows.all(ByteBuffer.self)
    guard bytes.reduce(0, { $0 + $1.readableBytes }) == part.count,
      bytes.count == Int(last / size - first / size + 1)
    else {
      throw APIError(.internalServerError, "a chunk of the audio \(sha256) is missing")
    }
    return bytes
  }
}
