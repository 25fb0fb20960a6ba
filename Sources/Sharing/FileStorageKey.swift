import Dependencies
import ErrorWords
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Persists a Codable value as a file (JSON by default).
///
/// - Writes are atomic and durable (temporary sibling, fsync, rename, fsync of the directory)
///   and coalesced: the first change after a quiet period is written at once, then at most one
///   write per `FileStorage.saveInterval` while changes keep coming; the last value is always
///   written, and pending writes are flushed at exit, on SIGINT/SIGTERM, by `save()` and by
///   `FileStorage.flushAll()`.
/// - A file that exists but does not decode is renamed, byte for byte, to
///   `<name>.corrupt-<timestamp>`; the reference uses its default and reports
///   `SharedFileError.corrupt` (with the preserved path) as `loadError`.
/// - Changes made by other processes are picked up (inotify) and reach every reference.
/// - Writers take an advisory lock (`flock` on `.<name>.lock`) and re-read the file first. If
///   it changed since this process last loaded or saved it, the other version is renamed to
///   `<name>.conflict-<timestamp>` before this process's value is written, and `saveError`
///   reports `SharedFileError.conflict`. So no process silently loses another's update.
public struct FileStorageKey<Value: Sendable>: SharedKey {
  public let url: URL
  let decode: @Sendable (Data) throws -> Value
  let encode: @Sendable (Value) throws -> Data

  public init(
    url: URL,
    decode: @escaping @Sendable (Data) throws -> Value,
    encode: @escaping @Sendable (Value) throws -> Data
  ) {
    self.url = url.standardizedFileURL
    self.decode = decode
    self.encode = encode
  }

  public var id: URL { url }
  public var description: String { ".fileStorage(\(String(reflecting: url.path)))" }

  /// Reads the `defaultFileStorage` dependency in effect where the first reference is created.
  public func load(context: SharedKeyContext<Value>) throws -> Value? {
    @Dependency(\.defaultFileStorage) var storage
    let session = FileStorageSession(
      url: url, storage: storage, decode: decode, encode: encode, context: context
    )
    context.storage = session
    return try session.load()
  }

  public func subscribe(context: SharedKeyContext<Value>) -> SharedSubscription {
    (context.storage as? FileStorageSession<Value>)?.watch() ?? SharedSubscription {}
  }

  public func save(_ value: Value, context: SharedKeyContext<Value>, immediately: Bool) throws {
    try (context.storage as? FileStorageSession<Value>)?.save(value, immediately: immediately)
  }
}

extension SharedReaderKey {
  /// `@Shared(.fileStorage(url)) var items: [Item] = []`: JSON (pretty-printed, sorted keys,
  /// unless you pass your own coders).
  public static func fileStorage<Value: Codable & Sendable>(
    _ url: URL,
    decoder: JSONDecoder = JSONDecoder(),
    encoder: JSONEncoder = defaultFileStorageEncoder()
  ) -> Self where Self == FileStorageKey<Value> {
    FileStorageKey(
      url: url,
      decode: { data in try decoder.decode(Value.self, from: data) },
      encode: { value in try encoder.encode(value) }
    )
  }

  /// A file in any format: you say how to turn bytes into a value and back.
  public static func fileStorage<Value: Sendable>(
    _ url: URL,
    decode: @escaping @Sendable (Data) throws -> Value,
    encode: @escaping @Sendable (Value) throws -> Data
  ) -> Self where Self == FileStorageKey<Value> {
    FileStorageKey(url: url, decode: decode, encode: encode)
  }
}

public func defaultFileStorageEncoder() -> JSONEncoder {
  let encoder = JSONEncoder()
  encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
  return encoder
}

/// The state behind one file-storage value: what is on disk as far as we know, the pending
/// write, and the write schedule.
///
/// Locks, always taken in this order: `ioLock` (one disk operation at a time), the value's lock
/// (through the context), `lock` (this object's fields). Mutations take only the last two and
/// never wait for the disk.
final class FileStorageSession<Value: Sendable>: FlushableSession, @unchecked Sendable {
  let url: URL
  let storage: FileStorage
  let decode: @Sendable (Data) throws -> Value
  let encode: @Sendable (Value) throws -> Data
  weak var context: SharedKeyContext<Value>?

