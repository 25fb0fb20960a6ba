import Foundation

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
/// e.g. `setpriv` to run as another user) starts `syncups` when given.
public func runSyncups(
  _ arguments: [String], environment: [String: String] = [:], launcher: [String] = []
) throws -> SyncupsRun {
  if let problem = syncupsBinaryProblem { throw problem }
  let process = Process()
  if let program = launcher.first {
    process.executableURL = URL(fileURLWithPath: program)
    process.arguments = launcher.dropFirst() + [syncupsBinary.path] + arguments
  } else {
    process.executableURL = syncupsBinary
    process.arguments = arguments
  }
  process.environment = syncupsEnvironment(environment)
  let out = Pipe()
  let err = Pipe()
  process.standardInput = FileHandle.nullDevice
  process.standardOutput = out
  process.standardError = err
  try process.run()
  // Read both pipes at once so neither fills up.
  let errData = Collected()
  let reader = Thread { errData.set(err.fileHandleForReading.readDataToEndOfFile()) }
  reader.start()
  let outData = out.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  return SyncupsRun(
    status: process.terminationStatus,
    stdout: String(decoding: outData, as: UTF8.self),
    stderr: String(decoding: errData.wait(), as: UTF8.self)
  )
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

/// Data one thread reads and another waits for.
final class Collected: @unchecked Sendable {
  private let condition = NSCondition()
  private var data: Data?

  func set(_ data: Data) {
    condition.withLock {
      self.data = data
      condition.broadcast()
    }
  }

  func wait() -> Data {
    condition.withLock {
      while data == nil { condition.wait() }
      return data ?? Data()
    }
  }
}
