import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Which unfinished meetings are being recorded right now, in any process: a recording holds
/// an exclusive `flock` on `locks/<meeting id>.lock` in the data directory for as long as it
/// runs. The kernel releases the lock when the process dies, however it dies, so an unfinished
/// meeting whose lock can be taken was left by a recording that is gone.
final class RecordingLocks: @unchecked Sendable {
  let directory: URL?
  private let lock = NSLock()
  /// Locks held by this process: open descriptors (on disk), or just the id (in memory).
  private var held: [Meeting.ID: Int32] = [:]

  init(directory: URL?) { self.directory = directory }

  private func file(_ id: Meeting.ID) -> URL? {
    directory?.appendingPathComponent("\(id.rawValue.lowercasedString).lock")
  }

  /// Takes the meeting's lock for this process.
  func acquire(_ id: Meeting.ID) throws {
    try lock.withLock {
      guard held[id] == nil else { return }
      guard let directory, let file = file(id) else {
        held[id] = -1
        return
      }
      var isDirectory: ObjCBool = false
      if FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory),
        !isDirectory.boolValue
      {
        throw SyncUpsDatabaseError.other(
          reason: "cannot record: \(directory.path) is a file where syncups keeps its recording "
            + "locks (a folder); move it away and try again")
      }
      do {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
      } catch {
        throw SyncUpsDatabaseError.readOnly(url: directory, reason: describe(error))
      }
      // Another process may remove a lock file it found unheld (`removeStale`) between our
      // open and our lock: the lock counts only on the file that is still at the path.
      while true {
        let fd = Glibc.open(file.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
          throw SyncUpsDatabaseError.readOnly(url: file, reason: String(cString: strerror(errno)))
        }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
          close(fd)
          throw SyncUpsDatabaseError.other(
            reason: "meeting \(id.rawValue.lowercasedString) is being recorded already")
        }
        if Self.isAtPath(fd, file.path) {
          held[id] = fd
          return
        }
        close(fd)
      }
    }
  }

  /// True when `fd` is the file at `path` now (not one unlinked or replaced since it was opened).
  private static func isAtPath(_ fd: Int32, _ path: String) -> Bool {
    var opened = stat()
    var current = stat()
    guard fstat(fd, &opened) == 0, stat(path, &current) == 0 else { return false }
    return opened.st_ino == current.st_ino && opened.st_dev == current.st_dev
  }

  /// Removes the lock files nobody holds: those of recordings that died (a SIGKILL, a crash),
  /// which would otherwise pile up. Each is removed while this process holds its lock, so a
  /// recording that takes it meanwhile sees it gone and takes a new one (see `acquire`).
  func removeStale() {
    guard let directory,
      let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path)
    else { return }
    lock.withLock {
      for name in names where name.hasSuffix(".lock") {
        let path = directory.appendingPathComponent(name).path
        let fd = Glibc.open(path, O_RDWR | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else { continue }
        if flock(fd, LOCK_EX | LOCK_NB) == 0, Self.isAtPath(fd, path) { unlink(path) }
        close(fd)
      }
    }
  }

  /// Lets the meeting's lock go (and removes its file).
  func release(_ id: Meeting.ID) {
    lock.withLock {
      guard let fd = held.removeValue(forKey: id) else { return }
      if fd >= 0 {
        if let file = file(id) { unlink(file.path) }
        close(fd)
      }
    }
  }

  /// True while some process (this one included) records the meeting.
  func isActive(_ id: Meeting.ID) -> Bool {
    lock.withLock {
      if held[id] != nil { return true }
      guard let file = file(id) else { return false }
      let fd = Glibc.open(file.path, O_RDWR | O_CLOEXEC)
      guard fd >= 0 else { return false }  // no lock file: nobody holds it
      defer { close(fd) }
      if flock(fd, LOCK_EX | LOCK_NB) == 0 {
        flock(fd, LOCK_UN)
        return false
      }
      return true
    }
  }
}
