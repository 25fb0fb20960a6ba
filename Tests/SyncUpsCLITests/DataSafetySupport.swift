import Foundation
import GRDB
import SyncUpsTestSupport
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// What the data-safety tests read back, always through the real binary's commands (or, for
/// what no command prints, a read-only look into the database file).
extension Home {
  /// `syncups list --json`, decoded; fails the test when the command fails.
  func listed(sourceLocation: SourceLocation = #_sourceLocation) async throws -> [[String: Any]] {
    let list = try await run("list", "--json")
    #expect(list.status == 0, "\(list)", sourceLocation: sourceLocation)
    return try #require(
      try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [[String: Any]],
      "\(list)", sourceLocation: sourceLocation)
  }

  /// `syncups add` of a sync-up with three attendees; its id.
  /// `duration`: a recording that must still run while the test looks needs a long one (a
  /// loaded machine took over 36 s to hear the first words).
  func add(
    _ title: String, duration: String = "36s", sourceLocation: SourceLocation = #_sourceLocation
  ) async throws -> String {
    let added = try await run(
      "add", "--title", title, "--attendee", "Ana", "--attendee", "Ben", "--attendee", "Cleo",
      "--duration", duration)
    #expect(added.status == 0, "\(added)", sourceLocation: sourceLocation)
    return added.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
  }

  /// `syncups record REF --input Samples/hello.wav --fast`.
  func recordHello(
    _ reference: String, environment: [String: String] = [:]
  ) async throws -> Run {
    try await run(
      ["record", reference, "--input", samples.appendingPathComponent("hello.wav").path, "--fast"],
      environment: environment)
  }

  /// The segments of a meeting as `syncups transcript REF --meeting ID --format json` prints them.
  func segmentTexts(_ reference: String, meeting: String) async throws -> [String] {
    let transcript = try await run(
      "transcript", reference, "--meeting", meeting, "--format", "json")
    #expect(transcript.status == 0, "\(transcript)")
    let json = try JSONSerialization.jsonObject(with: Data(transcript.stdout.utf8))
    let segments = (json as? [String: Any])?["segments"] as? [[String: Any]] ?? []
    return segments.map { "\($0["speaker"] ?? ""): \($0["text"] ?? "")" }
  }

  /// `syncups meetings REF --json`, decoded.
  func meetings(_ reference: String) async throws -> [[String: Any]] {
    let meetings = try await run("meetings", reference, "--json")
    #expect(meetings.status == 0, "\(meetings)")
    return try JSONSerialization.jsonObject(with: Data(meetings.stdout.utf8)) as? [[String: Any]]
      ?? []
  }

  var database: URL { url.appendingPathComponent("syncups.sqlite") }
  var audioFolder: URL { url.appendingPathComponent("audio") }

  /// The audio files on disk, as paths relative to the data directory.
  func audioFiles() -> Set<String> {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: audioFolder.path)) ?? []
    return Set(names.map { "audio/\($0)" })
  }

  /// Each meeting's row as the database holds it (read-only: this never writes the file).
  func storedMeetings() throws -> [StoredMeeting] {
    var configuration = Configuration()
    configuration.readonly = true
    let queue = try DatabaseQueue(path: database.path, configuration: configuration)
    return try queue.read { db in
      try Row.fetchAll(
        db,
        sql: "SELECT id, syncUpId, isFinished, audioFile, segmentCount FROM meeting ORDER BY date"
      ).map { row in
        StoredMeeting(
          id: row["id"], syncUpID: row["syncUpId"], isFinished: row["isFinished"],
          audioFile: row["audioFile"], segments: row["segmentCount"])
      }
    }
  }

  /// Every file in the data directory but SQLite's `-wal`/`-shm` side files (any reader may
  /// make them), with its bytes; symbolic links as where they point.
  func snapshot() throws -> [String: Data] {
    var result: [String: Data] = [:]
    let enumerator = FileManager.default.enumerator(atPath: url.path)
    while let name = enumerator?.nextObject() as? String {
      if name.hasSuffix("-wal") || name.hasSuffix("-shm") { continue }
      let path = url.appendingPathComponent(name).path
      if let target = try? FileManager.default.destinationOfSymbolicLink(atPath: path) {
        result[name] = Data("-> \(target)".utf8)
        continue
      }
      var isDirectory: ObjCBool = false
      FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
      result[name] =
        isDirectory.boolValue ? Data() : try Data(contentsOf: URL(fileURLWithPath: path))
    }
    return result
  }
}

