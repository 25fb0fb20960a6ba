import ChildProcesses
import Foundation
import Glibc

/// A test's children (tmux, a PostgreSQL server) started as a shell would (every signal at its
/// default, which they need to hear the SIGHUP or SIGTERM meant to end them), stdin from
/// /dev/null, stdout and stderr to files.
extension CleanSpawn {
  /// Where stdout goes: appended to or written over a file; stderr goes to `stderr`, or with
  /// stdout when nil.
  public struct Output: Sendable {
    public var path: String
    public var append: Bool
    public var stderr: String?

    public init(path: String, append: Bool, stderr: String?) {
      self.path = path
      self.append = append
      self.stderr = stderr
    }
  }

  /// The child's pid; nil when it could not be started. `arguments[0]` is the program's path.
  /// Its home is the test's (`TestHome`).
  public static func start(_ arguments: [String], output: Output) -> pid_t? {
    let environment = TestHome.seal(ProcessInfo.processInfo.environment)
    return spawn(arguments[0], arguments, environment: environment) { actions in
      posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
      posix_spawn_file_actions_addopen(
        &actions, 1, output.path, O_WRONLY | O_CREAT | (output.append ? O_APPEND : O_TRUNC),
        0o644)
      if let stderr = output.stderr {
        posix_spawn_file_actions_addopen(&actions, 2, stderr, O_WRONLY, 0)
      } else {
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
      }
    }
  }
}
