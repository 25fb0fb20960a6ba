// The child processes the benchmark times: wall time from spawn to exit, peak memory from
// `wait4`, CPU time.
import Foundation

func seconds(_ body: () throws -> Void) rethrows -> Double {
  let start = ContinuousClock.now
  try body()
  let elapsed = ContinuousClock.now - start
  return elapsed.inSeconds
}

/// One child process: its wall time from spawn to exit, its peak resident memory, its output.
struct Measured {
  var seconds: Double
  var peakKilobytes: Int
  /// User plus system CPU time: less sensitive than wall time to a busy shared machine.
  var cpuSeconds: Double
  var status: Int32
  var output: String
  var errors: String
}

/// Spawns `executable` with `arguments` (stdin /dev/null, stdout and stderr to files, so no pipe
/// can fill up) and waits for it with `wait4`, which reports its own peak memory.
func spawn(_ executable: String, _ arguments: [String], home: URL) throws -> Measured {
  let scratch = FileManager.default.temporaryDirectory.appendingPathComponent(
    "bench-store-out-\(UUID())")
  defer {
    try? FileManager.default.removeItem(atPath: scratch.path + ".out")
    try? FileManager.default.removeItem(atPath: scratch.path + ".err")
  }
  var actions = posix_spawn_file_actions_t()
  posix_spawn_file_actions_init(&actions)
  defer { posix_spawn_file_actions_destroy(&actions) }
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
  posix_spawn_file_actions_addopen(
    &actions, 1, scratch.path + ".out", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
  posix_spawn_file_actions_addopen(
    &actions, 2, scratch.path + ".err", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
  var environment = ProcessInfo.processInfo.environment
  environment["SYNCUPS_HOME"] = home.path
  environment["TZ"] = "UTC"
  let argv = ([executable] + arguments).map { strdup($0) } + [nil]
  let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
  defer {
    for pointer in argv + envp { free(pointer) }
  }
  var pid: pid_t = 0
  let start = ContinuousClock.now
  let spawned = posix_spawn(&pid, executable, &actions, nil, argv, envp)
  guard spawned == 0 else {
    fail("cannot run \(executable): \(String(cString: strerror(spawned)))")
  }
  var status: Int32 = 0
  var usage = rusage()
  while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
  let elapsed = ContinuousClock.now - start
  let output = (try? String(contentsOfFile: scratch.path + ".out", encoding: .utf8)) ?? ""
  let errors = (try? String(contentsOfFile: scratch.path + ".err", encoding: .utf8)) ?? ""
  // Exited: the code is in bits 8-15; killed: the signal is in bits 0-6.
  let code = status & 0x7f == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
  return Measured(
    seconds: elapsed.inSeconds,
    peakKilobytes: usage.ru_maxrss,
    cpuSeconds: Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
      + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6,
    status: code, output: output, errors: errors)
}

func median(_ values: [Double]) -> Double {
  let sorted = values.sorted()
  guard !sorted.isEmpty else { return 0 }
  return sorted.count % 2 == 1
    ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
}

extension Duration {
  var inSeconds: Double {
    Double(components.seconds) + Double(components.attoseconds) / 1e18
  }
}
