import ChildProcesses
import Foundation
import Glibc
import Logging
import NIOPosix
import PostgresNIO

/// `syncups-server backup` and `restore`: PostgreSQL's own `pg_dump -Fc` and `pg_restore`, of the
/// database server's major version, connected as the server connects (the password in
/// `PGPASSWORD`, never on a command line). `pg_dump` reads one snapshot, so a backup taken
/// while the server serves is consistent.
public enum Backup {
  /// Writes the database's backup to `file` (through `FILE.partial`, renamed once whole, so a
  /// failed backup never leaves a file that looks like one); returns its size in bytes.
  public static func save(_ url: DatabaseURL, to file: String, pgBin: String?) async throws -> Int {
    let major = try await serverMajor(url) { _ in }
    let program = try tool("pg_dump", major: major, pgBin: pgBin)
    let partial = plainPath(file) + ".partial"
    try await offPool { try startPartial(partial, for: file) }
    do {
      try await run(program, ["pg_dump", "--format=custom", "--file=" + partial], url)
      return try await offPool {
        // Checked again just before: nothing but a regular file is ever replaced.
        try requireRegularOrNew(file)
        guard rename(partial, plainPath(file)) == 0 else {
          throw ServerError.failed("cannot write \(file): \(String(cString: strerror(errno)))")
        }
        return (try? FileManager.default.attributesOfItem(atPath: file)[.size] as? Int) ?? 0
      }
    } catch {
      _ = try? await offPool { unlink(partial) }
      throw error
    }
  }

  /// Restores `file` into the database, which must be new: one with tables is refused.
  public static func restore(_ file: String, into url: DatabaseURL, pgBin: String?) async throws {
    try await offPool {
      guard let handle = FileHandle(forReadingAtPath: file) else {
        throw ServerError.failed("cannot read \(file): \(String(cString: strerror(errno)))")
      }
      defer { try? handle.close() }
      guard (try? handle.read(upToCount: 5)) == Data("PGDMP".utf8) else {
        throw ServerError.failed(
          "\(file) is not a backup made by syncups-server backup (pg_dump's custom format)")
      }
    }
    let major = try await serverMajor(url) { connection in
      let rows = try await connection.run(
        """
        SELECT count(*) FROM pg_catalog.pg_tables
        WHERE schemaname NOT IN ('pg_catalog', 'information_schema')
        """, logger: TeamStore.quietLogger)
      for try await count in rows.decode(Int64.self) where count > 0 {
        throw ServerError.failed(
          "the database \(url.database) already has SyncUps tables; restore into a new, empty "
            + "database (createdb NEW, then restore with --database naming NEW)")
      }
    }
    let program = try tool("pg_restore", major: major, pgBin: pgBin)
    try await run(
      program,
      [
        "pg_restore", "--no-owner", "--no-privileges", "--single-transaction", "--exit-on-error",
        "--dbname=" + url.database, "--", plainPath(file),
      ], url)
  }

  /// `file` as a path no program reads as an option: `./-name` for `-name`.
  static func plainPath(_ file: String) -> String {
    file.hasPrefix("/") || file.hasPrefix("./") ? file : "./" + file
  }

  /// Refuses `file` when it exists and is not a regular file (a device such as /dev/full, a
  /// folder, a link, a pipe): a backup only ever makes or replaces a regular file.
  static func requireRegularOrNew(_ file: String) throws {
    var status = stat()
    guard lstat(plainPath(file), &status) == 0 else {
      guard errno == ENOENT else {
        throw ServerError.failed("cannot write \(file): \(String(cString: strerror(errno)))")
      }
      return
    }
    guard status.st_mode & S_IFMT == S_IFREG else {
      throw ServerError.failed(
        "\(file) is not a regular file (a device, a folder or a link); give the name of a new "
          + "file in a folder the server may write to")
    }
  }

  /// Makes `partial` empty, a regular file of this user's alone, never through a link.
  static func startPartial(_ partial: String, for file: String) throws {
    try requireRegularOrNew(file)
    try requireRegularOrNew(partial)
    let descriptor = open(partial, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW, 0o600)
    guard descriptor >= 0 else {
      throw ServerError.failed("cannot write \(file): \(String(cString: strerror(errno)))")
    }
    close(descriptor)
  }

