import Foundation
import TestThreads

#if canImport(Glibc)
  import Glibc
#endif

/// A `syncups` running in the background with `SYNCUPS_HOME` set to `home`, in the environment
/// `runSyncups` gives (UTC dates, none of the test runner's variables) plus `environment`; its
/// output is collected as it comes.
public final class RunningSyncups: @unchecked Sendable {
  public let process = Process()
  private let lock = NSLock()
  private var out = Data()
  private var err = Data()
  private var readers: [PipeReader] = []

  public init(_ arguments: [String], home: URL, environment: [String: String] = [:]) throws {
    process.executableURL = syncupsBinary
    process.arguments = arguments
    process.environment = syncupsEnvironment(
      ["SYNCUPS_HOME": home.path].merging(environment) { $1 })
    let stdout = Pipe()
    let stderr = Pipe()
    process.standardOutput = stdout
    process.standardError = stderr
    process.standardInput = FileHandle.nullDevice
    try process.run()
    readers = [
      PipeReader(stdout.fileHandleForReading) { [weak self] data in
        self?.lock.withLock { self?.out.append(data) }
      },
      PipeReader(stderr.fileHandleForReading) { [weak self] data in
        self?.lock.withLock { self?.err.append(data) }
      },
    ]
  }

  public var stdout: String { lock.withLock { String(decoding: out, as: UTF8.self) } }
  public var stderr: String { lock.withLock { String(decoding: err, as: UTF8.self) } }
  public var stdoutLines: [String] { stdout.split(separator: "\n").map(String.init) }
  public var stderrLines: [String] { stderr.split(separator: "\n").map(String.init) }

  /// Waits until `condition` holds on the output so far; false when the process ended first
  /// or after `timeout` (a safety net, far above a normal run).
  public func wait(
    for condition: (RunningSyncups) -> Bool, timeout: Duration = .seconds(600)
  ) async -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
      if condition(self) { return true }
      if !process.isRunning { return condition(self) }
      try? await Task.sleep(for: .milliseconds(50))
    }
    return false
  }

  /// Waits for the end; its status (nil if it had to be killed after `timeout`).
  public func finish(timeout: Duration = .seconds(600)) async -> Int32? {
    let deadline = ContinuousClock.now + timeout
    while process.isRunning, ContinuousClock.now < deadline {
      try? await Task.sleep(for: .milliseconds(50))
    }
    guard !process.isRunning else {
      kill(process.processIdentifier, SIGKILL)
      return nil
    }
    // Its last output (a child it started could keep the pipes open: not waited for long).
    for reader in readers { _ = await reader.waitForEnd(timeout: .seconds(10)) }
    return process.terminationStatus
  }

  public func signal(_ number: Int32) { kill(process.processIdentifier, number) }
}
