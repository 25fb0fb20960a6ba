import Foundation
import GRDB
import SyncUpsTestSupport
import TestSupport

#if canImport(Glibc)
  import Glibc
#endif

/// One test's team: a fresh PostgreSQL database on the private cluster of `.ci/postgres`
/// (`SYNCUPS_TEST_DATABASE_URL`), migrated, with a writer (ana) and her token, and the built
/// `syncups-server serve` on a free port.
struct TeamFixture: Sendable {
  struct Problem: Error, CustomStringConvertible {
    var description: String
  }

  let folder: TemporaryDirectory
  let databaseURL: String
  let writerToken: String
  var server: ChildProcess
  let port: Int
  var url: String { "http://127.0.0.1:\(port)" }

  static let psql = "/usr/lib/postgresql/15/bin/psql"

  /// The cluster from `.ci/postgres` (run here when the variable is not set).
  static let cluster: Result<String, Problem> = {
    if let url = ProcessInfo.processInfo.environment["SYNCUPS_TEST_DATABASE_URL"], !url.isEmpty {
      return .success(url)
    }
    let process = Process()
    process.executableURL = repositoryRoot.appendingPathComponent(".ci/postgres")
    let output = Pipe()
    process.standardOutput = output
    guard (try? process.run()) != nil else {
      return .failure(Problem(description: "no .ci/postgres"))
    }
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    guard let start = text.range(of: "SYNCUPS_TEST_DATABASE_URL='"),
      let end = text[start.upperBound...].firstIndex(of: "'")
    else { return .failure(Problem(description: ".ci/postgres did not start PostgreSQL")) }
    return .success(String(text[start.upperBound..<end]))
  }()

  static func start() async throws -> TeamFixture {
    let cluster = try cluster.get()
    let name = TestDatabase.name("e2e")
    _ = try await tool(psql, [cluster, "-qAt", "-c", "CREATE DATABASE \(name)"])
    // postgres://USER@HOST/DATABASE?host=/socket/dir: the same with this test's database.
    let query = cluster.firstIndex(of: "?").map { String(cluster[$0...]) } ?? ""
    let base = String(cluster.prefix(cluster.count - query.count))
    guard base.contains("://"), let slash = base.range(of: "/", options: .backwards) else {
      throw Problem(description: "cannot read \(cluster)")
    }
    let databaseURL = String(base[..<slash.upperBound]) + name + query
    let folder = try TemporaryDirectory()
    let environment = ["SYNCUPS_DATABASE_URL": databaseURL]
    _ = try await tool(serverBinary.path, ["migrate"], environment: environment)
    _ = try await tool(
      serverBinary.path, ["user", "add", "ana", "--role", "writer"], environment: environment)
    let created = try await tool(
      serverBinary.path, ["token", "create", "ana"], environment: environment)
    let token = String(created.split(separator: "\n").last ?? "")
    let (server, port) = try await serve(databaseURL, folder, port: 0)
    return TeamFixture(
      folder: folder, databaseURL: databaseURL, writerToken: token, server: server, port: port)
  }

  static func serve(_ databaseURL: String, _ folder: TemporaryDirectory, port: Int) async throws
    -> (ChildProcess, Int)
  {
    var environment = ProcessInfo.processInfo.environment
    environment["SYNCUPS_DATABASE_URL"] = databaseURL
    let child = try ChildProcess(
      serverBinary, ["serve", "--port", String(port)],
      environment: environment)
    let prefix = "listening on http://127.0.0.1:"
    _ = await waitUntil { child.stdout.contains(prefix) || !child.isRunning }
    guard let line = child.stdout.split(separator: "\n").first(where: { $0.contains(prefix) }),
      let port = Int(line.split(separator: ":").last ?? "")
    else {
      child.signal(SIGKILL)
      throw Problem(description: "syncups-server did not start: \(child.stderr)")
    }
    return (child, port)
  }

  /// The server again, on the same port, after it was killed.
  mutating func restart() async throws {
    server = try await Self.serve(databaseURL, folder, port: port).0
  }

  func stop() {
    server.signal(SIGCONT)
    server.signal(SIGKILL)
    folder.remove()
  }

  func laptop(timeout: Double = 20) throws -> Laptop {
    try Laptop(folder.file("laptop-\(UUID().uuidString.prefix(8))"), timeout: timeout)
  }

  /// One value from the team's database.
  func psql(_ sql: String) async throws -> String {
    try await Self.tool(Self.psql, [databaseURL, "-qAt", "-c", sql])
      .trimmingCharacters(in: .whitespacesAndNewlines)
  }

  func serverCommand(_ arguments: String...) async throws {
    _ = try await Self.tool(
      Self.serverBinary.path, arguments, environment: ["SYNCUPS_DATABASE_URL": databaseURL])
  }

  /// Runs a program to its end; its stdout, or its stderr as the error.
  static func tool(_ path: String, _ arguments: [String], environment: [String: String] = [:])
    async throws -> String
  {
    var merged = ProcessInfo.processInfo.environment
    merged.merge(environment) { $1 }
    let finished = try await ChildProcess(
      URL(fileURLWithPath: path), arguments, environment: merged
    )
    .finished()
    guard finished.status == 0 else {
      throw Problem(description: "\(path) \(arguments.joined(separator: " ")): \(finished.stderr)")
    }
    return finished.stdout
  }

  /// `syncups-server`: the optimized one beside an optimized `syncups`, else the debug build's
  /// (see `BuiltProgram`).
  static var serverBinary: URL {
    BuiltProgram.url("syncups-server")
      ?? repositoryRoot.appendingPathComponent(".build/debug/syncups-server")
  }

  /// A laptop: a data directory and a config folder of its own.
  struct Laptop: Sendable {
    let root: URL
    let timeout: Double
    var data: URL { root.appendingPathComponent("data") }
    var environment: [String: String] {
      var environment = ProcessInfo.processInfo.environment
      environment["SYNCUPS_HOME"] = data.path
      environment["XDG_CONFIG_HOME"] = root.appendingPathComponent("config").path
      environment["SYNCUPS_SYNC_TIMEOUT"] = String(timeout)
      environment["TZ"] = "UTC"
      return environment
    }

    init(_ root: URL, timeout: Double) throws {
      self.root = root
      self.timeout = timeout
      try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    }

    func run(_ arguments: String...) async throws -> SyncupsRun {
      try await runSyncups(arguments, environment: environment)
    }

    /// Runs `syncups` and fails the test unless it exits 0.
    @discardableResult
    func expect(_ arguments: String...) async throws -> SyncupsRun {
      let run = try await runSyncups(arguments, environment: environment)
      guard run.status == 0 else {
        throw Problem(description: "syncups \(arguments.joined(separator: " ")): \(run)")
      }
      return run
    }

    /// One value read from the laptop's database (read-only, while `syncups` runs).
    func value(_ sql: String) -> Int? {
      var configuration = Configuration()
      configuration.readonly = true
      guard
        let database = try? DatabaseQueue(
          path: data.appendingPathComponent("syncups.sqlite").path, configuration: configuration)
      else { return nil }
      defer { try? database.close() }
      return try? database.read { try Int.fetchOne($0, sql: sql) }
    }
  }
}