  /// The database server's major version (15), after `check` ran on a connection of its own;
  /// one line when it cannot be reached (at once when nothing listens; at most ten seconds).
  static func serverMajor(
    _ url: DatabaseURL, check: @escaping @Sendable (PostgresConnection) async throws -> Void
  ) async throws -> Int {
    let unreachable =
      "cannot reach the database \(url.database) (\(url.socketDirectory ?? url.host))"
    do {
      return try await answer(within: .seconds(10)) {
        let connection = try await PostgresConnection.connect(
          on: MultiThreadedEventLoopGroup.singleton.next(), configuration: url.connection,
          id: 1, logger: TeamStore.quietLogger
        ).get()
        do {
          try await check(connection)
          let rows = try await connection.run(
            "SHOW server_version_num", logger: TeamStore.quietLogger)
          var major = 0
          for try await text in rows.decode(String.self) { major = (Int(text) ?? 0) / 10000 }
          try await connection.close()
          return major
        } catch {
          try? await connection.close()
          throw error
        }
      }
    } catch let error as ServerError {
      throw error
    } catch is TimedOut {
      throw ServerError.failed("\(unreachable): it did not answer within 10 seconds")
    } catch {
      throw ServerError.failed(
        "\(unreachable): \((DatabaseProblem.words(error) ?? "it refused the connection").prefix(300))"
      )
    }
  }

  /// `name` of PostgreSQL `major`: in `pgBin`, else where Debian keeps each version's.
  static func tool(_ name: String, major: Int, pgBin: String?) throws -> String {
    let folder = pgBin ?? "/usr/lib/postgresql/\(major)/bin"
    let path = folder + "/" + name
    guard FileManager.default.isExecutableFile(atPath: path) else {
      throw ServerError.failed(
        "\(name) for PostgreSQL \(major) is missing (no \(path)); install postgresql-client-\(major) "
          + "or give --pg-bin DIR")
    }
    return path
  }

  /// The environment `pg_dump` and `pg_restore` connect with: the URL's server, user, database
  /// and password (never an argument, which any user can read in `ps`).
  static func environment(_ url: DatabaseURL) -> [String: String] {
    var environment = ProcessInfo.processInfo.environment
    environment["PGHOST"] = url.socketDirectory ?? url.host
    environment["PGPORT"] = String(url.port)
    environment["PGUSER"] = url.username
    environment["PGDATABASE"] = url.database
    environment["PGCONNECT_TIMEOUT"] = "10"
    if let password = url.password { environment["PGPASSWORD"] = password }
    return environment
  }

  /// Runs `program` (argv `arguments`) to its end on a thread of its own; one line (its first
  /// error) when it fails.
  static func run(_ program: String, _ arguments: [String], _ url: DatabaseURL) async throws {
    let environment = environment(url)
    let (status, errors) = try await offPool { () throws -> (Int32, String) in
      var ends: [Int32] = [0, 0]
      guard pipe(&ends) == 0 else { throw ServerError.failed("cannot start \(program)") }
      let started = CleanSpawn.spawn(program, arguments, environment: environment) { actions in
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, ends[1], 2)
        posix_spawn_file_actions_addclose(&actions, ends[0])
        posix_spawn_file_actions_addclose(&actions, ends[1])
      }
      close(ends[1])
      defer { close(ends[0]) }
      guard let pid = started else { throw ServerError.failed("cannot start \(program)") }
      var errors = [UInt8]()
      var buffer = [UInt8](repeating: 0, count: 4096)
      while true {
        let count = read(ends[0], &buffer, buffer.count)
        if count < 0, errno == EINTR { continue }
        guard count > 0 else { break }
        if errors.count < 65536 { errors += buffer[0..<count] }
      }
      var status: Int32 = 0
      while waitpid(pid, &status, 0) == -1, errno == EINTR {}
      return (status, String(decoding: errors, as: UTF8.self))
    }
    guard status != 0 else { return }
    let lines = errors.split(separator: "\n")
    let line = lines.first { $0.contains("error:") } ?? lines.last ?? "it exited with \(status)"
    throw ServerError.failed("\(arguments[0]) failed: \(line.prefix(400))")
  }
}

/// `body` on a thread of its own, so blocking calls (a child's end, a file) never hold one of
/// the cooperative pool's few threads.
func offPool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
  try await withCheckedThrowingContinuation { continuation in
    Thread.detachNewThread { continuation.resume(with: Result { try body() }) }
  }
}
