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
    var benchmark = Benchmark(syncups: syncups, runs: runs, sizes: sizes)
    try benchmark.run()
  }
} catch {
  fail("\(error)")
}
