import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A program a test runs. It starts at once; its output is read on threads of their own as it
/// comes (`PipeReader`) and its exit is awaited (Foundation's termination handler ends a
/// `OneShot`): no thread, and so none of the cooperative pool's two, waits for it.
public final class ChildProcess: @unchecked Sendable {
  /// Where one of its output streams goes.
  public enum Output: Sendable {
    /// Read as it comes; see `stdout` and `stderr`.
    case collect
    /// To /dev/null.
    case discard
    /// To the test's own.
    case inherit
    /// To this open file.
    case file(FileHandle)
  }

  public let process = Process()
  private let exited = OneShot<Void>()
  private let lock = NSLock()
  private var out = Data()
  private var err = Data()
  private var readers: [PipeReader] = []
  /// The pipes' reading ends, each closed once its reader saw the end: a `Pipe` left to close
  /// them when it is freed kept them open (a fuzz test had 1,400 open pipes, and Foundation's
  /// `Process.run`, which reads /proc/self/fd, crashed on so many).
  private var readEnds: [FileHandle] = []

  /// Starts `executable` with `arguments` and `environment` (else the test's own), its home
  /// the test's (`TestHome`); its stdin reads `input`, or /dev/null.
  public init(
    _ executable: URL, _ arguments: [String] = [], environment: [String: String]? = nil,
    input: Data? = nil, standardOutput: Output = .collect, standardError: Output = .collect
  ) throws {
    process.executableURL = executable
    process.arguments = arguments
    process.environment = TestHome.seal(environment ?? ProcessInfo.processInfo.environment)
    let inPipe = input.map { _ in Pipe() }
    process.standardInput = inPipe ?? FileHandle.nullDevice
    process.terminationHandler = { [exited] _ in exited.happen(()) }
    let outPipe = Self.connect(standardOutput) { process.standardOutput = $0 }
    let errPipe = Self.connect(standardError) { process.standardError = $0 }
    try process.run()
    if let inPipe, let input {
      try inPipe.fileHandleForWriting.write(contentsOf: input)
      try inPipe.fileHandleForWriting.close()
    }
    readEnds = [outPipe, errPipe].compactMap { $0?.fileHandleForReading }
    if let outPipe {
      readers.append(
        PipeReader(outPipe.fileHandleForReading) { [weak self] data in
          self?.lock.withLock { self?.out.append(data) }
        })
    }
    if let errPipe {
      readers.append(
        PipeReader(errPipe.fileHandleForReading) { [weak self] data in
          self?.lock.withLock { self?.err.append(data) }
        })
    }
  }

  /// Runs `/usr/bin/env name arguments…` (a tool found on the PATH).
  public convenience init(
    tool name: String, _ arguments: [String] = [], environment: [String: String]? = nil,
    input: Data? = nil, standardOutput: Output = .collect, standardError: Output = .collect
  ) throws {
    try self.init(
      URL(fileURLWithPath: "/usr/bin/env"), [name] + arguments, environment: environment,
      input: input, standardOutput: standardOutput, standardError: standardError)
  }

  private static func connect(_ output: Output, _ set: (Any) -> Void) -> Pipe? {
    switch output {
    case .collect:
      let pipe = Pipe()
      set(pipe)
      return pipe
    case .discard:
      set(FileHandle.nullDevice)
      return nil
    case .inherit:
      return nil
    case .file(let handle):
      set(handle)
      return nil
    }
  }

  public var processIdentifier: Int32 { process.processIdentifier }
  public var isRunning: Bool { exited.happened == nil }
  /// Its exit status, or the signal that ended it (see `terminationReason`); once it exited.
  public var terminationStatus: Int32 { process.terminationStatus }
  public var terminationReason: Process.TerminationReason { process.terminationReason }
  public var killedBySignal: Bool { terminationReason == .uncaughtSignal }

  public var stdout: String { lock.withLock { String(decoding: out, as: UTF8.self) } }
  public var stderr: String { lock.withLock { String(decoding: err, as: UTF8.self) } }

  public func signal(_ number: Int32) { kill(process.processIdentifier, number) }

  /// Waits for it to exit; false if it still runs after `timeout` (the safety net).
  @discardableResult
  public func waitUntilExit(timeout: Duration = safetyNet) async -> Bool {
    await exited.wait(timeout: timeout) != nil
  }

  /// Waits for its exit and its last output: its status, or nil when it still ran after
  /// `timeout` (the safety net) and was killed. A program it started that kept the pipes open
  /// (a daemon) is not waited for long.
  public func finish(timeout: Duration = safetyNet) async -> Int32? {
    guard await waitUntilExit(timeout: timeout) else {
      signal(SIGKILL)
      return nil
    }
    for (reader, end) in zip(readers, readEnds) {
      if await reader.waitForEnd(timeout: .seconds(10)) { try? end.close() }
    }
    return process.terminationStatus
  }

  /// Runs it to the end: how it exited and what it printed (nil status: killed after `timeout`).
  public func finished(timeout: Duration = safetyNet) async -> Finished {
    let status = await finish(timeout: timeout)
    return Finished(
      status: status, killedBySignal: status != nil && killedBySignal, stdout: stdout,
      stderr: stderr)
  }

  /// Runs `body`, which starts a program and awaits its end, once fewer than twice the
  /// machine's cores such bodies run. A test holds no thread while its program runs, so nothing
  /// else bounds how many start at once: unbounded, a debug run had 20 `syncups` at once on two
  /// cores, and the tests that record or decode in real time starved.
  public static func inTurn<T>(_ body: () async throws -> T) async throws -> T {
    await turns.acquire()
    do {
      let value = try await body()
      await turns.release()
      return value
    } catch {
      await turns.release()
      throw error
    }
  }

  private static let turns = Slots(2 * ProcessInfo.processInfo.activeProcessorCount)

  /// How a child process ended and what it printed.
  public struct Finished: Sendable {
    /// Its exit status or the number of the signal that ended it; nil if it had to be killed
    /// after the safety net.
    public var status: Int32?
    public var killedBySignal: Bool
    public var stdout: String
    public var stderr: String
  }
}
