import Foundation
import TestSupport

/// The `syncups` binary of this build (see `BuiltProgram`); `SYNCUPS_BINARY` overrides it (how
/// `make test-release` runs the tests against the optimized build). When it is not built: the
/// first place looked (running it then fails, and `syncupsBinaryProblem` says why).
public let syncupsBinary: URL = {
  switch findSyncups() {
  case .success(let url): url
  case .failure(let problem): URL(fileURLWithPath: problem.searched.first ?? "syncups")
  }
}()

/// Why `syncupsBinary` does not exist, if it does not.
public var syncupsBinaryProblem: BinaryNotFound? {
  if case .failure(let problem) = findSyncups() { return problem }
  return nil
}

private func findSyncups() -> Result<URL, BinaryNotFound> {
  BuiltProgram.find("syncups", override: ProcessInfo.processInfo.environment["SYNCUPS_BINARY"])
}

/// What a finished `syncups` printed, and how it exited.
public struct SyncupsRun: CustomStringConvertible, Sendable {
  public var status: Int32
  public var stdout: String
  public var stderr: String
  public var stderrLines: [String] {
    stderr.split(separator: "\n").map(String.init)
  }
  public var description: String { "status \(status)\nstdout:\n\(stdout)\nstderr:\n\(stderr)" }

  public init(status: Int32, stdout: String, stderr: String) {
    self.status = status
    self.stdout = stdout
    self.stderr = stderr
  }
}

/// Runs `syncups` to the end without a terminal (stdin is /dev/null), with UTC dates, the test
/// process's environment plus `environment`, and none of the test runner's variables (which
/// would make the program pick test dependencies). `launcher` (a program and its arguments,
/// e.g. `setpriv` to run as another user) starts `syncups` when given. Its exit is awaited: no
/// thread waits for it.
public func runSyncups(
  _ arguments: [String], environment: [String: String] = [:], launcher: [String] = []
) async throws -> SyncupsRun {
  if let problem = syncupsBinaryProblem { throw problem }
  let finished = try await ChildProcess.inTurn {
    let child =
      if let program = launcher.first {
        try ChildProcess(
          URL(fileURLWithPath: program), launcher.dropFirst() + [syncupsBinary.path] + arguments,
          environment: syncupsEnvironment(environment))
      } else {
        try ChildProcess(syncupsBinary, arguments, environment: syncupsEnvironment(environment))
      }
    return await child.finished()
  }
  guard let status = finished.status else {
    return SyncupsRun(
      status: -1, stdout: finished.stdout,
      stderr: finished.stderr + "[still running after \(safetyNet): killed by the test]\n")
  }
  return SyncupsRun(status: status, stdout: finished.stdout, stderr: finished.stderr)
}

/// The environment a test runs `syncups` in: the test process's, with UTC dates and none of the
/// test runner's variables (which would make the program pick test dependencies), plus `extra`.
func syncupsEnvironment(_ extra: [String: String]) -> [String: String] {
  var merged = ProcessInfo.processInfo.environment
  for key in [
    "XCTestBundlePath", "XCTestConfigurationFilePath", "XCTestSessionIdentifier",
    "XCTestBundleInjectPath",
  ] {
    merged[key] = nil
  }
  merged["TZ"] = "UTC"
  merged.merge(extra) { $1 }
  return merged
}