  private let ioLock = NSLock()
  private let lock = NSLock()
  /// The bytes on disk as of our last load, save or accepted outside change (nil: no file).
  private var lastKnownData: Data?
  /// A change not yet written.
  private var pending: Value?
  private var flushScheduled = false
  private var lastWriteAttempt: ContinuousClock.Instant?
  private let queue: DispatchQueue

  private var fileSystem: any FileSystem { storage.fileSystem }

  init(
    url: URL,
    storage: FileStorage,
    decode: @escaping @Sendable (Data) throws -> Value,
    encode: @escaping @Sendable (Value) throws -> Data,
    context: SharedKeyContext<Value>
  ) {
    self.url = url
    self.storage = storage
    self.decode = decode
    self.encode = encode
    self.context = context
    self.queue = DispatchQueue(label: "Sharing.FileStorage \(url.lastPathComponent)")
    FileStorageSessions.everywhere.add(self)
    storage.sessions.add(self)
    if storage.flushesOnTermination { Termination.installHandlers() }
  }

  // MARK: Loading

  func load() throws -> Value? {
    try ioLock.withLock {
      do {
        return try fileSystem.withExclusiveLock(for: url) { () throws -> Value? in
          guard let data = try fileSystem.read(url) else {
            lock.withLock { lastKnownData = nil }
            return nil
          }
          do {
            let value = try decode(data)
            lock.withLock { lastKnownData = data }
            return value
          } catch {
            let preserved = try preserve(kind: "corrupt")
            lock.withLock { lastKnownData = nil }
            throw SharedFileError.corrupt(url: url, preservedAt: preserved, reason: describe(error))
          }
        }
      } catch let error as SharedFileError {
        throw error
      } catch {
        throw SharedFileError.io(url: url, reason: describe(error))
      }
    }
  }

  func watch() -> SharedSubscription {
    fileSystem.watch(url) { [weak self] in
      guard let self else { return }
      queue.async { self.reloadFromDisk() }
    }
  }

  /// Another process (or this one) changed the file: adopt its value unless ours has unsaved
  /// changes (then the next save keeps their version aside as a conflict).
  private func reloadFromDisk() {
    ioLock.lock()
    defer { ioLock.unlock() }
    var undecodableReads = 0
    while true {
      let data: Data?
      do {
        // Read under the writers' lock: a writer that keeps another version aside renames the
        // file before it writes its own, and that moment must not look like a deletion (which
        // would make our next save treat their write as a conflict and write ours again).
        data = try fileSystem.withExclusiveLock(for: url) { try fileSystem.read(url) }
      } catch {
        context?.reportLoadError(SharedFileError.io(url: url, reason: describe(error)))
        return
      }
      if data == lock.withLock({ lastKnownData }) { return }  // our own write, or no change
      guard let data else {
        // Deleted elsewhere: keep the value in memory; the next save writes it again.
        lock.withLock { lastKnownData = nil }
        return
      }
      do {
        let value = try decode(data)
        guard let context else { return }
        context.withValueLock {
          guard lock.withLock({ pending == nil }) else { return }
          context.update(value)
          lock.withLock { lastKnownData = data }
        }
        return
      } catch {
        // A writer that does not replace files atomically may be half-way: look again shortly
        // before deciding the file is corrupt.
        undecodableReads += 1
        if undecodableReads < 4 {
          Thread.sleep(forTimeInterval: 0.1)
          continue
        }
        do {
          let preserved = try fileSystem.withExclusiveLock(for: url) { () throws -> URL? in
            guard try fileSystem.read(url) == data else { return nil }  // changed again: retry
            let preserved = try preserve(kind: "corrupt")
            lock.withLock { lastKnownData = nil }
            return preserved
          }
          guard let preserved else { continue }
          context?.reportLoadError(
            SharedFileError.corrupt(url: url, preservedAt: preserved, reason: describe(error))
          )
        } catch {
          context?.reportLoadError(SharedFileError.io(url: url, reason: describe(error)))
        }
        return
      }
    }
  }

  // MARK: Saving

  func save(_ value: Value, immediately: Bool) throws {
    if immediately {
      // An explicit save writes what is pending (waiting for a write in flight); it does not
      // write the same value again, which would make a later outside change look like a
      // conflict. Only a value never written (no file yet) is queued here.
      lock.withLock { if pending == nil, lastKnownData == nil { pending = value } }
      try flush()
    } else {
      lock.withLock { pending = value }
      scheduleFlush()
    }
  }

