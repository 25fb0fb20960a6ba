import Foundation
import SyncUpsTestSupport
import Testing

/// `syncups sources` against the private PulseAudio daemon `.ci/pulse` starts (never a user's).
@Suite("syncups sources")
struct SourcesTests {
  /// Lists what the daemon has without adding anything: other suites record from the default
  /// source of the same daemon at the same time, and a new source could become the default.
  @Test func listsTheSourcesAndMarksTheDefault() async throws {
    let pulse = try PrivatePulse.environment()
    let environment = ProcessInfo.processInfo.environment.merging(pulse) { $1 }
    func current() throws -> (sources: Set<String>, defaultSource: String) {
      let names = try SyncUpsTestSupport.run(
        "pactl", ["list", "short", "sources"], environment: environment
      )
      .split(separator: "\n").compactMap {
        $0.split(separator: "\t").dropFirst().first.map(String.init)
      }
      let defaultSource = try SyncUpsTestSupport.run(
        "pactl", ["get-default-source"], environment: environment
      )
      .trimmingCharacters(in: .whitespacesAndNewlines)
      return (Set(names), defaultSource)
    }
    // Other suites add and remove virtual microphones on the same daemon: compare with the
    // daemon as it was just before and just after the run.
    let before = try current()
    let home = try Home()
    let run = try await home.run("sources", environment: pulse)
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
    let markedName = marked.first.flatMap {
      $0.dropFirst(2).split(separator: " ").first.map(String.init)
    }
    #expect(markedName == before.defaultSource || markedName == after.defaultSource, "\(run)")
    #expect(lines.allSatisfy { $0.hasPrefix("* ") || $0.hasPrefix("  ") }, "\(run)")
  }
}
