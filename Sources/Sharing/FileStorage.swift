import Dependencies
import Foundation

/// Where `.fileStorage` keys read and write: the file system and how often writes may happen.
///
/// The `defaultFileStorage` dependency is `.fileSystem` (the disk) in the app and a fresh
/// `.inMemory()` in tests, so tests never touch real files unless they ask to:
///
///     withDependencies { $0.defaultFileStorage = .fileSystem } operation: { ... }
public struct FileStorage: Sendable {
  public var fileSystem: any FileSystem
  /// Writes of one file are at least this far apart while changes keep coming (the first
  /// change after a quiet period is written at once; the last change is always written).
  public var saveInterval: Duration
  /// Whether pending writes are flushed at exit and on SIGINT/SIGTERM (see `Termination`).
  public var flushesOnTermination: Bool
  /// The values stored through this storage (and its copies), for `flush()`.
  let sessions = FileStorageSessions()

  public init(
    fileSystem: any FileSystem,
    saveInterval: Duration = .seconds(1),
    flushesOnTermination: Bool = true
  ) {
    self.fileSystem = fileSystem
    self.saveInterval = saveInterval
    self.flushesOnTermination = flushesOnTermination
  }

  /// The disk.
  public static var fileSystem: FileStorage { FileStorage(fileSystem: LiveFileSystem()) }

  /// The disk, with another write interval (a long one keeps writes pending, for tests).
  public static func fileSystem(saveInterval: Duration) -> FileStorage {
    FileStorage(fileSystem: LiveFileSystem(), saveInterval: saveInterval)
  }

  /// A dictionary of files; nothing is written to disk.
  public static func inMemory(_ fileSystem: InMemoryFileSystem = InMemoryFileSystem())
    -> FileStorage
  {
    FileStorage(fileSystem: fileSystem, saveInterval: .seconds(1), flushesOnTermination: false)
  }

  /// Writes every pending change of every file-storage reference in the process now, waiting
  /// for the writes. The app can call it before exiting on its own terms; it also runs at
  /// normal exit and on SIGINT/SIGTERM. Throws the first failure after trying every file.
  public static func flushAll() throws {
    try FileStorageSessions.everywhere.flush()
  }

  /// Writes every pending change of the values stored through this storage, waiting for them.
  public func flush() throws {
    try sessions.flush()
  }
}

private enum DefaultFileStorageKey: DependencyKey {
  static var liveValue: FileStorage { .fileSystem }
  static var testValue: FileStorage { .inMemory() }
}

extension DependencyValues {
  /// The storage `.fileStorage` keys use: the disk live, an in-memory file system in tests.
  public var defaultFileStorage: FileStorage {
    get { self[DefaultFileStorageKey.self] }
    set { self[DefaultFileStorageKey.self] = newValue }
  }
}

/// What went wrong with a stored file. Nothing that was on disk is ever deleted or overwritten
/// without being kept: the paths say where it is.
public enum SharedFileError: Error, CustomStringConvertible, Equatable {
  /// The file did not decode. It was renamed, byte for byte, to `preservedAt`, and the default
  /// value is in use.
  case corrupt(url: URL, preservedAt: URL, reason: String)
  /// Another process changed the file while this one had unsaved changes. This process's value
  /// was written; the other version was kept, byte for byte, at `preservedAt`.
  case conflict(url: URL, preservedAt: URL)
  /// Reading or writing failed.
  case io(url: URL, reason: String)

  public var url: URL {
    switch self {
    case .corrupt(let url, _, _), .conflict(let url, _), .io(let url, _): url
    }
  }

  /// Where the unreadable or conflicting file was kept, if it was.
  public var preservedURL: URL? {
    switch self {
    case .corrupt(_, let preserved, _), .conflict(_, let preserved): preserved
    case .io: nil
    }
  }

  public var description: String {
    switch self {
    case .corrupt(let url, let preserved, let reason):
      "corrupt \(url.lastPathComponent) (\(reason)), preserved at \(preserved.path)"
    case .conflict(let url, let preserved):
      "\(url.lastPathComponent) was changed by another program at the same time; "
        + "its version was preserved at \(preserved.path)"
    case .io(let url, let reason):
      "cannot access \(url.path): \(reason)"
    }
  }
}
