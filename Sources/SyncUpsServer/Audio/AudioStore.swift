import Crypto
import Foundation
import Hummingbird
import NIOCore
import NIOPosix

/// Audio files under `DATA/audio`, each named by the SHA-256 of its bytes. An upload is written
/// beside its final name, its hash checked, then moved into place: a file under a hash's name
/// always has that hash.
public struct AudioStore: Sendable {
  public let folder: URL

  public init(data: URL) throws {
    folder = data.appendingPathComponent("audio", isDirectory: true)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
  }

  /// 64 lowercase hex digits: the only names a file here can have (no `/`, no `..`).
  public static func isHash(_ text: String) -> Bool {
    text.utf8.count == 64
      && text.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
  }

  public func path(of sha256: String) -> String {
    folder.appendingPathComponent(sha256).path
  }

  /// Writes `body` to a temporary file off the cooperative pool, hashing as it goes, and keeps
  /// it as `sha256` only if its bytes have that hash. Returns the size.
  public func store(
    _ body: some AsyncSequence<ByteBuffer, any Error>, sha256: String, limit: Int
  ) async throws -> Int64 {
    let temporary = folder.appendingPathComponent(".upload-\(UUID().uuidString)")
    guard FileManager.default.createFile(atPath: temporary.path, contents: nil) else {
      throw APIError(.internalServerError, "the server cannot write its audio folder")
    }
    let handle = try FileHandle(forWritingTo: temporary)
    var hasher = SHA256()
    var size = 0
    do {
      for try await buffer in body {
        size += buffer.readableBytes
        guard size <= limit else {
          throw APIError(
            .contentTooLarge, "the audio is larger than this server takes (\(limit) bytes)")
        }
        let bytes = Data(buffer.readableBytesView)
        hasher.update(data: bytes)
        try await NIOThreadPool.singleton.runIfActive { try handle.write(contentsOf: bytes) }
      }
      try await NIOThreadPool.singleton.runIfActive {
        try handle.synchronize()
        try handle.close()
      }
      let actual = hasher.finalize().map { String(format: "%02x", $0) }.joined()
      guard actual == sha256 else {
        throw APIError(
          .unprocessableContent,
          "the audio's SHA-256 is \(actual), not \(sha256); upload it again under its own hash")
      }
      let destination = path(of: sha256)
      try await NIOThreadPool.singleton.runIfActive {
        if rename(temporary.path, destination) != 0 {
          throw APIError(.internalServerError, "the server could not keep the audio file")
        }
      }
      return Int64(size)
    } catch {
      try? handle.close()
      try? FileManager.default.removeItem(at: temporary)
      throw error
    }
  }

  /// The file's size, or nil when it is not here.
  public func size(of sha256: String) async throws -> Int? {
    let path = path(of: sha256)
    return try await NIOThreadPool.singleton.runIfActive {
      (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue
    }
  }
}

/// A `Range: bytes=...` header, for a file of `size` bytes.
enum ByteRange: Equatable {
  /// No range, or one this server does not read (several ranges): the whole file.
  case whole
  case part(ClosedRange<Int>)
  /// A range that starts past the end: 416.
  case unsatisfiable

  init(header: String?, size: Int) {
    guard let header, header.hasPrefix("bytes="), !header.contains(",") else {
      self = .whole
      return
    }
    let spec = header.dropFirst("bytes=".count).trimmingCharacters(in: .whitespaces)
    let parts = spec.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
    guard parts.count == 2 else {
      self = .whole
      return
    }
    if parts[0].isEmpty {
      // The last N bytes.
      guard let count = Int(parts[1]), count >= 0 else {
        self = .whole
        return
      }
      guard count > 0, size > 0 else {
        self = .unsatisfiable
        return
      }
      self = .part(max(0, size - count)...(size - 1))
      return
    }
    guard let start = Int(parts[0]), start >= 0 else {
      self = .whole
      return
    }
    let end: Int
    if parts[1].isEmpty {
      end = size - 1
    } else {
      guard let last = Int(parts[1]), last >= start else {
        self = .whole
        return
      }
      end = min(last, size - 1)
    }
    self = start < size ? .part(start...end) : .unsatisfiable
  }
}
