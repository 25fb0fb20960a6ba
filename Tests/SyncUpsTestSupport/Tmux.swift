import ChildProcesses
import Foundation
import Glibc
import TestSupport

/// A real pseudo-terminal for driving a screen from a test: tmux on a server of the test's own,
/// with one session of the same name.
public struct Tmux: Sendable {
  public let server: String

  public init(prefix: String = "syncups-test") {
    server = "\(prefix)-\(UUID().uuidString.prefix(8))"
  }

  /// Starts `command` in a session of `columns`×`rows`.
  public func start(_ command: String, columns: Int = 100, rows: Int = 30) throws {
    try run("new-session", "-d", "-s", server, "-x", "\(columns)", "-y", "\(rows)", command)
  }

  public func kill() { _ = try? run("kill-server") }

  /// Runs tmux on this server and returns what it printed. Waits with `waitpid`: Foundation's
  /// `Process` was seen to miss the exit of the `new-session` client and hang. Nothing is piped
  /// (the server would inherit a pipe and keep it open): output goes to a file.
  @discardableResult
  public func run(_ arguments: String...) throws -> String { try run(arguments) }

  @discardableResult
  public func run(_ arguments: [String]) throws -> String { try spawn(arguments).output }

  /// Runs tmux on this server: its exit status and what it printed.
  private func spawn(_ arguments: [String]) throws -> (status: Int32, output: String) {
    let output = FileManager.default.temporaryDirectory
      .appendingPathComponent("\(server)-\(UUID().uuidString.prefix(8)).out")
    defer { try? FileManager.default.removeItem(at: output) }
    // The test's threads block signals; tmux and the programs in its pane must not inherit
    // that, or they would outlive `kill-server` (SIGHUP).
    guard
      let pid = CleanSpawn.start(
        ["/usr/bin/env", "tmux", "-L", server] + arguments,
        output: CleanSpawn.Output(path: output.path, append: false, stderr: "/dev/null"))
    else {
      throw FixtureError("cannot run tmux \(arguments.joined(separator: " "))")
    }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) == -1, errno == EINTR {}
    return (status, (try? String(contentsOf: output, encoding: .utf8)) ?? "")
  }

  public func screen() throws -> String { try run("capture-pane", "-p", "-t", server) }

  public func keys(_ keys: String...) throws {
    for key in keys { try run("send-keys", "-t", server, key) }
  }

  public func type(_ text: String) throws { try run("send-keys", "-t", server, "-l", text) }

  public func waitForScreen(
    timeout: Duration = .seconds(600), _ condition: (String) -> Bool
  ) async throws -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
      let capture = try spawn(["capture-pane", "-p", "-t", server])
      // The pane is gone (its program and shell ended): no screen will ever come.
      guard capture.status == 0 else { return false }
      if condition(capture.output) { return true }
      try await Task.sleep(for: .milliseconds(100))
    }
    return false
  }
}
