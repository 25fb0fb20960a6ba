import Foundation
import TestSupport

/// The `syncups` binary of this build. SwiftPM puts executables in the same products folder as
/// the test bundle (whatever the triple, configuration or --build-path), so look beside the
/// running test program first; `SYNCUPS_BINARY` overrides it (how `make test-release` runs the
/// tests against the optimized build). When it is not built: the first place looked (running it
/// then fails, and `syncupsBinaryProblem` says why).
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

public struct BinaryNotFound: Error, CustomStringConvertible {
  public var searched: [String]
  public var description: String {
    "the syncups binary was not built (looked in \(searched.joined(separator: ", "))); "
      + "run swift build"
  }
}

private func findSyncups() -> Result<URL, BinaryNotFound> {
  let fileManager = FileManager.default
  if let override = ProcessInfo.processInfo.environment["SYNCUPS_BINARY"], !override.isEmpty {
    return fileManager.isExecutableFile(atPath: override)
      ? .success(URL(fileURLWithPath: override)) : .failure(BinaryNotFound(searched: [override]))
  }
  var folders: [URL] = []
  if let executable = try? fileManager.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
    folders.append(URL(fileURLWithPath: executable).deletingLastPathComponent())
  }
  folders.append(Bundle.main.bundleURL)
  folders.append(Bundle.main.bundleURL.deletingLastPathComponent())
  if let first = CommandLine.arguments.first {
    folders.append(URL(fileURLWithPath: first).deletingLastPathComponent())
  }
  // A test bundle folder (`X.xctest/...`) sits inside the products folder.
  folders += folders.compactMap { folder in
    var url = folder
    while url.path != "/" {
      if url.pathExtension == "xctest" { return url.deletingLastPathComponent() }
      url = url.deletingLastPathComponent()
    }
    return nil
  }
  folders.append(repositoryRoot.appendingPathComponent(".build/debug"))
  let candidates = folders.map { $0.appendingPathComponent("syncups").standardizedFileURL }
  let found = candidates.first { url in
    var isDirectory: ObjCBool = false
    return fileManager.fileExists(atPath: url.path, isDirectory: &isDirectory)
      && !isDirectory.boolValue && fileManager.isExecutableFile(atPath: url.path)
  }
  return found.map { .success($0) } ?? .failure(BinaryNotFound(searched: candidates.map(\.path)))
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
