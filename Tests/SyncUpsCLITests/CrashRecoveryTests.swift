import Foundation
import SyncUpsTestSupport
import Testing

/// The save is atomic: `syncups record` killed (SIGKILL) at each step that
/// makes its meeting durable — every fsync/fdatasync, rename and unlink, just before it and just
/// after it, numbered across threads by `Tests/Shims/kill-at-step.c` — and the next start.
@Suite("syncups: a recording killed at each step of its save", .serialized)
struct CrashRecoveryTests {
  struct Kill: CustomStringConvertible, Sendable {
    var step: Int
    var before: Bool
    var call: String
    var description: String { "killed \(before ? "before" : "after") step \(step) (\(call))" }
  }

  /// The steps of a whole recording, from a run that is not killed.
  static func steps(library: String) async throws -> [String] {
    let home = try Home()
    let id = try await home.add("Crash")
    let log = home.url.path + ".steps"
    defer { unlink(log) }
    let clean = try await home.recordHello(
      id, environment: ["LD_PRELOAD": library, "SYNCUPS_STEP_LOG": log])
    #expect(clean.status == 0, "\(clean)")
    let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
    return text.split(separator: "\n").map { line in
      // "N call path": the call and the file's name, without the temporary folder.
      let parts = line.split(separator: " ", maxSplits: 2).map(String.init)
      let path = parts.count > 2 ? parts[2].replacingOccurrences(of: home.url.path, with: "") : ""
      return "\(parts.count > 1 ? parts[1] : "?") \(path)"
    }
  }

  @Test func aRecordingKilledAtAnyStepIsRecoveredOnceWithItsAudio() async throws {
    let library = try killAtStepLibrary.get()
    // A recording's steps vary with timing (16 to 23 measured): whether the word model is
    // rebuilt before it exits, whether the sentence pass caught up in time (if not, the live
    // transcript is saved first and replaced). Two clean runs: the kills go over the longer
    // one's steps, and at least as many must happen as the shorter one makes.
    let runs = [try await Self.steps(library: library), try await Self.steps(library: library)]
    let steps = runs[0].count >= runs[1].count ? runs[0] : runs[1]
    let fewest = min(runs[0].count, runs[1].count)
    try #require(fewest > 0, "a clean run made no durable step at all")
    let kills = steps.enumerated().flatMap { index, call in
      [
        Kill(step: index + 1, before: true, call: call),
        Kill(step: index + 1, before: false, call: call),
      ]
    }
    // Two runs at a time, each in a data folder of its own (the kills are independent): 44 s
    // instead of 60 on the optimized binary and a quiet machine.
    let killedAtAll = try await withThrowingTaskGroup(of: Bool.self) { group in
      var waiting = kills[...]
      for _ in 0..<2 {
        if let kill = waiting.popFirst() {
          group.addTask { try await Self.check(kill, library: library) }
        }
      }
      var killed = 0
      while let wasKilled = try await group.next() {
        if wasKilled { killed += 1 }
        if let kill = waiting.popFirst() {
          group.addTask { try await Self.check(kill, library: library) }
        }
      }
      return killed
    }
    #expect(killedAtAll >= fewest, "only \(killedAtAll) of \(kills.count) kills happened")
  }

  /// One recording killed at `kill` and the two starts after it; false when that step did not
  /// come in this run.
  static func check(_ kill: Kill, library: String) async throws -> Bool {
    let home = try Home()
    let id = try await home.add("Crash")
    let killed = try await home.recordHello(
      id,
      environment: [
        "LD_PRELOAD": library, "SYNCUPS_KILL_AT_STEP": "\(kill.step)",
        "SYNCUPS_KILL_WHEN": kill.before ? "before" : "after",
      ])
    // SIGKILL shows as 9 (Foundation's uncaught-signal status).
    guard killed.status == SIGKILL else {
      // The step did not come in this run (a step the clean run made by chance): nothing to
      // check, but it must then have ended normally.
      #expect(killed.status == 0, "\(kill): \(killed)")
      return false
    }
    let printed = killed.stdout.split(separator: "\n").filter {
      $0.hasPrefix("[") && !$0.contains("] Speaker ")
    }.map { String($0.drop { $0 != "]" }.dropFirst(2)) }

    // The next start recovers what was committed; a second one finds nothing more.
    let first = try await home.meetings(id)
    let second = try await home.meetings(id)
    #expect(first.count <= 1, "\(kill): \(first)")
    #expect(second.count == first.count, "\(kill): recovered again: \(second)")
    #expect(
      first.map { $0["id"] as? String } == second.map { $0["id"] as? String }, "\(kill)")
    if !printed.isEmpty {
      #expect(first.count == 1, "\(kill): utterances were printed, no meeting recovered")
    }
    let stored = try home.storedMeetings()
    #expect(stored.count == first.count, "\(kill): \(stored)")
    for meeting in stored {
      #expect(meeting.isFinished, "\(kill): \(meeting)")
      let texts = try await home.segmentTexts(id, meeting: meeting.id)
      #expect(Set(texts).count == texts.count, "\(kill): duplicated segments \(texts)")
      // What was printed is there: the live pass's lines, or the second pass's sentence over
      // the same words (`Samples/hello.sentences.txt`: its one sentence decoded whole).
      let sentence = "Ana: " + (try committedSentences("hello"))
      for utterance in printed {
        #expect(
          texts.contains(utterance) || texts == [sentence],
          "\(kill): printed \(utterance), not recovered")
      }
      // Its audio is named, and is there. (Killed before any audio was written, the meeting
      // has none to name: then no file may be left either, which the orphan check says.)
      if !printed.isEmpty {
        #expect(meeting.audioFile != nil, "\(kill): utterances were heard, no audio named")
      }
      if let audio = meeting.audioFile {
        let path = audio.hasPrefix("/") ? audio : home.url.appendingPathComponent(audio).path
        #expect(FileManager.default.fileExists(atPath: path), "\(kill): \(audio) is missing")
      }
    }
    // No FLAC that no meeting names.
    let named = Set(
      stored.compactMap(\.audioFile).map {
        $0.hasPrefix(home.url.path + "/") ? String($0.dropFirst(home.url.path.count + 1)) : $0
      })
    #expect(home.audioFiles().subtracting(named).isEmpty, "\(kill): orphaned audio")
    return true
  }
}
