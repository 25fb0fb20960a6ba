import Foundation
import Testing

/// `syncups sources` against the private PulseAudio daemon `.ci/pulse` starts (never a user's).
@Suite("syncups sources")
struct SourcesTests {
  @Test func listsTheSourcesAndMarksTheDefault() throws {
    let pulse = try PrivatePulse.environment()
    let name = "syncups_cli_\(UUID().uuidString.prefix(8).lowercased())"
    let module = try shell("pactl", ["load-module", "module-null-source", "source_name=\(name)"], pulse)
      .trimmingCharacters(in: .whitespacesAndNewlines)
    defer { _ = try? shell("pactl", ["unload-module", module], pulse) }
    func currentDefault() throws -> String {
      try shell("pactl", ["get-default-source"], pulse).trimmingCharacters(in: .whitespacesAndNewlines)
    }
    // Other suites add and remove sources on the same daemon, which may move the default: accept
    // the default as it was just before or just after the run.
    let defaultBefore = try currentDefault()
    let home = try Home()
    let run = try home.run("sources", environment: pulse)
    let defaultAfter = try currentDefault()
    #expect(run.status == 0 && run.stderr.isEmpty, "\(run)")
    let lines = run.stdout.split(separator: "\n").map(String.init)
    let names = lines.map { $0.dropFirst(2).split(separator: " ").first.map(String.init) ?? "" }
    #expect(names.contains(name), "\(run)")
    // Exactly one source is marked, and it is the default.
    let marked = lines.filter { $0.hasPrefix("* ") }
    #expect(marked.count == 1, "\(run)")
    let markedName = marked.first.flatMap { $0.dropFirst(2).split(separator: " ").first.map(String.init) }
    #expect(markedName == defaultBefore || markedName == defaultAfter, "\(run) default: \(defaultBefore)")
    #expect(lines.allSatisfy { $0.hasPrefix("* ") || $0.hasPrefix("  ") })
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
