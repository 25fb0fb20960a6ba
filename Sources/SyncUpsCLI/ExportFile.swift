import ErrorWords
import Foundation
import Glibc
import Sharing
import WorkerThreads

/// Writing `syncups export`: to stdout, or to a file all or nothing, never over a file unless
/// asked. What is written comes in pieces (a meeting at a time), on a thread of its own.
public enum ExportFile {
  /// Gives `body` a writer to standard output (buffered, a megabyte at a time).
  public static func toStandardOutput<T: Sendable>(
    _ body: @escaping @Sendable (_ write: (Data) throws -> Void) throws -> T
  ) async throws(CLIError) -> T {
    try await onThread {
      let output = Output(fd: STDOUT_FILENO, name: "standard output")
      let result = try body(output.write)
      try output.flush()
      return result
    }
  }

  /// Gives `body` a writer to a new temporary file beside `url`; once `body` returns, the file
  /// is flushed to disk and moved into place (`replacing`) or linked to the name, which fails if
  /// a file of that name exists, even one made meanwhile. A failure leaves no file behind.
  public static func write<T: Sendable>(
    to url: URL, replacing: Bool,
    _ body: @escaping @Sendable (_ write: (Data) throws -> Void) throws -> T
  ) async throws(CLIError) -> T {
    try await onThread {
      try checkTarget(url, replacing: replacing)
      let folder = url.deletingLastPathComponent()
      let temporary = folder.appendingPathComponent(
        ".\(url.lastPathComponent).\(UUID().uuidString.prefix(8)).tmp")
      let fd = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
      guard fd >= 0 else { throw failure(url, errno) }
      // Gone however the export ends: done, failed, or ended by a signal.
      let path = temporary.path
      let onSignal = Termination.onSignal { _ in
        unlink(path)
        return .exit
      }
      defer {
        onSignal.remove()
        unlink(temporary.path)
      }
      let output = Output(fd: fd, name: url.path)
      let result: T
      do {
        result = try body(output.write)
        try output.flush()
        guard fsync(fd) == 0 else { throw failure(url, errno) }
      } catch {
        close(fd)
        throw error
      }
      close(fd)
      if replacing {
        guard rename(temporary.path, url.path) == 0 else { throw failure(url, errno) }
      } else {
        guard link(temporary.path, url.path) == 0 else {
          throw errno == EEXIST ? exists(url) : failure(url, errno)
        }
      }
      // The new name is durable too.
      let directory = open(folder.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
      if directory >= 0 {
        fsync(directory)
        close(directory)
      }
      return result
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

  static func failure(_ url: URL, _ code: Int32) -> CLIError {
    failure(url.path, code)
  }

  static func failure(_ name: String, _ code: Int32) -> CLIError {
    CLIError(
      "cannot write \(name.visible) (\(ErrorWords.reason(errno: code))); the export is not "
        + "complete: check the folder and the free space")
  }

  /// Runs `body` on a thread of its own; its errors become one line.
  private static func onThread<T: Sendable>(
    _ body: @escaping @Sendable () throws -> T
  ) async throws(CLIError) -> T {
    do {
      return try await WorkerThread.run(name: "export", body)
    } catch let error as CLIError {
      throw error
    } catch {
      throw CLIError("cannot export: \(error)")
    }
  }

  /// Collects pieces and writes them to `fd` a megabyte at a time.
  private final class Output {
    let fd: Int32
    let name: String
    var buffer = Data()

    init(fd: Int32, name: String) {
      self.fd = fd
      self.name = name
    }

    func write(_ data: Data) throws {
      buffer.append(data)
      if buffer.count >= 1 << 20 { try flush() }
    }

    func flush() throws {
      var code: Int32 = 0
      buffer.withUnsafeBytes { bytes in
        var written = 0
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
      buffer.removeAll(keepingCapacity: true)
      if code != 0 { throw ExportFile.failure(name, code) }
    }
  }
}
