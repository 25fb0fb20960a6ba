// `make bench-store`: the database at 10 and 250 meetings of 15 minutes (word times included),
// in one run. Each store is built by a child process, then measured by another, so peak memory
// is that of the measured operations alone.
//
//   StoreBenchmark                 builds and measures both sizes, prints the table and ratios
//   StoreBenchmark build DIR N     a data directory with one sync-up of N meetings (+ 4 others)
//   StoreBenchmark measure DIR     times the operations, prints `name seconds` lines and peak KB
import Dependencies
import Foundation
import SharingGRDB
import SyncUpsFeatures

let arguments = CommandLine.arguments

func fail(_ message: String) -> Never {
  FileHandle.standardError.write(Data("bench-store: \(message)\n".utf8))
  exit(1)
}

let mainID = SyncUp.ID(UUID(uuidString: "11111111-1111-1111-1111-111111111111")!)
/// 3000 made-up words of 1 to 3 syllables, drawn with a Zipf-like law as speech is: a few very
/// common words, a long tail of rare ones. The searched words are real ones put in by hand.
let syllables =
  ("ba be bi bo bu da de di do du ka ke ki ko ku la le li lo lu ma me mi mo mu "
  + "na ne ni no nu pa pe pi po pu ra re ri ro ru sa se si so su ta te ti to tu va ve vi vo vu")
  .split(separator: " ").map(String.init)
let words: [String] = (0..<3000).map { index in
  var generator = SplitMix(seed: UInt64(index) &* 7919)
  let count = 1 + index % 3
  return (0..<count).map { _ in syllables[Int(generator.next() % UInt64(syllables.count))] }
    .joined() + (index < 20 ? "" : "\(index % 7)")
}

func zipfWord(_ generator: inout SplitMix) -> String {
  let uniform = Double(generator.next() % 1_000_000) / 1_000_000
  let index = Int(pow(Double(words.count), uniform)) - 1
  return words[max(0, min(words.count - 1, index))]
}

/// A 15-minute meeting: 150 utterances of 14 words, each word with times and a confidence.
func meeting(_ index: Int, date: Date) -> Meeting {
  var generator = SplitMix(seed: UInt64(index + 1))
  let segments = (0..<150).map { number -> Meeting.Segment in
    let start = Double(number) * 6
    let count = 14
    var text = (0..<count).map { _ in zipfWord(&generator) }
    // What the search looks for: a phrase three times a meeting, a word once.
    if number % 50 == 7 {
      text[3] = "staging"
      text[4] = "server"
    }
    if number == 91 { text[8] = ["deployed", "deployment", "deploys"][index % 3] }
    return Meeting.Segment(
      speaker: ["Ana", "Ben", "Cleo"][number % 3], start: start, end: start + 5.5,
      text: text.joined(separator: " "),
      words: text.enumerated().map { offset, word in
        Meeting.Word(
          word: word, start: start + Double(offset) * 0.38,
          end: start + Double(offset) * 0.38 + 0.3,
          confidence: Double(generator.next() % 1000) / 1000)
      }
    )
  }
  return Meeting(
    id: Meeting.ID(UUID()), date: date, transcript: segments.map(\.text).joined(separator: " "),
    segments: segments)
}