struct StoredMeeting: Equatable {
  var id: String
  var syncUpID: String
  var isFinished: Bool
  var audioFile: String?
  var segments: Int
}

extension RunningSyncups {
  /// `syncups arguments` running on `home`'s data directory.
  convenience init(
    _ arguments: [String], home: Home, environment: [String: String] = [:]
  ) throws {
    try self.init(arguments, home: home.url, environment: environment)
  }
}

/// Runs `body(index)` for `count` indexes at once (each awaits its child processes; no thread
/// waits for them) and returns their results in index order.
func concurrently<T: Sendable>(
  _ count: Int, _ body: @escaping @Sendable (Int) async -> T
) async -> [T] {
  await withTaskGroup(of: (Int, T).self) { group in
    for index in 0..<count { group.addTask { (index, await body(index)) } }
    var results = [T?](repeating: nil, count: count)
    for await (index, value) in group { results[index] = value }
    return results.compactMap { $0 }
  }
}

/// `body`'s value or its error: `Result(catching:)` for a body that awaits.
func result<T>(_ body: () async throws -> T) async -> Result<T, any Error> {
  do {
    return .success(try await body())
  } catch {
    return .failure(error)
  }
}

/// A flag one thread sets and others read.
final class Stop: @unchecked Sendable {
  private let lock = NSLock()
  private var value = false
  var isSet: Bool { lock.withLock { value } }
  func set() { lock.withLock { value = true } }
}

/// Runs a system tool (mount, umount); true when it exits 0.
@discardableResult
func runTool(_ arguments: String...) -> Bool {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
  process.arguments = arguments
  process.standardOutput = FileHandle.nullDevice
  process.standardError = FileHandle.nullDevice
  do {
    try process.run()
  } catch {
    return false
  }
  process.waitUntilExit()
  return process.terminationStatus == 0
}

/// A tmpfs of `size` mounted on `home`'s folder for the test's length; nil when this machine
/// cannot mount (not root, no privilege in the container).
final class Mount: @unchecked Sendable {
  let path: String

  init?(on home: Home, size: String) {
    path = home.url.path
    guard runTool("mount", "-t", "tmpfs", "-o", "size=\(size)", "tmpfs", path) else { return nil }
  }

  func remountReadOnly() -> Bool { runTool("mount", "-o", "remount,ro", path) }

  /// Unmounts (lazily: a process still inside lets go later); call it before `Home` goes.
  func unmount() { runTool("umount", "-l", path) }
}

/// Whether this machine lets a test mount a tmpfs (root in a privileged container).
let canMount: Bool = {
  guard getuid() == 0, let home = try? Home(), let mount = Mount(on: home, size: "64k") else {
    return false
  }
  mount.unmount()
  return true
}()

/// The preload library that kills `syncups` at a numbered step of a save
/// (`Tests/Shims/kill-at-step.c`), built once for the test run.
let killAtStepLibrary: Result<String, FixtureError> = {
  let source = repositoryRoot.appendingPathComponent("Tests/Shims/kill-at-step.c").path
  let output = NSTemporaryDirectory() + "syncups-kill-at-step-\(getpid()).so"
  for compiler in ["cc", "clang"]
  where runTool(compiler, "-shared", "-fPIC", "-O1", "-o", output, source, "-ldl") {
    return .success(output)
  }
  return .failure(FixtureError("cannot build \(source) with cc or clang"))
}()
