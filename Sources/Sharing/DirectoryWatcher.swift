import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// One inotify instance for the process, read by one background thread. It watches
/// directories, not files: file storage replaces files by rename, which a watch on the file's
/// old inode would miss.
final class DirectoryWatcher: @unchecked Sendable {
  static let shared = DirectoryWatcher()

  private let lock = NSLock()
  private let fd: Int32
  private var directoryByDescriptor: [Int32: String] = [:]
  private var descriptorByDirectory: [String: Int32] = [:]
  /// Handlers by directory, then file name.
  private var handlers: [String: [String: [Int: @Sendable () -> Void]]] = [:]
  private var nextID = 0
  private var started = false

  private init() {
    fd = inotify_init1(Int32(IN_CLOEXEC))
  }

  func watch(_ url: URL, onChange: @escaping @Sendable () -> Void) -> SharedSubscription {
    let directory = url.deletingLastPathComponent().standardizedFileURL.path
    let name = url.lastPathComponent
    guard fd >= 0 else { return SharedSubscription {} }
    let id: Int? = lock.withLock {
      guard addWatchIfNeeded(directory) else { return nil }
      defer { nextID += 1 }
      handlers[directory, default: [:]][name, default: [:]][nextID] = onChange
      if !started {
        started = true
        let thread = Thread { [self] in readEvents() }
        thread.name = "Sharing.DirectoryWatcher"
        thread.start()
      }
      return nextID
    }
    guard let id else { return SharedSubscription {} }
    return SharedSubscription { [self] in unwatch(directory: directory, name: name, id: id) }
  }

  /// Watches `directory` again if it was deleted and re-created (the kernel drops the watch
  /// of a deleted directory). File storage calls this after creating a directory.
  func rewatch(_ directory: URL) {
    let path = directory.standardizedFileURL.path
    lock.withLock {
      if handlers[path] != nil { _ = addWatch(path, force: true) }
    }
  }

  private func addWatchIfNeeded(_ directory: String) -> Bool {
    addWatch(directory, force: false)
  }

  /// Call with `lock` held. `force` asks the kernel even if we think we watch it: adding an
  /// existing watch returns the same descriptor, a re-created directory gets a new one.
  private func addWatch(_ directory: String, force: Bool) -> Bool {
    if !force, descriptorByDirectory[directory] != nil { return true }
    // Closed writes and renames into the directory cover atomic replacement and editors;
    // deletes and renames away cover removal.
    let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_DELETE | IN_CREATE)
    let descriptor = inotify_add_watch(fd, directory, mask)
    guard descriptor >= 0 else { return false }
    if let old = descriptorByDirectory[directory], old != descriptor {
      directoryByDescriptor[old] = nil
    }
    descriptorByDirectory[directory] = descriptor
    directoryByDescriptor[descriptor] = directory
    return true
  }

  private func unwatch(directory: String, name: String, id: Int) {
    lock.withLock {
      handlers[directory]?[name]?.removeValue(forKey: id)
      if handlers[directory]?[name]?.isEmpty == true { handlers[directory]?[name] = nil }
      if handlers[directory]?.isEmpty == true {
        handlers[directory] = nil
        if let descriptor = descriptorByDirectory.removeValue(forKey: directory) {
          directoryByDescriptor[descriptor] = nil
          inotify_rm_watch(fd, descriptor)
        }
      }
    }
  }

  private func readEvents() {
    var buffer = [UInt8](repeating: 0, count: 64 * 1024)
    while true {
      let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
      if count < 0 {
        if errno == EINTR { continue }
        return
      }
      var offset = 0
      var changed: [@Sendable () -> Void] = []
      lock.withLock {
        // struct inotify_event { int wd; uint32_t mask, cookie, len; char name[len]; }
        while offset + 16 <= count {
          let (descriptor, mask, length) = buffer.withUnsafeBytes { bytes in
            (
              bytes.loadUnaligned(fromByteOffset: offset, as: Int32.self),
              bytes.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self),
              Int(bytes.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
            )
          }
          let nameBytes = buffer[(offset + 16)..<(offset + 16 + length)].prefix { $0 != 0 }
          let name = String(decoding: nameBytes, as: UTF8.self)
          offset += 16 + length
          if mask & UInt32(IN_IGNORED) != 0 {
            // The directory is gone: forget the watch (handlers stay, for `rewatch`).
            if let directory = directoryByDescriptor.removeValue(forKey: descriptor),
              descriptorByDirectory[directory] == descriptor
            {
              descriptorByDirectory[directory] = nil
            }
            continue
          }
          if let directory = directoryByDescriptor[descriptor],
            let forName = handlers[directory]?[name]
          {
            changed.append(contentsOf: forName.values)
          }
        }
      }
      for handler in changed { handler() }
    }
  }
}
