import Foundation

/// The benchmark's printed table, the imports and the goals it checks.
extension Benchmark {
  /// A row per operation; returns the goals it missed.
  func printTable(_ operations: [Operation]) -> [String] {
    print("")
    print(
      "median of \(runs) runs (recording and save: \(max(3, runs / 2))); peak = largest maximum")
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
      misses += printRow(operation, smallRuns, largeRuns)
    }
    return misses
  }

  private func printRow(_ operation: Operation, _ smallRuns: [Measured], _ largeRuns: [Measured])
    -> [String]
  {
    let large = sizes[1]
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
    var misses: [String] = []
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
    return misses
  }

  /// A line per import; returns the goals it missed.
  func printImports() -> [String] {
    print("")
    var misses: [String] = []
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
    return misses
  }

  func printGoals(hasSearch: Bool, misses: [String]) {
    print("")
    print("goals: 250/10 ratios at most 1.2, list under 50 ms, peak memory under 60 MB at 250,")
    print("an import of 250 meetings under 100 MB")
    print("(`meetings --all` prints every meeting, 25 times as many rows at 250: no time goal)")
    if sizes != [10, 250] { print("(measured at \(sizes[0]) and \(sizes[1]) meetings instead)") }
    if !hasSearch {
      print("`syncups search` is not in this build: search is timed in process (open + search)")
    }
    print(misses.isEmpty ? "every goal met" : "missed: " + misses.joined(separator: "; "))
  }
}

func format(_ value: Double) -> String { String(format: "%.2f", value) }
