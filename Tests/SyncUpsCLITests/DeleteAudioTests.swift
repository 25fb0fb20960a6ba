import AudioFilesClientLive
import Foundation
import SyncUpsTestSupport
import Testing

/// `delete` removes the recordings from disk, also when a recording of that sync-up is running.
@Suite("syncups delete and recordings", .serialized)
struct DeleteAudioTests {
  @Test func deleteRemovesItsMeetingsAudioAndNoOtherSyncUps() async throws {
    let home = try Home()
    let deleted = try await home.add("Deleted")
    let kept = try await home.add("Kept")
    #expect(try await home.recordHello(deleted).status == 0)
    #expect(try await home.recordHello(deleted).status == 0)
    let deletedAudio = home.audioFiles()
    #expect(deletedAudio.count == 2)
    #expect(try await home.recordHello(kept).status == 0)
    let keptAudio = home.audioFiles().subtracting(deletedAudio)
    #expect(keptAudio.count == 1)

    let delete = try await home.run("delete", deleted, "--yes")
    #expect(delete.status == 0, "\(delete)")
    #expect(home.audioFiles() == keptAudio)
    #expect(try await home.listed().compactMap { $0["id"] as? String } == [kept])
    #expect(try await home.meetings(kept).count == 1)
  }

  /// A recording from a (virtual) microphone is running: `delete` of its sync-up refuses in one
  /// line and changes nothing; the recording ends and saves; then `delete` removes it all.
  @Test func deleteRefusesWhileThatSyncUpIsRecording() async throws {
    try PrivatePulse.start()
    let microphone = try VirtualMicrophone()
    defer { microphone.remove() }
    let home = try Home()
    let id = try await home.add("Recording", duration: "30m")
    let other = try await home.add("Other")
    let record = try RunningSyncups(["record", id, "--source", microphone.name], home: home)
    #expect(await record.wait { $0.stdout.contains("Recording 'Recording'") }, "\(record.stderr)")
    let played = try AudioFileReader(path: samples.appendingPathComponent("hello.wav").path)
      .readAll()
    let done = Stop()
    let player = Task { try await microphone.play(played) { done.isSet } }
    defer { done.set() }
    // Recording for sure: an utterance was heard and printed.
    #expect(
      await record.wait { $0.stdout.contains("hello world") }, "\(record.stdout)\(record.stderr)")

    let refused = try await home.run("delete", id, "--yes")
    expectOneLineFailure(refused, containing: ["record"])
    #expect(try await home.listed().count == 2)
    // Deleting another sync-up is fine meanwhile.
    #expect(try await home.run("delete", other, "--yes").status == 0)

    record.signal(SIGINT)
    #expect(await record.finish() == 0, "\(record.stderr)")
    done.set()
    _ = try? await player.value
    #expect(try await home.meetings(id).count == 1)
    #expect(home.audioFiles().count == 1)

    let delete = try await home.run("delete", id, "--yes")
    #expect(delete.status == 0, "\(delete)")
    #expect(home.audioFiles().isEmpty)
    #expect(try await home.listed().isEmpty)
  }

  /// `delete` racing `record`: whoever wins, the other says so in one line: a deleted sync-up leaves no meeting, row or audio
  /// behind, and a refused delete leaves the saved meeting.
  @Test func deleteRacingRecordLosesNothingAndLeavesNothing() async throws {
    let home = try Home()
    for round in 0..<30 {
      let id = try await home.add("Race \(round)")
      async let recorded = home.run(
        "record", id, "--input", samples.appendingPathComponent("hello.wav").path, "--fast",
        "--no-transcription")
      try await Task.sleep(for: .milliseconds(Int.random(in: 0...150)))
      let delete = try await home.run("delete", id, "--yes")
      let record = try await recorded
      #expect(!record.stderr.contains("recovers it"), "\(record)")
      let stored = try home.storedMeetings().filter { $0.syncUpID == id }
      if delete.status == 0 {
        // Deleted first, or after the meeting was saved: nothing of it is left.
        #expect(stored.isEmpty, "round \(round): \(stored)")
        if record.status != 0 {
          // It began after the delete: one line says the sync-up is not there.
          #expect(record.stderrLines.count == 1, "round \(round): \(record)")
          #expect(record.stderr.contains(String(id.prefix(8))), "round \(round): \(record)")
        }
      } else {
        // Refused while it was being recorded: the recording saved its meeting.
        expectOneLineFailure(delete, containing: ["record"])
        #expect(record.status == 0, "round \(round): \(record)")
        #expect(stored.count == 1 && stored.allSatisfy(\.isFinished), "round \(round): \(stored)")
      }
      // No audio without its meeting, no unfinished meeting left to recover.
      let kept = Set(try home.storedMeetings().compactMap(\.audioFile))
      #expect(home.audioFiles() == kept, "round \(round)")
      #expect(try home.storedMeetings().allSatisfy(\.isFinished), "round \(round)")
    }
  }
}
