// `make bench-store`: the real `syncups` commands on stores of 10 and 250 meetings of 15 minutes
// (word times included), in one run. Each store is built through the database API by a child
// process; each command is a child process too, timed from spawn to exit, its peak memory the
// kernel's (`wait4`'s maximum resident set). Runs alternate between the sizes, so a busy moment
// of this shared machine falls on both; each figure is the median of its runs.
//
//   StoreBenchmark [--syncups PATH] [--runs N]   builds both stores, prints the table and ratios;
//       then exports each store, imports it into an empty data directory with `syncups import`
//       (its time and peak memory), and times the reading commands again there, right after
//       the import and before anything writes
//   StoreBenchmark build DIR N     a data directory with one sync-up of N meetings (+ 4 others)
//   StoreBenchmark search DIR TEXT  the database's search in process (when `syncups search` is
//       not there), one line per hit
//   StoreBenchmark save DIR        a recorded meeting's save in process: 150 segments committed
//       as heard, then the finishing transaction; prints its seconds
import Dependencies
import Foundation
import SharingGRDB
import SyncUpsStore

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

/// The search in process, as `syncups search` would run it: open, search, print.
func search(_ directory: DataDirectory, _ text: String) throws {
  let database = try SyncUpsDatabase.open(directory)
  let hits = try database.search(TranscriptSearch(text, limit: 20))
  guard !hits.isEmpty else { fail("search \(text) found nothing") }
  for hit in hits { print("\(hit.syncUpTitle)\t\(hit.date)\t\(hit.speaker)\t\(hit.text)") }
}

