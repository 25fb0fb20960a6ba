import Foundation
import Logging
import NIOPosix

/// Copies of recordings as files of this server, named by their SHA-256, so that a download
/// reads a file rather than the database a piece at a time: PostgreSQL sends a recording at a
/// fifth of the speed a file is read (`make bench-server`). The bytes in PostgreSQL stay what
/// every server on it shares; a file here is only a copy, of bytes whose hash was checked (an
/// upload's spooled file, or what a whole download read from the database). The copies are
/// kept under `limit` bytes, those heard least lately removed first.
///
/// The folder is this server's alone: made with mode 0700, and used only when it is a folder
/// (not a link) of this user that no one else may write to; otherwise there is no cache and
/// every download reads the database, as before.
struct AudioCache: Sendable {
  let folder: URL
  let limit: Int
  let logger: Logger

  private var files: NonBlockingFileIO { NonBlockingFileIO(threadPool: .singleton) }

  /// The cache in `folder` (made when it is not there), or nil when there is none: `limit` 0,
  /// or a folder that is not this user's alone.
  static func make(folder: URL, limit: Int, logger: Logger) -> AudioCache? {
    guard limit > 0 else { return nil }
    mkdir(folder.path, 0o700)
    var info = stat()
    guard lstat(folder.path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR,
      info.st_uid == geteuid(), info.st_mode & 0o077 == 0
    else {
      logger.warning(
        "the audio cache folder is not this user's alone; downloads read the database",
        metadata: ["folder": "\(folder.path)"])
      return nil
    }
    return AudioCache(folder: folder, limit: limit, logger: logger)
  }

  func path(_ sha256: String) -> String { folder.appendingPathComponent(sha256).path }

  /// The path of the copy of `sha256` when it is here whole (`size` bytes, a regular file),
  /// marked as heard now.
  func copy(of sha256: String, size: Int) async -> String? {
    let path = path(sha256)
    let found = try? await NIOThreadPool.singleton.runIfActive { () -> Bool in
      var info = stat()
      guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_size == size
      else { return false }
      utimes(path, nil)
      return true
    }
    return found == true ? path : nil
  }

  /// Keeps `file` (bytes whose hash is `sha256`) as the copy of it, moved into the folder; then
  /// removes the copies heard least lately while the folder holds more than `limit` bytes.
  func keep(_ file: String, as sha256: String) async {
    let target = path(sha256)
    let folder = folder.path
    let limit = limit
    let kept = try? await NIOThreadPool.singleton.runIfActive { () -> Bool in
      guard rename(file, target) == 0 else { return false }
      Self.trim(folder, to: limit)
      return true
    }
    if kept != true { try? await files.remove(path: file) }
  }

  /// A new file in the folder for a copy being made (moved into place by `keep`).
  func newFile() -> String {
    folder.appendingPathComponent("partial-\(UUID().uuidString)").path
  }

  /// Removes copies, those heard least lately first, until the folder holds `limit` bytes or
  /// fewer; and partial copies left by a server that stopped, an hour old.
  private static func trim(_ folder: String, to limit: Int) {
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }
    var copies: [(path: String, size: Int, heard: Int)] = []
    let hourAgo = Int(Date().timeIntervalSince1970) - 3600
    for name in names {
      let path = folder + "/" + name
      var info = stat()
      guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { continue }
      if name.hasPrefix("partial-") {
        if info.st_mtim.tv_sec < hourAgo { unlink(path) }
        continue
      }
      copies.append((path, Int(info.st_size), Int(info.st_mtim.tv_sec)))
    }
    var total = copies.reduce(0) { $0 + $1.size }
    for copy in copies.sorted(by: { $0.heard < $1.heard }) where total > limit {
      unlink(copy.path)
      total -= copy.size
    }
  }
}
