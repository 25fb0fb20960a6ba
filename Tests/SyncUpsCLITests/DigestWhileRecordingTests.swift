import Foundation
import SyncUpsFeatures
import SyncUpsTestSupport
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// `syncups digest` while a meeting of the sync-up is being recorded by another process: one
/// line, a non-zero exit; `--meeting 1` still reads the last one saved; once the recording is
/// saved, its digest.
@Suite(.serialized)
struct DigestWhileRecordingTests {
  @Test func aMeetingBeingRecordedIsOneLine() async throws {
    if let problem = syncupsBinaryProblem { throw problem }
    let home = try Home()
    let add = try await home.run(
      "add", "--title", "Daily", "--attendee", "Ana", "--duration", "10m")
    #expect(add.status == 0, "\(add)")

    // The private daemon's null-sink monitor never ends: the recording runs until SIGINT.
    let pulse = try PrivatePulse.environment()
    let log = home.url.appendingPathComponent("record.log")
    FileManager.default.createFile(atPath: log.path, contents: nil)
    let logHandle = try FileHandle(forWritingTo: log)
    let recorder = try ChildProcess(
      syncupsBinary, ["record", "daily", "--source", "syncups_out.monitor", "--no-transcription"],
      environment: ["SYNCUPS_HOME": home.url.path, "PATH": "/usr/bin:/bin"].merging(pulse) { $1 },
      standardOutput: .file(logHandle), standardError: .file(logHandle))
    defer { if recorder.isRunning { kill(recorder.processIdentifier, SIGKILL) } }

    let database = try SyncUpsDatabase.open(home.dataDirectory)
    _ = try await waitUntil {
      try database.unfinished().contains { $0.isActive } || !recorder.isRunning
    }
    let started = ContinuousClock.now
    #expect(try database.unfinished().contains { $0.isActive }, "\(recorder.isRunning)")

    expectOneLineFailure(
      try await home.run("digest", "daily"),
      containing: ["a meeting of 'Daily'", "is being recorded", "once it is saved"])
    // No meeting was saved before this one.
    expectOneLineFailure(
      try await home.run("digest", "daily", "--meeting", "1"), containing: ["has no meetings yet"])

    try await Task.sleep(until: started + .seconds(1.5))
    recorder.signal(SIGINT)
    await recorder.waitUntilExit()
    #expect(recorder.terminationStatus == 0)
    let saved = try await home.run("digest", "daily", "--format", "json")
    #expect(saved.status == 0, "\(saved)")
    #expect(saved.stdout.hasSuffix(#","people":[]}"# + "\n"), "nothing was said: \(saved)")
  }
}