/// A recorded meeting's save: its 150 segments committed one by one as they are heard, then
/// the transaction that finishes it. Prints the seconds of the finish, then of the whole.
func save(_ directory: DataDirectory) throws {
  let database = try SyncUpsDatabase.open(directory)
  let recorded = meeting(9999, date: Date())
  var finish = 0.0
  let whole = try seconds {
    try database.begin(
      Meeting(id: recorded.id, date: recorded.date, transcript: ""), syncUpID: mainID)
    for segment in recorded.segments { _ = try database.append(segment, meetingID: recorded.id) }
    finish = try seconds { _ = try database.finish(recorded.id) }
  }
  print("\(finish)\t\(whole)")
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
    seconds: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18,
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

/// What is timed: a label, the program (syncups or this benchmark), its arguments.
struct Operation {
  var label: String
  var program: String
  var arguments: [String]
  /// Runs of this operation (recording is slow: it loads the speech models).
  var runs: Int
  /// Changes the store (then it runs after every reading operation).
  var writes = false
  /// Prints a row per meeting: its time grows with history by design (no time goal).
  var printsEveryMeeting = false
  /// Runs on the store `syncups import` made of the built one, before anything writes it.
  var afterImport = false
}

let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
  .deletingLastPathComponent().deletingLastPathComponent()

func runBenchmark(syncups: String, runs: Int, sizes: [Int]) throws {
  let me = URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL.path
  let root = FileManager.default.temporaryDirectory.appendingPathComponent("bench-store-\(UUID())")
  defer { try? FileManager.default.removeItem(at: root) }
  var homes: [Int: URL] = [:]
  for size in sizes {
    let directory = root.appendingPathComponent("\(size)")
    print("building a store of \(size) meetings through the database API…")
    var built: Measured?
    let buildTime = try seconds {
      built = try spawn(me, ["build", directory.path, "\(size)"], home: directory)
    }
    guard built?.status == 0 else { fail("building \(size): \(built?.errors ?? "")") }
    let file = directory.appendingPathComponent("syncups.sqlite")
    let bytes = (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int) ?? 0
    print(String(format: "  built in %.1f s: %.1f MB", buildTime, Double(bytes) / 1e6))
    homes[size] = directory
  }
  // Each store exported, then imported into an empty data directory by `syncups import`: the
  // reading commands are timed there too, before anything else writes it (what the import
  // leaves behind, such as a write-ahead log, is paid by them).
  var imported: [Int: URL] = [:]
  var imports: [Int: (measured: Measured, megabytes: Double)] = [:]
  for size in sizes {
    let file = root.appendingPathComponent("export-\(size).json")
    let exported = try spawn(syncups, ["export", "--output", file.path], home: homes[size]!)
    guard exported.status == 0 else { fail("export of \(size): \(exported.errors)") }
    let home = root.appendingPathComponent("\(size)-imported")
    print("importing the export of \(size) meetings into an empty data directory…")
    let measured = try spawn(syncups, ["import", file.path], home: home)
    guard measured.status == 0 else { fail("import of \(size): \(measured.errors)") }
    let bytes = (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int) ?? 0
    imports[size] = (measured, Double(bytes) / 1e6)
    imported[size] = home
  }
  // `syncups search` comes with the terminal branch's commands: without it, the same search
  // runs in a child of this benchmark (open, search, print), and the table says so.
  let help = try spawn(syncups, ["--help"], home: homes[sizes[0]]!)
  let hasSearch = help.output.split(separator: "\n").contains { $0.hasPrefix("  search ") }
  let hello = repository.appendingPathComponent("Samples/hello.wav").path
  // The transcript of the 5th newest meeting: not simply the newest one.
  var operations = [
    Operation(label: "list", program: syncups, arguments: ["list"], runs: runs),
    Operation(label: "show REF", program: syncups, arguments: ["show", "Daily"], runs: runs),
    Operation(
      label: "meetings REF", program: syncups, arguments: ["meetings", "Daily"], runs: runs),
    // Every row: what grows with history by design (250 rows printed instead of 10).
    Operation(
      label: "meetings REF --all", program: syncups, arguments: ["meetings", "Daily", "--all"],
      runs: runs, printsEveryMeeting: true),
    Operation(
      label: "transcript REF N", program: syncups,
      arguments: ["transcript", "Daily", "--meeting", "\(min(5, sizes[0]))"], runs: runs),
  ]
  for text in ["staging", "\"staging server\"", "deploy*"] {
    operations.append(
      hasSearch
        ? Operation(
          label: "search \(text)", program: syncups, arguments: ["search", text], runs: runs)
        : Operation(
          label: "search \(text) (in process)", program: me, arguments: ["search", "HOME", text],
          runs: runs))
  }
  operations += operations.map { operation in
    var again = operation
    again.label += " (after import)"
    again.afterImport = true
    return again
  }
  operations += [
    Operation(
      label: "record --fast (hello.wav)", program: syncups,
      arguments: ["record", "Daily", "--input", hello, "--fast"], runs: max(3, runs / 2),
      writes: true),
    Operation(
      label: "save: 150 segments + finish (in process)", program: me,
      arguments: ["save", "HOME"], runs: max(3, runs / 2), writes: true),
  ]
  var results: [String: [Int: [Measured]]] = [:]
  for operation in operations {
    print("timing \(operation.label)…")
    for _ in 0..<operation.runs {
      for size in sizes {
        let home = operation.afterImport ? imported[size]! : homes[size]!
        let measured = try spawn(
          operation.program, operation.arguments.map { $0 == "HOME" ? home.path : $0 }, home: home
        )
        guard measured.status == 0, !measured.output.isEmpty else {
          fail(
            "\(operation.label) at \(size) meetings exited \(measured.status): "
              + measured.errors.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        results[operation.label, default: [:]][size, default: []].append(measured)
      }
    }
  }

  print("")
  print("median of \(runs) runs (recording and save: \(max(3, runs / 2))); peak = largest maximum")
  print("resident set of the runs; cpu = user + system time, the figure a busy machine")
  print("disturbs least; the writes run last (each adds a meeting to both stores)")
  print("")
  let header = "operation".padding(toLength: 42, withPad: " ", startingAt: 0)
  let (small, large) = (sizes[0], sizes[1])
  let columns = String(format: "%5d: time     peak %5d: time     peak", small, large)
  print(header + columns + "   \(large)/\(small): time  peak   cpu")
  var misses: [String] = []
  for operation in operations {
    guard let smallRuns = results[operation.label]?[small],
      let largeRuns = results[operation.label]?[large]
    else { continue }
    var smallTime = median(smallRuns.map(\.seconds))
    var largeTime = median(largeRuns.map(\.seconds))
    if operation.program == me && operation.arguments.first == "save" {
      // The child prints the finish's seconds and the whole save's: time the whole save.
      let whole: (Measured) -> Double? = {
        Double(
          $0.output.trimmingCharacters(in: .whitespacesAndNewlines)
            .split(separator: "\t").last ?? "")
      }
      smallTime = median(smallRuns.compactMap(whole))
      largeTime = median(largeRuns.compactMap(whole))
    }
    let smallPeak = Double(smallRuns.map(\.peakKilobytes).max() ?? 0) / 1024
    let largePeak = Double(largeRuns.map(\.peakKilobytes).max() ?? 0) / 1024
    let timeRatio = largeTime / smallTime
    let peakRatio = largePeak / smallPeak
    let cpuRatio = median(largeRuns.map(\.cpuSeconds)) / median(smallRuns.map(\.cpuSeconds))
    print(
      operation.label.padding(toLength: 42, withPad: " ", startingAt: 0)
        + String(
          format: "%9.1f ms %5.1f MB %9.1f ms %5.1f MB %10.2f %6.2f %5.2f", smallTime * 1000,
          smallPeak, largeTime * 1000, largePeak, timeRatio, peakRatio, cpuRatio))
    if timeRatio > 1.2, !operation.printsEveryMeeting {
      misses.append("\(operation.label): time ratio \(format(timeRatio))")
    }
    if peakRatio > 1.2 { misses.append("\(operation.label): memory ratio \(format(peakRatio))") }
    if largePeak >= 60 && operation.program == syncups && !operation.writes {
      misses.append("\(operation.label): \(format(largePeak)) MB at \(large)")
    }
    if operation.label == "list" && largeTime >= 0.05 {
      misses.append("list: \(format(largeTime * 1000)) ms at \(large)")
    }
  }
  print("")
  for size in sizes {
    guard let (measured, megabytes) = imports[size] else { continue }
    let peak = Double(measured.peakKilobytes) / 1024
    print(
      String(
        format: "import of %d meetings (%.1f MB of JSON): %.2f s, peak %.1f MB", size, megabytes,
        measured.seconds, peak))
    if size == sizes[1], peak >= 100 {
      misses.append("import of \(size) meetings: peak \(format(peak)) MB")
    }
  }
  print("")
  print("goals: 250/10 ratios at most 1.2, list under 50 ms, peak memory under 60 MB at 250,")
  print("an import of 250 meetings under 100 MB")
  print("(`meetings --all` prints every meeting, 25 times as many rows at 250: no time goal)")
  if sizes != [10, 250] { print("(measured at \(small) and \(large) meetings instead)") }
  if !hasSearch {
    print("`syncups search` is not in this build: search is timed in process (open + search)")
  }
  print(misses.isEmpty ? "every goal met" : "missed: " + misses.joined(separator: "; "))
}

func format(_ value: Double) -> String { String(format: "%.2f", value) }

do {
  switch arguments.count > 1 ? arguments[1] : "" {
  case "build":
    try build(
      DataDirectory(url: URL(fileURLWithPath: arguments[2])), meetings: Int(arguments[3]) ?? 10)
  case "search":
    try search(DataDirectory(url: URL(fileURLWithPath: arguments[2])), arguments[3])
  case "save":
    try save(DataDirectory(url: URL(fileURLWithPath: arguments[2])))
  default:
    var syncups = URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL
      .deletingLastPathComponent().appendingPathComponent("syncups").path
    var runs = 9
    var sizes = [10, 250]
    var index = 1
    while index + 1 < arguments.count {
      switch arguments[index] {
      case "--syncups": syncups = arguments[index + 1]
      case "--runs": runs = max(1, Int(arguments[index + 1]) ?? runs)
      // Other sizes than 10 and 250 (a quick check of the benchmark itself): "SMALL,LARGE".
      case "--sizes":
        sizes = arguments[index + 1].split(separator: ",").compactMap { Int($0) }
        guard sizes.count == 2 else { fail("--sizes takes SMALL,LARGE") }
      default: fail("unknown option \(arguments[index])")
      }
      index += 2
    }
    guard FileManager.default.isExecutableFile(atPath: syncups) else {
      fail("no syncups binary at \(syncups): build it (make bench-store does) or pass --syncups")
    }
    try runBenchmark(syncups: syncups, runs: runs, sizes: sizes)
  }
} catch {
  fail("\(error)")
}
