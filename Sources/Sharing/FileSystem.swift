import ErrorWords
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// The file operations file storage needs. `LiveFileSystem` is the disk; `InMemoryFileSystem`
/// is for tests. Wrap one to count or fail operations in tests.
public protocol FileSystem: Sendable {
  /// The file's bytes, or nil if it does not exist.
  func read(_ url: URL) throws -> Data?
  /// Replaces the file so a reader sees the old or the new bytes, never a mix, and a crash
  /// leaves one of them. Call inside `withExclusiveLock(for:)` for the same file.
  func writeAtomically(_ data: Data, to url: URL) throws
  /// Renames a file, failing rather than replacing an existing destination.
  func moveItem(at source: URL, to destination: URL) throws
  func fileExists(_ url: URL) -> Bool
  /// Runs `body` holding an exclusive lock on `url` that other processes honour too.
  func withExclusiveLock<R>(for url: URL, _ body: () throws -> R) throws -> R
  /// Calls `onChange` (on some background thread) after the file is created, replaced, written,
  /// or deleted, by this process or another one.
  func watch(_ url: URL, onChange: @escaping @Sendable () -> Void) -> SharedSubscription
}

public struct FileSystemError: Error, CustomStringConvertible {
  public let operation: String
  public let path: String
  public let code: Int32
  public var description: String {
    "\(operation) \(path): \(ErrorWords.reason(errno: code))"
  }
}

/// The real file system: atomic writes (temporary sibling, fsync, rename, fsync of the
/// directory), advisory `flock` on a hidden sibling lock file, inotify for changes.
public struct LiveFileSystem: FileSystem {
  public init() {}

  public func read(_ url: URL) throws -> Data? {
    let fd = open(url.path, O_RDONLY | O_CLOEXEC)
    if fd < 0 {
      if errno == ENOENT { return nil }
      throw FileSystemError(operation: "open", path: url.path, code: errno)
    }
    defer { close(fd) }
    var data = Data()
    var buffer = [UInt8](repeating: 0, count: 64 * 1024)
    while true {
      let count = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
      if count < 0 {
        if errno == EINTR { continue }
        throw FileSystemError(operation: "read", path: url.path, code: errno)
      }
      if count == 0 { return data }
      data.append(contentsOf: buffer[0..<count])
    }
  }

  public func writeAtomically(_ data: Data, to url: URL) throws {
    let directory = url.deletingLastPathComponent()
    try createDirectory(directory)
    // One fixed temporary name per file: writers hold the file's lock, so it is never shared,
    // and a temporary left by a killed process is simply reused.
    let temporary = directory.appendingPathComponent(".\(url.lastPathComponent).tmp").path
    var mode: mode_t = 0o644
    var info = stat()
    if stat(url.path, &info) == 0 { mode = info.st_mode & 0o7777 }
    let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode)
    guard fd >= 0 else { throw FileSystemError(operation: "open", path: temporary, code: errno) }
    do {
      try data.withUnsafeBytes { bytes in
        var offset = 0
        while offset < bytes.count {
          let written = write(fd, bytes.baseAddress! + offset, bytes.count - offset)
          if written < 0 {
            if errno == EINTR { continue }
            throw FileSystemError(operation: "write", path: temporary, code: errno)
          }
          offset += written
        }
      }
      _ = fchmod(fd, mode)
      guard fsync(fd) == 0 else {
        throw FileSystemError(operation: "fsync", path: temporary, code: errno)
      }
    } catch {
      close(fd)
      unlink(temporary)
      throw error
    }
    close(fd)
    guard rename(temporary, url.path) == 0 else {
      let code = errno
      unlink(temporary)
      throw FileSystemError(operation: "rename", path: url.path, code: code)
    }
    syncDirectory(directory)
  }

  public func moveItem(at source: URL, to destination: URL) throws {
    guard !fileExists(destination) else {
      throw FileSystemError(operation: "rename", path: destination.path, code: EEXIST)
    }
    guard rename(source.path, destination.path) == 0 else {
      throw FileSystemError(operation: "rename", path: source.path, code: errno)
    }
    syncDirectory(source.deletingLastPathComponent())
  }

  public func fileExists(_ url: URL) -> Bool {
    access(url.path, F_OK) == 0
  }

  public func withExclusiveLock<R>(for url: URL, _ body: () throws -> R) throws -> R {
    let directory = url.deletingLastPathComponent()
    try createDirectory(directory)
    // A separate lock file: the data file itself is replaced by rename, so a lock on it would
    // be a lock on an old inode. The lock file is never deleted (that would break the lock).
    let lockPath = directory.appendingPathComponent(".\(url.lastPathComponent).lock").path
    let fd = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
    guard fd >= 0 else { throw FileSystemError(operation: "open", path: lockPath, code: errno) }
    defer { close(fd) }
    while flock(fd, LOCK_EX) != 0 {
      guard errno == EINTR else {
        throw FileSystemError(operation: "flock", path: lockPath, code: errno)
      }
    }
    defer { flock(fd, LOCK_UN) }
    return try body()
  }

  public func watch(_ url: URL, onChange: @escaping @Sendable () -> Void) -> SharedSubscription {
    DirectoryWatcher.shared.watch(url, onChange: onChange)
  }

  private func createDirectory(_ directory: URL) throws {
    if fileExists(directory) { return }
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    DirectoryWatcher.shared.rewatch(directory)
  }

  private func syncDirectory(_ directory: URL) {
    let fd = open(directory.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard fd >= 0 else { return }
    _ = fsync(fd)
    close(fd)
  }
}

