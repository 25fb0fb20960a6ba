import Foundation
import NIOCore
import NIOPosix

/// Brings the audio files of a server from before (`DATA/audio/SHA256`) into the database:
/// each file whose name is a hash, through the same checks as an upload (its bytes must have
/// that hash). Running it again imports nothing twice.
public struct AudioImport: Sendable {
  /// What an import did.
  public struct Outcome: Sendable, Equatable {
    /// Files whose bytes are now in the database.
    public var imported = 0
    /// Files whose hash was in the database already.
    public var alreadyHere = 0
    /// Files not named by a hash (left alone).
    public var ignored = 0
    /// Each file skipped, and why.
    public var skipped: [String] = []
  }

  public let audio: AudioStore
  public let limit: Int

  public init(audio: AudioStore, limit: Int = Limits().audio) {
    self.audio = audio
    self.limit = limit
  }

  /// Imports the files of `folder` (`DATA/audio`), in name order.
  public func run(folder: URL) async throws -> Outcome {
    let names = try await NIOThreadPool.singleton.runIfActive {
      try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    }
    var outcome = Outcome()
    for name in names {
      guard AudioStore.isHash(name) else {
        outcome.ignored += 1
        continue
      }
      let path = folder.appendingPathComponent(name).path
      do {
        switch try await importFile(path, sha256: name) {
        case .created: outcome.imported += 1
        case .alreadyHere: outcome.alreadyHere += 1
        }
      } catch let mismatch as AudioStore.Mismatch {
        outcome.skipped.append(
          "\(path): its bytes have the SHA-256 \(mismatch.actual), not its name")
      } catch let refused as APIError {
        outcome.skipped.append("\(path): \(refused.message)")
      }
    }
    return outcome
  }

  private func importFile(_ path: String, sha256: String) async throws -> AudioStore.Stored {
    let handle = try await NIOThreadPool.singleton.runIfActive {
      try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
    }
    defer { try? handle.close() }
    return try await audio.store(FileChunks(handle: handle), sha256: sha256, limit: limit)
  }
}

/// A file's bytes, a chunk at a time, each read off the cooperative pool.
struct FileChunks: AsyncSequence, Sendable {
  let handle: FileHandle

  struct AsyncIterator: AsyncIteratorProtocol {
    let handle: FileHandle

    mutating func next() async throws -> ByteBuffer? {
      let handle = handle
      let data = try await NIOThreadPool.singleton.runIfActive {
        try handle.read(upToCount: AudioStore.chunkSize)
      }
      guard let data, !data.isEmpty else { return nil }
      return ByteBuffer(bytes: data)
    }
  }

  func makeAsyncIterator() -> AsyncIterator { AsyncIterator(handle: handle) }
}
