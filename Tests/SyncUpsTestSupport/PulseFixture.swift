import AudioCore
import Foundation

/// The repository's root, found from this file's path.
public let repositoryRoot = URL(fileURLWithPath: #filePath)
  .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

public let samples = repositoryRoot.appendingPathComponent("Samples")

/// Runs a command and returns its standard output; throws when it exits non-zero.
@discardableResult
public func run(_ executable: String, _ arguments: [String], environment: [String: String]? = nil)
  throws -> String
{
  let process = Process()
  process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
  process.arguments = [executable] + arguments
  if let environment { process.environment = environment }
  let output = Pipe()
  process.standardOutput = output
  process.standardError = FileHandle.nullDevice
  try process.run()
  let data = output.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  guard process.terminationStatus == 0 else {
    throw FixtureError(
      "\(executable) \(arguments.joined(separator: " ")) exited \(process.terminationStatus)")
  }
  return String(decoding: data, as: UTF8.self)
}

public struct FixtureError: Error, CustomStringConvertible {
  public var description: String
  public init(_ description: String) { self.description = description }
}

/// The private PulseAudio daemon `.ci/pulse` starts (once; it is idempotent), and this process's
/// environment pointed at it, so tests never depend on a user's session daemon.
public enum PrivatePulse {
  static let ready: Result<[String: String], FixtureError> = {
    do {
      let exports = try run(repositoryRoot.appendingPathComponent(".ci/pulse").path, [])
      var environment: [String: String] = [:]
      for assignment in exports.split(separator: " ").dropFirst() {
        let parts = assignment.trimmingCharacters(in: .whitespacesAndNewlines)
          .split(separator: "=", maxSplits: 1)
        guard parts.count == 2 else { continue }
        environment[String(parts[0])] = String(parts[1])
        setenv(String(parts[0]), String(parts[1]), 1)
      }
      return .success(environment)
    } catch {
      return .failure(FixtureError("cannot start the private PulseAudio daemon: \(error)"))
    }
  }()

  public static func start() throws { _ = try ready.get() }

  /// The variables that point a program at the daemon (starting it first).
  public static func environment() throws -> [String: String] { try ready.get() }
}

/// A virtual microphone (`module-pipe-source`): bytes written into its FIFO come out of the
/// source unchanged.
public final class VirtualMicrophone: @unchecked Sendable {
  public let name: String
  public let fifo: String
  private let module: String
  private let writer: FileHandle
  private let environment: [String: String]?

  /// A microphone on the shared private daemon, or on the daemon `environment` points at.
  public init(environment: [String: String]? = nil) throws {
    // Writing into the FIFO after its server died must fail, not kill the test process.
    signal(SIGPIPE, SIG_IGN)
    if environment == nil { try PrivatePulse.start() }
    self.environment = environment
    let id = UUID().uuidString.prefix(8).lowercased()
    name = "syncups_virtmic_\(id)"
    fifo = NSTemporaryDirectory() + "syncups-virtmic-\(id)"
    module = try run(
      "pactl",
      [
        "load-module", "module-pipe-source", "source_name=\(name)", "file=\(fifo)",
        "format=s16le", "rate=16000", "channels=1",
      ], environment: environment
    ).trimmingCharacters(in: .whitespacesAndNewlines)
    guard let writer = FileHandle(forWritingAtPath: fifo) else {
      throw FixtureError("cannot open \(fifo)")
    }
    // PulseAudio reads the FIFO only while somebody records: a write into a full pipe must not
    // block a thread of the cooperative pool (two here), or every other test stops with it.
    let flags = fcntl(writer.fileDescriptor, F_GETFL)
    _ = fcntl(writer.fileDescriptor, F_SETFL, flags | O_NONBLOCK)
    self.writer = writer
  }

  /// Writes samples into the microphone in 50 ms blocks, paced like speech, then silence like a
  /// quiet room until `until` returns true. Returns the wall-clock instant of the first sample.
  public func play(_ samples: [Int16], thenSilenceUntil until: @Sendable () -> Bool) async throws
    -> ContinuousClock.Instant
  {
    let clock = ContinuousClock()
    let started = clock.now
    let block = 800
    var offset = 0
    let silence = [Int16](repeating: 0, count: block)
    while offset < samples.count || !until() {
      try await clock.sleep(until: started + .seconds(Double(offset) / 16_000))
      let data: Data
      if offset < samples.count {
        data = samples[offset..<min(samples.count, offset + block)].withUnsafeBytes { Data($0) }
      } else {
        data = silence.withUnsafeBytes { Data($0) }
      }
      guard try await write(data, unlessDone: until) else { break }
      offset += block
    }
    return started
  }

  /// Writes one block (under `PIPE_BUF`: whole or not at all). While the pipe is full (nobody is
  /// recording) it waits, and gives up (false) once `done` says the microphone is no longer
  /// needed: a recording that stopped before the end of the samples never hangs the test.
  private func write(_ data: Data, unlessDone done: () -> Bool) async throws -> Bool {
    while true {
      let written = data.withUnsafeBytes {
        Glibc.write(writer.fileDescriptor, $0.baseAddress, $0.count)
      }
      if written == data.count { return true }
      guard written < 0, errno == EAGAIN || errno == EINTR else {
        throw FixtureError("cannot write into \(fifo): \(String(cString: strerror(errno)))")
      }
      if done() { return false }
      try await Task.sleep(for: .milliseconds(20))
    }
  }

  public func remove() {
    try? writer.close()
    _ = try? run("pactl", ["unload-module", module], environment: environment)
    unlink(fifo)
  }
}

/// A second private daemon, in its own runtime folder, that a test may kill.
public struct DisposablePulse {
  public init() {}
  public let directory = NSTemporaryDirectory() + "syncups-pulse-\(UUID().uuidString.prefix(8))"
  public var environment: [String: String] {
    ProcessInfo.processInfo.environment.merging([
      "PULSE_RUNTIME_PATH": directory, "PULSE_STATE_PATH": directory + "/state",
      "PULSE_SERVER": "unix:\(directory)/native",
    ]) { $1 }
  }
  public var server: String { "unix:\(directory)/native" }

  public func start() throws {
    var environment = self.environment
    environment["SYNCUPS_PULSE_DIR"] = directory
    try run(repositoryRoot.appendingPathComponent(".ci/pulse").path, [], environment: environment)
  }

  public func kill() throws {
    try run("pulseaudio", ["--kill"], environment: environment)
  }

  public func remove() {
    try? kill()
    try? FileManager.default.removeItem(atPath: directory)
  }
}
