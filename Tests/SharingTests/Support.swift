import Foundation
import Sharing
import TestSupport

#if canImport(Glibc)
  import Glibc
#endif

/// Wraps a file system and counts what file storage does with it.
final class CountingFileSystem: FileSystem, @unchecked Sendable {
  let base: any FileSystem
  /// false: outside changes are never reported (as if the change raced with our write).
  let reportsChanges: Bool
  private let lock = NSLock()
  private var _writes = 0
  private var _onLook: (@Sendable () -> Void)?
  init(_ base: any FileSystem, reportsChanges: Bool = true) {
    self.base = base
    self.reportsChanges = reportsChanges
  }
  var writes: Int { lock.withLock { _writes } }
  /// Called whenever file storage looks at a file: reads it or takes its lock.
  var onLook: (@Sendable () -> Void)? {
    get { lock.withLock { _onLook } }
    set { lock.withLock { _onLook = newValue } }
  }

  func read(_ url: URL) throws -> Data? {
    onLook?()
    return try base.read(url)
  }
  func writeAtomically(_ data: Data, to url: URL) throws {
    lock.withLock { _writes += 1 }
    try base.writeAtomically(data, to: url)
  }
  func moveItem(at source: URL, to destination: URL) throws {
    try base.moveItem(at: source, to: destination)
  }
  func fileExists(_ url: URL) -> Bool { base.fileExists(url) }
  func withExclusiveLock<R>(for url: URL, _ body: () throws -> R) throws -> R {
    onLook?()
    return try base.withExclusiveLock(for: url, body)
  }
  func watch(_ url: URL, onChange: @escaping @Sendable () -> Void) -> SharedSubscription {
    reportsChanges ? base.watch(url, onChange: onChange) : SharedSubscription {}
  }
}

/// The real disk, without installing exit/signal handlers in the test runner.
func diskStorage(
  _ fileSystem: any FileSystem = LiveFileSystem(), saveInterval: Duration = .seconds(1)
)
  -> FileStorage
{
  FileStorage(fileSystem: fileSystem, saveInterval: saveInterval, flushesOnTermination: false)
}

/// What the probe stores (the same JSON shape as SharingProbe's `ProbeState`).
struct ProbeState: Codable, Equatable, Sendable {
  var count = 0
  var note = ""
  var padding = ""
}

func decodeProbeState(_ url: URL) throws -> ProbeState {
  try JSONDecoder().decode(ProbeState.self, from: Data(contentsOf: url))
}

/// The SharingProbe child program, built beside the test bundle (SharingTests depends on it).
enum Probe {
  static let executable = BuiltProgram.url("SharingProbe")

  /// Starts the probe; `mode` and `arguments` as SharingProbe's main.swift reads them.
  static func start(_ mode: String, _ file: URL, _ arguments: [String] = []) throws
    -> ChildProcess
  {
    guard let executable else { throw ProbeError.notFound }
    return try ChildProcess(
      executable, [mode, file.path] + arguments, standardOutput: .discard,
      standardError: .inherit)
  }

  /// Runs the probe to completion (its exit awaited); its status.
  @discardableResult
  static func run(_ mode: String, _ file: URL, _ arguments: [String] = []) async throws -> Int32 {
    let process = try start(mode, file, arguments)
    await process.waitUntilExit()
    return process.terminationStatus
  }

  /// Waits until the probe has created `<file>.ready`, then removes it.
  static func waitUntilReady(_ file: URL, timeout: Duration = .seconds(30)) async -> Bool {
    let ready = file.path + ".ready"
    let found = await waitUntil(timeout: timeout) { FileManager.default.fileExists(atPath: ready) }
    try? FileManager.default.removeItem(atPath: ready)
    return found
  }

  enum ProbeError: Error { case notFound }
}