  private func scheduleFlush() {
    let delay: Duration? = lock.withLock {
      guard !flushScheduled else { return nil }
      flushScheduled = true
      guard let lastWriteAttempt else { return .zero }
      let elapsed = ContinuousClock.now - lastWriteAttempt
      return elapsed >= storage.saveInterval ? .zero : storage.saveInterval - elapsed
    }
    guard let delay else { return }
    runScheduledFlush(after: delay)
  }

  private func runScheduledFlush(after delay: Duration) {
    let seconds = Double(delay.components.seconds) + Double(delay.components.attoseconds) / 1e18
    queue.asyncAfter(deadline: .now() + seconds) { [self] in
      // An explicit save may have written meanwhile: keep the interval from that write.
      if let wait = try? flush(notWithin: storage.saveInterval) {
        runScheduledFlush(after: wait)
        return
      }
      let more = lock.withLock {
        flushScheduled = false
        return pending != nil
      }
      if more { scheduleFlush() }
    }
  }

  /// Writes the pending change, if any, and returns when it is on disk.
  func flush() throws {
    try flush(notWithin: nil)
  }

  /// Writes the pending change unless the last write was less than `interval` ago; then
  /// returns how much longer to wait.
  @discardableResult
  private func flush(notWithin interval: Duration?) throws -> Duration? {
    ioLock.lock()
    defer { ioLock.unlock() }
    if let interval, let lastWriteAttempt = lock.withLock({ lastWriteAttempt }) {
      let elapsed = ContinuousClock.now - lastWriteAttempt
      if elapsed < interval { return interval - elapsed }
    }
    guard
      let value = lock.withLock({ () -> Value? in
        defer { pending = nil }
        return pending
      })
    else { return nil }
    var problem: SharedFileError?
    do {
      let data = try encode(value)
      try fileSystem.withExclusiveLock(for: url) {
        let known = lock.withLock { lastKnownData }
        let disk = try fileSystem.read(url)
        if data == disk, disk == known { return }  // nothing new to write
        if let disk, disk != known {
          // Someone else wrote since we last looked: keep their bytes before writing ours.
          if (try? decode(disk)) != nil {
            problem = .conflict(url: url, preservedAt: try preserve(kind: "conflict"))
          } else {
            problem = .corrupt(
              url: url, preservedAt: try preserve(kind: "corrupt"), reason: "does not decode"
            )
          }
        }
        try fileSystem.writeAtomically(data, to: url)
        lock.withLock {
          lastKnownData = data
          lastWriteAttempt = .now
        }
      }
    } catch {
      lock.withLock {
        if pending == nil { pending = value }  // keep it for the next attempt
        lastWriteAttempt = .now
      }
      let failure = error as? SharedFileError ?? .io(url: url, reason: describe(error))
      context?.reportSaveError(failure)
      throw failure
    }
    context?.reportSaveError(problem)
    return nil
  }

  // MARK: Helpers

  /// Renames the file to `<name>.<kind>-<UTC timestamp>`, never replacing anything.
  private func preserve(kind: String) throws -> URL {
    let directory = url.deletingLastPathComponent()
    let base = "\(url.lastPathComponent).\(kind)-\(timestamp())"
    var candidate = directory.appendingPathComponent(base)
    var counter = 2
    while fileSystem.fileExists(candidate) {
      candidate = directory.appendingPathComponent("\(base)-\(counter)")
      counter += 1
    }
    try fileSystem.moveItem(at: url, to: candidate)
    return candidate
  }
}

private func describe(_ error: any Error) -> String { ErrorWords.describe(error) }

/// `20261121T121400.123Z`: sortable, no characters file systems dislike.
private func timestamp() -> String {
  var now = timespec()
  clock_gettime(CLOCK_REALTIME, &now)
  var seconds = now.tv_sec
  var parts = tm()
  gmtime_r(&seconds, &parts)
  func pad(_ value: Int32, _ width: Int) -> String {
    let text = String(value)
    return String(repeating: "0", count: max(0, width - text.count)) + text
  }
  return pad(parts.tm_year + 1900, 4) + pad(parts.tm_mon + 1, 2) + pad(parts.tm_mday, 2) + "T"
    + pad(parts.tm_hour, 2) + pad(parts.tm_min, 2) + pad(parts.tm_sec, 2) + "."
    + pad(Int32(now.tv_nsec / 1_000_000), 3) + "Z"
}
