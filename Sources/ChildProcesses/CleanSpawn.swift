import Glibc

/// Starts a program the way a shell would, not the way the calling thread is set up: every
/// signal unblocked and at its default action. The caller's threads may block or ignore some
/// signals, and a child that inherited that would ignore the SIGINT, SIGHUP or SIGTERM meant
/// to end it.
public enum CleanSpawn {
  /// The child's pid; nil when it could not be started. `path` is the program, `arguments` its
  /// argv (the first is its name); `files` sets up its file descriptors; with `newSession` it
  /// leads a session of its own (no terminal: Ctrl-C in the caller's is not for it);
  /// `environment` replaces the caller's when given.
  public static func spawn(
    _ path: String, _ arguments: [String], newSession: Bool = false,
    environment: [String: String]? = nil, files: (inout posix_spawn_file_actions_t) -> Void
  ) -> pid_t? {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    files(&actions)
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var none = sigset_t()
    sigemptyset(&none)
    posix_spawnattr_setsigmask(&attributes, &none)
    var defaults = sigset_t()
    sigfillset(&defaults)
    posix_spawnattr_setsigdefault(&attributes, &defaults)
    let setSID: Int32 = 0x80  // glibc's POSIX_SPAWN_SETSID, which Swift's Glibc does not export
    posix_spawnattr_setflags(
      &attributes,
      Int16((newSession ? setSID : 0) | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
    let argv = arguments.map { strdup($0) } + [nil]
    defer { for argument in argv { free(argument) } }
    let envp = environment.map { $0.map { strdup("\($0.key)=\($0.value)") } + [nil] }
    defer { for variable in envp ?? [] { free(variable) } }
    var pid: pid_t = 0
    let spawned =
      if let envp {
        posix_spawn(&pid, path, &actions, &attributes, argv, envp)
      } else {
        posix_spawn(&pid, path, &actions, &attributes, argv, environ)
      }
    return spawned == 0 ? pid : nil
  }
}