struct SplitMix {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

func attendees() -> IdentifiedArrayOf<Attendee> {
  IdentifiedArray(
    uniqueElements: ["Ana", "Ben", "Cleo"].map { Attendee(id: Attendee.ID(UUID()), name: $0) })
}

func build(_ directory: DataDirectory, meetings: Int) throws {
  let database = try SyncUpsDatabase.open(directory)
  let start = Date(timeIntervalSince1970: 1_780_000_000)
  var syncUps: IdentifiedArrayOf<SyncUp> = [
    SyncUp(
      id: mainID, attendees: attendees(), duration: .seconds(900), theme: .teal, title: "Daily")
  ]
  for other in 0..<4 {
    syncUps.append(SyncUp(id: SyncUp.ID(UUID()), attendees: attendees(), title: "Team \(other)"))
  }
  // Imported 25 meetings a transaction (what a recording commits segment by segment is timed
  // by `measure`).
  let chunk = FileManager.default.temporaryDirectory.appendingPathComponent("bench-\(UUID()).json")
  defer { try? FileManager.default.removeItem(at: chunk) }
  let encoder = JSONEncoder()
  encoder.dateEncodingStrategy = .iso8601
  struct File: Encodable {
    var formatVersion = 1
    var syncUps: IdentifiedArrayOf<SyncUp>
  }
  try encoder.encode(File(syncUps: syncUps)).write(to: chunk)
  try database.importFile(chunk)
  for first in stride(from: 0, to: meetings, by: 25) {
    var daily = syncUps[0]
    daily.meetings = IdentifiedArray(
      uniqueElements: (first..<min(meetings, first + 25)).map { index in
        meeting(index, date: start.addingTimeInterval(Double(index) * 86_400))
      })
    try encoder.encode(File(syncUps: [daily])).write(to: chunk)
    try database.importFile(chunk)
  }
}

func seconds(_ body: () throws -> Void) rethrows -> Double {
  let start = ContinuousClock.now
  try body()
  let elapsed = ContinuousClock.now - start
  return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
}

/// The best of `runs` timings: on a machine shared with other work the minimum is the
/// repeatable figure (the first run, with SQLite's cache still cold, is included).
func best(runs: Int = 7, _ body: () throws -> Void) rethrows -> Double {
  var times: [Double] = []
  for _ in 0..<runs { times.append(try seconds(body)) }
  return times.min() ?? 0
}

func peakKilobytes() -> Int {
  let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
  let line = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") } ?? ""
  return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
}

func measure(_ directory: DataDirectory) throws {
  var results: [(String, Double)] = []
  /// Best of 7 runs of open-then-`operation`; each database is closed (a WAL checkpoint, not
  /// what a command waits for) after its run's timing.
  func bestWithOpen(_ operation: (SyncUpsDatabase) throws -> Void) throws -> Double {
    var times: [Double] = []
    for _ in 0..<7 {
      var database: SyncUpsDatabase?
      times.append(
        try seconds {
          database = try SyncUpsDatabase.open(directory)
          try operation(database!)
        })
      database = nil
    }
    return times.min() ?? 0
  }
  results.append(("open", try bestWithOpen { _ in }))
  let database = try SyncUpsDatabase.open(directory)
  let newest = try database.writer.read { db in
    try MeetingSummariesRequest(syncUpID: mainID).fetch(db).first
  }
  guard let newest else { fail("no meetings") }
  // What each command reads, through the keys the features use.
  let operations: [(String, (SyncUpsDatabase) throws -> Void)] = [
    (
      "list",
      { database in
        try withDependencies {
          $0.syncUpsDatabase = database
          $0.sharedRegistry = SharedRegistry()
        } operation: {
          @Shared(.syncUps) var syncUps
          guard syncUps.count == 5 else { fail("list: \(syncUps.count) sync-ups") }
        }
      }
    ),
    (
      "show",
      { database in
        _ = try database.writer.read { db in try SyncUpRequest(syncUpID: mainID).fetch(db) }
      }
    ),
    (
      "meetings",
      { database in
        _ = try database.writer.read { db in try MeetingSummariesRequest(syncUpID: mainID).fetch(db)
        }
      }
    ),
    (
      "transcript",
      { database in
        _ = try database.writer.read { db in
          try MeetingTranscriptRequest(meetingID: newest.id).fetch(db)
        }
      }
    ),
    (
      "search phrase",
      { database in
        guard try !database.search(TranscriptSearch("\"staging server\"", limit: 20)).isEmpty
        else { fail("search found nothing") }
      }
    ),
    (
      "search prefix",
      { database in
        guard try !database.search(TranscriptSearch("deploy*", limit: 20)).isEmpty
        else { fail("search found nothing") }
      }
    ),
  ]
  // Alone, on an open database; then as a command does it: open the database, then read.
  for (name, operation) in operations {
    results.append((name, try best { try operation(database) }))
  }
  for (name, operation) in operations {
    results.append(("open + \(name)", try bestWithOpen(operation)))
  }
  // A recorded meeting's save: the finishing transaction of a meeting whose 150 segments were
  // committed as they were heard; and a whole meeting saved through the list's `@Shared`.
  let recorded = meeting(9999, date: Date())
  try database.begin(
    Meeting(id: recorded.id, date: recorded.date, transcript: ""), syncUpID: mainID)
  for segment in recorded.segments { try database.append(segment, meetingID: recorded.id) }
  results.append(("save (finish)", try seconds { try database.finish(recorded.id) }))
  results.append(
    (
      "save (@Shared)",
      try withDependencies {
        $0.syncUpsDatabase = database
        $0.sharedRegistry = SharedRegistry()
      } operation: {
        @Shared(.syncUps) var syncUps
        let another = meeting(10_000, date: Date())
        return try seconds {
          $syncUps.withLock { $0[id: mainID]?.meetings.insert(another, at: 0) }
          try $syncUps.save()
        }
      }
    ))
  for (name, value) in results { print("\(name)\t\(value)") }
  print("peak\t\(peakKilobytes())")
}

func runChild(_ arguments: [String]) throws -> String {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL
  if !FileManager.default.isExecutableFile(atPath: process.executableURL!.path) {
    process.executableURL = Bundle.main.executableURL
  }
  process.arguments = arguments
  let output = Pipe()
  process.standardOutput = output
  try process.run()
  let data = output.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  guard process.terminationStatus == 0 else { fail("\(arguments[0]) failed") }
  return String(decoding: data, as: UTF8.self)
}

func parse(_ output: String) -> [(String, Double)] {
  output.split(separator: "\n").compactMap { line in
    let parts = line.split(separator: "\t")
    guard parts.count == 2, let value = Double(parts[1]) else { return nil }
    return (String(parts[0]), value)
  }
}

do {
  switch arguments.count > 1 ? arguments[1] : "" {
  case "build":
    try build(
      DataDirectory(url: URL(fileURLWithPath: arguments[2])), meetings: Int(arguments[3]) ?? 10)
  case "measure":
    try measure(DataDirectory(url: URL(fileURLWithPath: arguments[2])))
  default:
    let root = FileManager.default.temporaryDirectory.appendingPathComponent(
      "bench-store-\(UUID())")
    defer { try? FileManager.default.removeItem(at: root) }
    var columns: [Int: [(String, Double)]] = [:]
    for size in [10, 250] {
      let directory = root.appendingPathComponent("\(size)")
      print("building a store of \(size) meetings…")
      let buildTime = try seconds { _ = try runChild(["build", directory.path, "\(size)"]) }
      let file = directory.appendingPathComponent("syncups.sqlite")
      let bytes = (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int) ?? 0
      print(String(format: "  built in %.1f s, %.1f MB", buildTime, Double(bytes) / 1e6))
      columns[size] = parse(try runChild(["measure", directory.path]))
    }
    let small = columns[10] ?? []
    let large = Dictionary(uniqueKeysWithValues: columns[250] ?? [])
    print("")
    print("operation              10 meetings   250 meetings   250/10   (best of 7)")
    for (name, value) in small {
      guard let big = large[name] else { continue }
      let isMemory = name == "peak"
      let format: (Double) -> String = {
        isMemory ? String(format: "%9.1f MB", $0 / 1024) : String(format: "%9.2f ms", $0 * 1000)
      }
      let label = isMemory ? "peak memory" : name
      print(
        label.padding(toLength: 21, withPad: " ", startingAt: 0) + "  " + format(value) + "   "
          + format(big) + "   " + String(format: "%6.2f", big / value))
    }
    print("")
    print("goals: ratios at most 1.2, list under 50 ms, peak memory under 60 MB at 250")
  }
} catch {
  fail("\(error)")
}
