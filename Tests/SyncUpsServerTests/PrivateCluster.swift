import ChildProcesses
import Foundation
import Glibc
import SyncUpsServer
import TestSupport

/// A PostgreSQL 15 cluster of one test's own, so the test may restart or crash it while the
/// shared one of `.ci/postgres` serves the others. Made like `.ci/postgres` makes its own: as the
/// `postgres` user when the tests run as root (initdb refuses root), on a Unix socket only.
struct PrivateCluster: Sendable {
  static let bin = "/usr/lib/postgresql/15/bin"
  let folder: String
  var data: String { folder + "/data" }
  var url: DatabaseURL {
    get throws { try DatabaseURL("postgres://syncups@localhost/postgres?host=\(folder)") }
  }

  static func start() async throws -> PrivateCluster {
    let cluster = PrivateCluster(
      folder: "/tmp/syncups-test-cluster-\(UUID().uuidString.prefix(8).lowercased())")
    try FileManager.default.createDirectory(
      atPath: cluster.folder, withIntermediateDirectories: true,
      attributes: [.posixPermissions: 0o700])
    if getuid() == 0 {
      try await cluster.run("/bin/chown", ["postgres:", cluster.folder], asPostgres: false)
    }
    try await cluster.run(
      "\(bin)/initdb",
      [
        "-D", cluster.data, "--auth=trust", "--no-sync", "-U", "syncups", "-E", "UTF8",
        "--locale=C.UTF-8",
      ])
    try await cluster.start()
    return cluster
  }

  /// Starts (or starts again) the server and returns once it accepts connections.
  func start() async throws {
    try await pgctl(["-w", "-t", "120", "-l", folder + "/log", "-o", options, "start"])
  }

  /// `pg_ctl restart -m fast`: sessions are ended, the server stops and starts again.
  func restart() async throws {
    try await pgctl([
      "-w", "-t", "120", "-m", "fast", "-l", folder + "/log", "-o", options, "restart",
    ])
  }

  /// `pg_ctl stop -m immediate`: every PostgreSQL process quits at once, as in a crash;
  /// nothing in flight commits, and the next start recovers.
  func crash() async throws {
    try await pgctl(["-w", "-m", "immediate", "stop"])
  }

  func remove() async {
    if FileManager.default.fileExists(atPath: data + "/postmaster.pid") {
      _ = try? await pgctl(["-w", "-m", "immediate", "stop"])
    }
    try? FileManager.default.removeItem(atPath: folder)
  }

  private var options: String {
    "-c listen_addresses='' -c unix_socket_directories=\(folder) -c fsync=off"
  }

  private func pgctl(_ arguments: [String]) async throws {
    try await run("\(Self.bin)/pg_ctl", ["-D", data] + arguments)
  }

  /// Runs a PostgreSQL program as `postgres` (under root), its output appended to
  /// `commands.log`. Spawned and awaited here rather than with Foundation's `Process`: under the
  /// test runner, `Process` never saw `runuser` exit once `pg_ctl` had started a server (the
  /// runner left it a zombie and the test hung), so `waitpid` runs on a thread of its own.
  private func run(_ program: String, _ arguments: [String], asPostgres: Bool = true)
    async throws
  {
    let all =
      asPostgres && getuid() == 0
      ? ["/usr/sbin/runuser", "-u", "postgres", "--", program] + arguments
      : [program] + arguments
    let output = folder + "/commands.log"
    let status = try await Self.spawnAndWait(all, output: output)
    guard status == 0 else {
      let log = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
      throw TestPostgresProblem(
        reason: "\(program) \(arguments.joined(separator: " ")) failed (\(status)): "
          + String(log.suffix(2000)))
    }
  }

  /// Starts `arguments` with stdin from /dev/null and its output appended to `output`, with
  /// no signal blocked (the test's threads block some, and a server would inherit that), and
  /// returns its exit status once a thread of its own has reaped it.
  private static func spawnAndWait(_ arguments: [String], output: String) async throws -> Int32 {
    guard
      let pid = CleanSpawn.start(
        arguments, output: CleanSpawn.Output(path: output, append: true, stderr: nil))
    else {
      throw TestPostgresProblem(reason: "cannot run \(arguments[0])")
    }
    let child = pid
    return await withCheckedContinuation { continuation in
      Thread.detachNewThread {
        var status: Int32 = 0
        while waitpid(child, &status, 0) == -1, errno == EINTR {}
        // Exited normally: its status; killed by a signal: 128 + the signal.
        let code = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        continuation.resume(returning: code)
      }
    }
  }
}
