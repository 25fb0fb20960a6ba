import Foundation
import Testing

/// `syncups sources` against the private PulseAudio daemon `.ci/pulse` starts (never a user's).
@Suite("syncups sources")
struct SourcesTests {
  /// Lists what the daemon has without adding anything: other suites record from the default
  /// source of the same daemon at the same time, and a new source could become the default.
  @Test func listsTheSourcesAndMarksTheDefault() throws {
    let pulse = try PrivatePulse.environment()
    func current() throws -> (sources: Set<String>, defaultSource: String) {
      let names = try shell("pactl", ["list", "short", "sources"], pulse)
        .split(separator: "\n").compactMap { $0.split(separator: "\t").dropFirst().first.map(String.init) }
      let defaultSource = try shell("pactl", ["get-default-source"], pulse)
        .trimmingCharacters(in: .whitespacesAndNewlines)
      return (Set(names), defaultSource)
    }
    // Other suites add and remove virtual microphones on the same daemon: compare with the
    // daemon as it was just before and just after the run.
    let before = try current()
    let home = try Home()
    let run = try home.run("sources", environment: pulse)
    let after = try current()
    #expect(run.status == 0 && run.stderr.isEmpty, "\(run)")

    let lines = run.stdout.split(separator: "\n").map(String.init)
    let listed = lines.map { $0.dropFirst(2).split(separator: " ").first.map(String.init) ?? "" }
    #expect(listed.contains("syncups_out.monitor"), "\(run)")  // the daemon's null sink
    #expect(Set(listed).isSubset(of: before.sources.union(after.sources)), "\(run)")
    #expect(before.sources.intersection(after.sources).isSubset(of: Set(listed)), "\(run)")
    // Exactly one source is marked, and it is the default.
    let marked = lines.filter { $0.hasPrefix("* ") }
    #expect(marked.count == 1, "\(run)")
    let markedName = marked.first.flatMap { $0.dropFirst(2).split(separator: " ").first.map(String.init) }
    #expect(markedName == before.defaultSource || markedName == after.defaultSource, "\(run)")
    #expect(lines.allSatisfy { $0.hasPrefix("* ") || $0.hasPrefix("  ") }, "\(run)")
  }
}

enum PrivatePulse {
  static let started: Result<[String: String], ShellError> = {
    do {
      let exports = try shell(repositoryRoot.appendingPathComponent(".ci/pulse").path, [], [:])
      var environment: [String: String] = [:]
      for assignment in exports.split(separator: " ").dropFirst() {
        let parts = assignment.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: "=", maxSplits: 1)
        if parts.count == 2 { environment[String(parts[0])] = String(parts[1]) }
      }
      return .success(environment)
    } catch let error as ShellError {
      return .failure(error)
    } catch {
      return .failure(ShellError(description: "\(error)"))
    }
  }()

  static func environment() throws -> [String: String] { try started.get() }
}

struct ShellError: Error, CustomStringConvertible {
  var description: String
}

/// Runs a program (looked up on PATH) and returns its stdout; throws when it fails.
func shell(_ program: String, _ arguments: [String], _ environment: [String: String]) throws -> String {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
  process.arguments = [program] + arguments
  process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
  let out = Pipe()
  process.standardOutput = out
  process.standardError = FileHandle.nullDevice
  process.standardInput = FileHandle.nullDevice
  try process.run()
  let data = out.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  guard process.terminationStatus == 0 else {
    throw ShellError(description: "\(program) \(arguments.joined(separator: " ")) exited \(process.terminationStatus)")
  }
  return String(decoding: data, as: UTF8.self)
}
