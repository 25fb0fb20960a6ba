import Foundation
import Hummingbird
import NIOCore
import NIOPosix

/// A push's body as it arrived: in memory when it is small, else in a spool file of its own,
/// written as its parts arrive. Large pushes are decoded and saved one at a time (`Turns`), so
/// those that arrive meanwhile wait for their turn on the disk, not in memory: eight 30 MB
/// pushes at once held every body in memory (+295 MB above idle in `make bench-memory`).
enum PushBody {
  case inMemory(ByteBuffer)
  case spooled(path: String, size: Int)

  /// What is written to the spool at once: parts of a body are gathered up to this first.
  static let spoolWrite = 1024 * 1024

  /// Whether the body waited in a spool file (it is larger than a push kept in memory).
  var isSpooled: Bool {
    if case .spooled = self { return true }
    return false
  }

  var size: Int {
    switch self {
    case .inMemory(let buffer): buffer.readableBytes
    case .spooled(_, let size): size
    }
  }

  /// Reads `body`, at most `limit` bytes (413 past that): in memory up to `inMemory` bytes,
  /// then into a new file in `folder`.
  static func receive(
    _ body: RequestBody, limit: Int, inMemory: Int, folder: URL
  ) async throws -> PushBody {
    var buffer = ByteBuffer()
    var parts = body.makeAsyncIterator()
    while let part = try await next(of: &parts, after: buffer.readableBytes) {
      let size = buffer.readableBytes + part.readableBytes
      guard size <= limit else { throw tooLarge(limit) }
      buffer.writeImmutableBuffer(part)
      if size > inMemory {
        return try await spool(buffer, then: &parts, limit: limit, folder: folder)
      }
    }
    return .inMemory(buffer)
  }

  /// Writes `start` and the rest of the body to a new file; removes it on any failure.
  private static func spool(
    _ start: ByteBuffer, then parts: inout RequestBody.AsyncIterator, limit: Int, folder: URL
  ) async throws -> PushBody {
    let path = folder.appendingPathComponent("syncups-push-\(UUID().uuidString)").path
    let files = NonBlockingFileIO(threadPool: .singleton)
    do {
      let size = try await files.withFileHandle(
        _deprecatedPath: path, mode: .write, flags: .allowFileCreation(posixMode: 0o600)
      ) { file in
        var size = start.readableBytes
        var gathered = start
        while let part = try await next(of: &parts, after: size) {
          size += part.readableBytes
          guard size <= limit else { throw tooLarge(limit) }
          gathered.writeImmutableBuffer(part)
          if gathered.readableBytes >= spoolWrite {
            try await files.write(fileHandle: file, buffer: gathered)
            gathered.clear()
          }
        }
        try await files.write(fileHandle: file, buffer: gathered)
        return size
      }
      return .spooled(path: path, size: size)
    } catch {
      try? await files.remove(path: path)
      throw error
    }
  }

  /// The whole body in memory: a spooled one read back (on NIO's file threads), its file
  /// removed.
  func load() async throws -> ByteBuffer {
    switch self {
    case .inMemory(let buffer):
      return buffer
    case .spooled(let path, let size):
      let files = NonBlockingFileIO(threadPool: .singleton)
      do {
        let buffer = try await files.withFileHandle(_deprecatedPath: path, mode: .read) {
          try await files.read(fileHandle: $0, byteCount: size, allocator: ByteBufferAllocator())
        }
        try? await files.remove(path: path)
        guard buffer.readableBytes == size else {
          throw APIError(.internalServerError, "the push's spool file came back shorter")
        }
        return buffer
      } catch {
        try? await files.remove(path: path)
        throw error
      }
    }
  }

  private static func tooLarge(_ limit: Int) -> APIError {
    APIError(
      .contentTooLarge, "the request body is larger than this server takes (\(limit) bytes)")
  }

  /// The body's next part; a body that ended before its last byte (the client went away, or
  /// was closed for stalling) is the client's doing, refused in words.
  private static func next(
    of parts: inout RequestBody.AsyncIterator, after size: Int
  ) async throws -> ByteBuffer? {
    do {
      return try await parts.next()
    } catch {
      throw APIError(
        .badRequest,
        "the push ended after \(size) bytes, before its last byte arrived; send it again")
    }
  }
}
