import Foundation
import SyncUpsTestSupport
import Testing

/// Concurrent writers: real `syncups` processes writing the same
/// data directory at once. Every write either stands or fails loudly.
@Suite("syncups: concurrent writers", .serialized)
struct ConcurrentWriterTests {
  /// Two shells, each running 50 `syncups add` one after the other, at the same time.
  @Test func twoShellsAddingFiftyEachLeaveEveryAddedSyncUp() async throws {
    let home = try Home()
    let runs = await concurrently(2) { shell in
      var runs: [Result<Run, any Error>] = []
      for index in 0..<50 {
        runs.append(
          await result {
            try await home.run(
              "add", "--title", "Shell \(shell) number \(index)", "--attendee", "Ana",
              "--duration", "5m")
          })
      }
      return runs
    }.flatMap { $0 }
    let finished = try runs.map { try $0.get() }
    let succeeded = finished.filter { $0.status == 0 }
    // A failure is allowed only as one clear line with a non-zero exit.
    for failed in finished where failed.status != 0 {
      expectOneLineFailure(failed, containing: [])
    }
    let listed = try await home.listed()
    let ids = Set(listed.compactMap { $0["id"] as? String })
    #expect(listed.count == succeeded.count, "\(listed.count) listed, \(succeeded.count) added")
    let missing = succeeded.map { $0.stdout.trimmingCharacters(in: .whitespacesAndNewlines) }
      .filter { !ids.contains($0) }
    #expect(missing.isEmpty, "added (exit 0) but not listed: \(missing)")
    // A loud failure is allowed (a writer waits 30 s for another, which a machine loaded with
    // other builds can exceed); say how many there were.
    if succeeded.count < 100 {
      print("\(100 - succeeded.count) of 100 adds failed loudly:")
      for failed in finished where failed.status != 0 { print("  " + failed.stderr) }
    }
    #expect(!(try home.files().contains { $0.contains("conflict") }))
  }

  /// Three first runs at once on an empty data directory each create the database's tables:
  /// none fails with "table syncUp already exists", nor is refused at once while another turns
  /// the new file into a WAL database (one such "stayed locked" in about a hundred first runs
  /// on a loaded machine, before opening was made one process at a time), hence twenty rounds.
  @Test func firstRunsAtOnceAllSucceed() async throws {
    for _ in 0..<20 {
      let home = try Home()
      let runs = await concurrently(3) { index in
        await result { try await home.run("add", "--title", "First \(index)", "--attendee", "Ana") }
      }
      for run in runs {
        let run = try run.get()
        #expect(run.status == 0, "\(run)")
      }
      #expect(try await home.listed().count == 3)
    }
  }

  /// `record --input … --fast` finishing while another process edits another sync-up in a loop:
  /// ten times, the meeting is saved and every edit stands.
  @Test func aRecordingFinishingDuringALoopOfEditsKeepsItsMeetingAndTheEdits() async throws {
    let home = try Home()
    let recorded = try await home.add("Recorded")
    let edited = try await home.add("Edited")
    var stoodEdits: [String] = []
    for round in 0..<10 {
      let stop = Stop()
      let editor = Task {
        var results: [(name: String, run: Run)] = []
        while !stop.isSet || results.count < 2 {
          let name = "R\(round)E\(results.count)"
          guard let run = try? await home.run("edit", edited, "--add-attendee", name) else { break }
          results.append((name, run))
        }
        return results
      }
      let record = try await home.recordHello(recorded)
      stop.set()
      let edits = await editor.value
      #expect(edits.count >= 2)
      #expect(record.status == 0, "round \(round): \(record)")
      for edit in edits where edit.run.status != 0 {
        expectOneLineFailure(edit.run, containing: [])
      }
      stoodEdits += edits.filter { $0.run.status == 0 }.map(\.name)

      // The meeting it said it saved is there, with every earlier round's.
      let saved = try #require(
        record.stdout.split(separator: "\n").first { $0.hasPrefix("Saved meeting ") },
        "round \(round): \(record)")
      let prefix = String(saved.dropFirst("Saved meeting ".count).prefix(8))
      let meetings = try await home.meetings(recorded)
      #expect(meetings.count == round + 1, "round \(round): \(meetings)")
      #expect(
        meetings.contains { ($0["id"] as? String)?.hasPrefix(prefix) == true },
        "round \(round): meeting \(prefix) is missing from \(meetings)")
      // Every edit that exited 0 stands, in order.
      let listed = try await home.listed()
      let attendees = listed.first { $0["id"] as? String == edited }?["attendees"] as? [String]
      #expect(attendees == ["Ana", "Ben", "Cleo"] + stoodEdits, "round \(round)")
    }
    #expect(!(try home.files().contains { $0.contains("conflict") }))
  }
}
