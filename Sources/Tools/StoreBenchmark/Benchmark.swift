import Foundation

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
  .deletingLastPathComponent()
  .deletingLastPathComponent().deletingLastPathComponent()

/// One run of the benchmark: both stores built, exported and imported, every operation timed on
/// each, then the table, the imports and the goals printed.
struct Benchmark {
  let syncups: String
  let runs: Int
  let sizes: [Int]
  let me = URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL.path
  let root = FileManager.default.temporaryDirectory.appendingPathComponent("bench-store-\(UUID())")
  var homes: [Int: URL] = [:]
  var imported: [Int: URL] = [:]
  var imports: [Int: (measured: Measured, megabytes: Double)] = [:]
  var results: [String: [Int: [Measured]]] = [:]

  init(syncups: String, runs: Int, sizes: [Int]) {
    (self.syncups, self.runs, self.sizes) = (syncups, runs, sizes)
  }

  mutating func run() throws {
    defer { try? FileManager.default.removeItem(at: root) }
    try buildStores()
    try importStores()
    let hasSearch = try searchIsACommand()
    let operations = operations(hasSearch: hasSearch)
    try time(operations)
    let misses = printTable(operations) + printImports()
    printGoals(hasSearch: hasSearch, misses: misses)
  }

  mutating func buildStores() throws {
    for size in sizes {
      let directory = root.appendingPathComponent("\(size)")
      print("building a store of \(size) meetings through the database API…")
      var built: Measured?
      let buildTime = try seconds {
        built = try spawn(me, ["build", directory.path, "\(size)"], home: directory)
      }
      guard built?.status == 0 else { fail("building \(size): \(built?.errors ?? "")") }
      let file = directory.appendingPathComponent("syncups.sqlite")
      print(String(format: "  built in %.1f s: %.1f MB", buildTime, megabytes(file)))
      homes[size] = directory
    }
  }

  /// Each store exported, then imported into an empty data directory by `syncups import`: the
  /// reading commands are timed there too, before anything else writes it (what the import
  /// leaves behind, such as a write-ahead log, is paid by them).
  mutating func importStores() throws {
    for size in sizes {
      let file = root.appendingPathComponent("export-\(size).json")
      let exported = try spawn(syncups, ["export", "--output", file.path], home: homes[size]!)
      guard exported.status == 0 else { fail("export of \(size): \(exported.errors)") }
      let home = root.appendingPathComponent("\(size)-imported")
      print("importing the export of \(size) meetings into an empty data directory…")
      let measured = try spawn(syncups, ["import", file.path], home: home)
      guard measured.status == 0 else { fail("import of \(size): \(measured.errors)") }
      imports[size] = (measured, megabytes(file))
      imported[size] = home
    }
  }

  func megabytes(_ file: URL) -> Double {
    let bytes = (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int) ?? 0
    return Double(bytes) / 1e6
  }

  /// Without `syncups search`, the same search runs in a child of this benchmark (open, search,
  /// print), and the table says so.
  func searchIsACommand() throws -> Bool {
    let help = try spawn(syncups, ["--help"], home: homes[sizes[0]]!)
    return help.output.split(separator: "\n").contains { $0.hasPrefix("  search ") }
  }

  func operations(hasSearch: Bool) -> [Operation] {
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
    return operations + [
      Operation(
        label: "record --fast (hello.wav)", program: syncups,
        arguments: ["record", "Daily", "--input", hello, "--fast"], runs: max(3, runs / 2),
        writes: true),
      Operation(
        label: "save: 150 segments + finish (in process)", program: me,
        arguments: ["save", "HOME"], runs: max(3, runs / 2), writes: true),
    ]
  }

  /// Runs alternate between the sizes, so a busy moment of the machine falls on both.
  mutating func time(_ operations: [Operation]) throws {
    for operation in operations {
      print("timing \(operation.label)…")
      for _ in 0..<operation.runs {
        for size in sizes {
          let home = operation.afterImport ? imported[size]! : homes[size]!
          let measured = try spawn(
            operation.program, operation.arguments.map { $0 == "HOME" ? home.path : $0 },
            home: home)
          guard measured.status == 0, !measured.output.isEmpty else {
            fail(
              "\(operation.label) at \(size) meetings exited \(measured.status): "
                + measured.errors.trimmingCharacters(in: .whitespacesAndNewlines))
          }
          results[operation.label, default: [:]][size, default: []].append(measured)
        }
      }
    }
  }
}
