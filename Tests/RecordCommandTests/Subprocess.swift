import Foundation
import SyncUpsFeatures
import SyncUpsTestSupport

/// A running `syncups` with its own data directory; its output is collected as it comes.
final class SyncUpsProcess: @unchecked Sendable {
  let process = Process()
  private let lock = NSLock()
  private var out = Data()
  private var err = Data()

  init(_ arguments: [String], home: URL, environment extra: [String: String] = [:]) throws {
    process.executableURL = syncupsBinary
    process.arguments = arguments
    var environment = ProcessInfo.processInfo.environment
    environment["SYNCUPS_HOME"] = home.path
    for (key, value) in extra { environment[key] = value }
    process.environment = environment
    let stdout = Pipe()
    let stderr = Pipe()
    process.standardOutput = stdout
    process.standardError = stderr
    process.standardInput = FileHandle.nullDevice
    stdout.fileHandleForReading.readabilityHandler = { [weak self] handle in
      let data = handle.availableData
      self?.lock.withLock { self?.out.append(data) }
    }
    stderr.fileHandleForReading.readabilityHandler = { [weak self] handle in
      let data = handle.availableData
      self?.lock.withLock { self?.err.append(data) }
    }
    try process.run()
  }

  var stdout: String { lock.withLock { String(decoding: out, as: UTF8.self) } }
  var stderr: String { lock.withLock { String(decoding: err, as: UTF8.self) } }
  var stdoutLines: [String] { stdout.split(separator: "\n").map(String.init) }
  var stderrLines: [String] { stderr.split(separator: "\n").map(String.init) }

  /// Waits until `condition` holds on the output so far; false on timeout or exit.
  func wait(for condition: (SyncUpsProcess) -> Bool, timeout: Duration = .seconds(60)) async -> Bool
  {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
      if condition(self) { return true }
      if !process.isRunning { return condition(self) }
      try? await Task.sleep(for: .milliseconds(50))
    }
    return false
  }

  /// Waits for the process to exit and returns its status.
  func finish(timeout: Duration = .seconds(600)) async -> Int32? {
    let deadline = ContinuousClock.now + timeout
    while process.isRunning, ContinuousClock.now < deadline {
      try? await Task.sleep(for: .milliseconds(50))
    }
    guard !process.isRunning else {
      process.terminate()
      return nil
    }
    try? await Task.sleep(for: .milliseconds(100))  // let the last output arrive
    return process.terminationStatus
  }

  func signal(_ number: Int32) { kill(process.processIdentifier, number) }
}

/// Runs `syncups` to completion.
func syncups(
  _ arguments: [String], home: URL, environment: [String: String] = [:]
) async throws -> (status: Int32?, stdout: String, stderr: String) {
  let process = try SyncUpsProcess(arguments, home: home, environment: environment)
  let status = await process.finish()
  return (status, process.stdout, process.stderr)
}

/// A fresh data directory with one sync-up in its database (a `sync-ups.json` imported, as on
/// a first run).
func dataDirectory(
  title: String = "Morning Sync", attendees: [String] = ["Ana", "Ben", "Cleo"], seconds: Int = 36
) throws -> URL {
  let home = FileManager.default.temporaryDirectory
    .appendingPathComponent("syncups-record-\(UUID().uuidString.prefix(8))", isDirectory: true)
  try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
  let people = attendees.enumerated().map { index, name in
    ["id": "11111111-2222-3333-4444-00000000000\(index)", "name": name]
  }
  let file: [String: Any] = [
    "formatVersion": 1,
    "syncUps": [
      [
        "id": syncUpID, "title": title, "duration": seconds, "theme": "orange",
        "attendees": people, "meetings": [],
      ]
    ],
  ]
  try JSONSerialization.data(withJSONObject: file).write(
    to: home.appendingPathComponent("sync-ups.json"))
  _ = try SyncUpsDatabase.open(DataDirectory(url: home))
  return home
}

/// Replaces the database of `home` by `bytes` (a damaged file).
func damageDatabase(_ home: URL, with bytes: Data) throws {
  for suffix in ["", "-wal", "-shm"] {
    try? FileManager.default.removeItem(at: home.appendingPathComponent("syncups.sqlite" + suffix))
  }
  try bytes.write(to: home.appendingPathComponent("syncups.sqlite"))
}

let syncUpID = "11111111-2222-3333-4444-555555555555"

/// The meetings the database holds for the sync-up titled `title`, newest first.
func savedMeetings(_ home: URL, title: String = "Morning Sync") throws -> [[String: Any]] {
  let syncUps = try savedSyncUps(home)
  return syncUps.first { $0["title"] as? String == title }?["meetings"] as? [[String: Any]] ?? []
}

func segments(_ meeting: [String: Any]) -> [(speaker: String, text: String)] {
  (meeting["segments"] as? [[String: Any]] ?? []).map {
    ($0["speaker"] as? String ?? "", $0["text"] as? String ?? "")
  }
}

/// Lines that are final utterances ("[mm:ss] Name: text"), as the record command prints them.
func utteranceLines(_ output: String) -> [String] {
  output.split(separator: "\n").map(String.init).filter {
    $0.hasPrefix("[") && !$0.contains("] Speaker ")
  }
}
