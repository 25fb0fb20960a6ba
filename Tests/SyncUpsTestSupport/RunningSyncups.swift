import Foundation
import TestSupport

/// A `syncups` running in the background with `SYNCUPS_HOME` set to `home`, in the environment
/// `runSyncups` gives (UTC dates, none of the test runner's variables) plus `environment`; its
/// output is collected as it comes and its exit is awaited (`ChildProcess`).
public final class RunningSyncups: Sendable {
  public let child: ChildProcess

  public init(_ arguments: [String], home: URL, environment: [String: String] = [:]) throws {
    child = try ChildProcess(
      syncupsBinary, arguments,
      environment: syncupsEnvironment(["SYNCUPS_HOME": home.path].merging(environment) { $1 }))
  }

  public var stdout: String { child.stdout }
  public var stderr: String { child.stderr }
  public var stdoutLines: [String] { stdout.split(separator: "\n").map(String.init) }
  public var stderrLines: [String] { stderr.split(separator: "\n").map(String.init) }

  /// Waits until `condition` holds on the output so far; false when the process ended first
  /// or after `timeout` (the safety net).
  public func wait(
    for condition: (RunningSyncups) -> Bool, timeout: Duration = safetyNet
  ) async -> Bool {
    _ = await waitUntil(timeout: timeout) { condition(self) || !child.isRunning }
    // Ended: its last output first.
    if !child.isRunning { _ = await child.finish() }
    return condition(self)
  }

  /// Waits for the end; its status (nil if it had to be killed after `timeout`).
  public func finish(timeout: Duration = safetyNet) async -> Int32? {
    await child.finish(timeout: timeout)
  }

  public func signal(_ number: Int32) { child.signal(number) }
}
