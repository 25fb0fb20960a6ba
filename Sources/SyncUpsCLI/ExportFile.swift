import Foundation
import Glibc
import WorkerThreads

/// Writing `syncups export --output F`: all or nothing, never over a file unless asked.
public enum ExportFile {
  /// Writes `data` to `url` atomically: into a new temporary file beside it, flushed to disk,
  /// then moved into place (`replacing`) or linked to the name, which fails if a file of that
  /// name exists, even one made meanwhile. A failure leaves no partial file. On a thread of
  /// its own.
  public static func write(_ data: Data, to url: URL, replacing: Bool) async throws(CLIError) {
    do {
      try await WorkerThread.run(name: "export") { try writeNow(data, to: url, replacing) }
    } catch let error as CLIError {
      throw error
    } catch {
      throw CLIError("cannot write \(url.path.visible): \(error)")
    }
  }

  /// Refuses early, before any work, when the file is there and `replacing` is false.
  public static func checkTarget(_ url: URL, replacing: Bool) throws(CLIError) {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
      return
    }
    if isDirectory.boolValue {
      throw CLIError("\(url.path.visible) is a folder; give --output a file name")
    }
    if !replacing { throw exists(url) }
  }

  static func exists(_ url: URL) -> CLIError {
    CLIError(
      "\(url.path.visible) already exists; nothing was written: add --force to replace it, "
        + "or choose another --output")
  }

  private static func writeNow(_ data: Data, to url: URL, _ replacing: Bool) throws {
    try checkTarget(url, replacing: replacing)
    let folder = url.deletingLastPathComponent()
    let temporary = folder.appendingPathComponent(
      ".\(url.lastPathComponent).\(UUID().uuidString.prefix(8)).tmp")
    let fd = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
    guard fd >= 0 else { throw failure(url, errno) }
    var written = 0
    var code: Int32 = 0
    data.withUnsafeBytes { bytes in
      while written < bytes.count {
        let count = Glibc.write(fd, bytes.baseAddress! + written, bytes.count - written)
        if count < 0 {
          if errno == EINTR { continue }
          code = errno
          return
        }
        written += count
      }
    }
    if code == 0, fsync(fd) != 0 { code = errno }
    close(fd)
    defer { unlink(temporary.path) }
    guard code == 0 else { throw failure(url, code) }
    if replacing {
      guard rename(temporary.path, url.path) == 0 else { throw failure(url, errno) }
    } else {
      guard link(temporary.path, url.path) == 0 else {
        if errno == EEXIST { throw exists(url) }
        throw failure(url, errno)
      }
    }
    // The new name is durable too.
    let directory = open(folder.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    if directory >= 0 {
      fsync(directory)
      close(directory)
    }
  }

  private static func failure(_ url: URL, _ code: Int32) -> CLIError {
    CLIError(
      "cannot write \(url.path.visible) (\(String(cString: strerror(code)))); nothing was "
        + "written: check the folder and the free space")
  }
}
