import Foundation
import Glibc

/// Starts a program the way a shell would, not the way a test thread would: stdin from
/// /dev/null, every signal unblocked and at its default action. The test's threads block some
/// signals, and a child that inherited that (tmux, a PostgreSQL server) would ignore the
/// SIGHUP or SIGTERM meant to end it.
public enum CleanSpawn {
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
  public static func start(_ arguments: [String], output: Output) -> pid_t? {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(
      &actions, 1, output.path, O_WRONLY | O_CREAT | (output.append ? O_APPEND : O_TRUNC), 0o644)
    if let stderr = output.stderr {
      posix_spawn_file_actions_addopen(&actions, 2, stderr, O_WRONLY, 0)
    } else {
      posix_spawn_file_actions_adddup2(&actions, 1, 2)
    }
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var none = sigset_t()
    sigemptyset(&none)
    posix_spawnattr_setsigmask(&attributes, &none)
    var defaults = sigset_t()
    sigfillset(&defaults)
    posix_spawnattr_setsigdefault(&attributes, &defaults)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
    let argv = arguments.map { strdup($0) } + [nil]
    defer { for argument in argv { free(argument) } }
    var pid: pid_t = 0
    guard posix_spawn(&pid, arguments[0], &actions, &attributes, argv, environ) == 0 else {
      return nil
    }
    return pid
  }
}
