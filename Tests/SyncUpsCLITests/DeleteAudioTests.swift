import AudioFilesClientLive
import Foundation
import SyncUpsTestSupport
import Testing

/// Issue 10, "`delete` leaves the recordings on disk, also when a recording of that sync-up is
/// running".
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
}
