import Foundation
import GRDB
import SyncUpsFeatures
import TestSupport
import WorkerThreads

#if canImport(Glibc)
  import Glibc
#endif

extension TemporaryDirectory {
  /// The folder as the app's data directory.
  var dataDirectory: DataDirectory { DataDirectory(url: url) }
}

/// What a probe run printed and how it ended.
struct ProbeResult {
  var status: Int32
  /// True when it died of a signal (SIGKILL).
  var killed: Bool
  var output: String
  var errors: String
  var lines: [String] { output.split(separator: "\n").map(String.init) }
}

/// The DatabaseProbe child program, built beside the test bundle.
enum Probe {
  static let executable = BuiltProgram.url("DatabaseProbe")

  struct NotFound: Error {}

  static func start(_ mode: String, _ directory: URL, _ arguments: [String] = []) throws
    -> (Process, Pipe, Pipe)
  {
    guard let executable else { throw NotFound() }
    let process = Process()
    process.executableURL = executable
    process.arguments = [mode, directory.path] + arguments
    let output = Pipe()
    let errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    return (process, output, errors)
  }

  /// Waits for `process` to end, on a thread of its own.
  static func wait(_ process: Process) async throws {
    try await WorkerThread.run(name: "probe") { process.waitUntilExit() }
  }

  /// Runs the probe to completion on a thread of its own (the wait blocks).
  static func run(_ mode: String, _ directory: URL, _ arguments: [String] = []) async throws
    -> ProbeResult
  {
    let (process, output, errors) = try start(mode, directory, arguments)
    return try await WorkerThread.run(name: "probe") {
      let out = output.fileHandleForReading.readDataToEndOfFile()
      let err = errors.fileHandleForReading.readDataToEndOfFile()
      process.waitUntilExit()
      return ProbeResult(
        status: process.terminationStatus,
        killed: process.terminationReason == .uncaughtSignal,
        output: String(decoding: out, as: UTF8.self),
        errors: String(decoding: err, as: UTF8.self)
      )
    }
  }
}

/// A sync-up with two attendees.
func makeSyncUp(
  _ title: String = "Morning Sync", id: UUID = UUID(), meetings: [Meeting] = []
) -> SyncUp {
  SyncUp(
    id: SyncUp.ID(id),
    attendees: [
      Attendee(id: Attendee.ID(UUID()), name: "Ana"),
      Attendee(id: Attendee.ID(UUID()), name: "Ben"),
    ],
    duration: .seconds(300),
    meetings: IdentifiedArray(uniqueElements: meetings),
    theme: .teal,
    title: title
  )
}

/// A recorded meeting: `count` segments of `texts` (cycled), with word times.
func makeMeeting(
  date: Date = Date(timeIntervalSince1970: 1_790_000_000), count: Int = 3,
  texts: [String] = [
    "good morning everyone", "i worked on the database migration", "the staging server is down",
  ]
) -> Meeting {
  let segments = (0..<count).map { index in
    let text = texts[index % texts.count]
    let start = Double(index) * 5
    return Meeting.Segment(
      speaker: index % 2 == 0 ? "Ana" : "Ben", start: start, end: start + 4, text: text,
      words: text.split(separator: " ").enumerated().map { offset, word in
        Meeting.Word(
          word: String(word), start: start + Double(offset) * 0.3,
          end: start + Double(offset) * 0.3 + 0.25, confidence: 0.875)
      }
    )
  }
  return Meeting(
    id: Meeting.ID(UUID()), date: date, transcript: segments.map(\.text).joined(separator: " "),
    segments: segments
  )
}

/// Adds `syncUps` to the database through a plain merge (not the shared key).
func insert(_ syncUps: [SyncUp], into database: SyncUpsDatabase) throws {
  let file = FileManager.default.temporaryDirectory.appendingPathComponent("import-\(UUID()).json")
  defer { try? FileManager.default.removeItem(at: file) }
  try JSONEncoder.format1.encode(Format1(syncUps: syncUps)).write(to: file)
  try database.importFile(file)
}

struct Format1: Encodable {
  var formatVersion = 1
  var syncUps: [SyncUp]
}

extension JSONEncoder {
  static var format1: JSONEncoder {
    let encoder = JSONEncoder()
    encoder.dateEncodingStrategy = .iso8601
    return encoder
  }
}

/// Rows of a table.
func count(_ table: String, in database: SyncUpsDatabase) throws -> Int {
  try readSync(database) { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM \(table)") ?? 0 }
}

/// GRDB's synchronous read and write (in an async test the async overloads would be chosen).
func readSync<T>(_ database: SyncUpsDatabase, _ body: (Database) throws -> T) throws -> T {
  try database.writer.read(body)
}

func writeSync<T>(_ database: SyncUpsDatabase, _ body: (Database) throws -> T) throws -> T {
  try database.writer.write(body)
}