/// Files in a dictionary, for tests: nothing touches the disk. Watchers are told about every
/// write, like inotify would.
public final class InMemoryFileSystem: FileSystem, @unchecked Sendable {
  private let lock = NSRecursiveLock()
  private var files: [String: Data] = [:]
  private var watchers: [String: [Int: @Sendable () -> Void]] = [:]
  private var nextWatcherID = 0

  public init(files: [URL: Data] = [:]) {
    for (url, data) in files { self.files[url.standardizedFileURL.path] = data }
  }

  /// Every file, by path.
  public var contents: [String: Data] { lock.withLock { files } }

  public func read(_ url: URL) throws -> Data? {
    lock.withLock { files[url.standardizedFileURL.path] }
  }

  public func writeAtomically(_ data: Data, to url: URL) throws {
    let path = url.standardizedFileURL.path
    lock.withLock { files[path] = data }
    notify(path)
  }

  /// Writes as another process would (for tests of outside edits).
  public func write(_ data: Data?, to url: URL) {
    let path = url.standardizedFileURL.path
    lock.withLock { files[path] = data }
    notify(path)
  }

  public func moveItem(at source: URL, to destination: URL) throws {
    let from = source.standardizedFileURL.path
    let to = destination.standardizedFileURL.path
    try lock.withLock {
      guard files[to] == nil else {
        throw FileSystemError(operation: "rename", path: to, code: EEXIST)
      }
      guard let data = files.removeValue(forKey: from) else {
        throw FileSystemError(operation: "rename", path: from, code: ENOENT)
      }
      files[to] = data
    }
    notify(from)
    notify(to)
  }

  public func fileExists(_ url: URL) -> Bool {
    lock.withLock { files[url.standardizedFileURL.path] != nil }
  }

  public func withExclusiveLock<R>(for url: URL, _ body: () throws -> R) throws -> R {
    try lock.withLock(body)
  }

  public func watch(_ url: URL, onChange: @escaping @Sendable () -> Void) -> SharedSubscription {
    let path = url.standardizedFileURL.path
    let id = lock.withLock {
      defer { nextWatcherID += 1 }
      watchers[path, default: [:]][nextWatcherID] = onChange
      return nextWatcherID
    }
    return SharedSubscription { [weak self] in
      self?.lock.withLock { _ = self?.watchers[path]?.removeValue(forKey: id) }
    }
  }

  private func notify(_ path: String) {
    let handlers = lock.withLock { watchers[path].map { Array($0.values) } ?? [] }
    for handler in handlers {
      DispatchQueue.global().async { handler() }
    }
  }
}
