import AudioFilesClient
import AudioFilesClientLive
import Foundation
import SyncUpsTestSupport
import Testing

/// End to end through a real PulseAudio daemon: `syncups add`, then `syncups record REF --source
/// <virtual microphone>` while the sample meeting is played into the microphone, SIGINT after
/// it, then `syncups transcript REF --format json`.
@Suite("syncups record from a microphone", .serialized)
struct LiveMicrophoneTests {
  @Test func recordsTheSampleMeetingPlayedIntoAVirtualMicrophone() async throws {
    try PrivatePulse.start()
    let microphone = try VirtualMicrophone()
    defer { microphone.remove() }
    let home = try dataDirectory()
    let add = try await syncups(
      [
        "add", "--title", "Live Sync", "--attendee", "Ana", "--attendee", "Ben", "--attendee",
        "Cleo",
        "--duration", "6m",
      ],
      home: home
    )
    #expect(add.status == 0, "\(add.stderr)")
    let id = add.stdout.trimmingCharacters(in: .whitespacesAndNewlines)

    let record = try RunningSyncups(["record", id, "--source", microphone.name], home: home)
    #expect(await record.wait { $0.stdout.contains("Recording 'Live Sync'") })
    let played = try AudioFileReader(path: samples.appendingPathComponent("standup.wav").path)
      .readAll()
    let done = Flag()
    let player = Task { try await microphone.play(played) { done.isSet } }
    // Let the last utterance be finalized after the played audio, then end with Ctrl-C.
    #expect(await record.wait(for: { utteranceLines($0.stdout).count >= 8 }))
    record.signal(SIGINT)
    #expect(await record.finish() == 0, "\(record.stderr)")
    done.set()
    _ = try? await player.value
    // A second pass that had not caught up finishes in the background.
    try await waitForSentencePasses(home)

    let transcript = try await syncups(["transcript", id, "--format", "json"], home: home)
    #expect(transcript.status == 0, "\(transcript.stderr)")
    let json = try #require(
      try JSONSerialization.jsonObject(with: Data(transcript.stdout.utf8)) as? [String: Any]
    )
    #expect(json["syncUp"] as? String == "Live Sync")
    let text = try #require(json["text"] as? String)
    // The second pass over the kept audio, the attendees' names as vocabulary.
    #expect(text == (try committedRecording("standup")))
    // Each sentence is named by its voice, though all of them fall in Ana's 2-minute
    // slot: in a first meeting the voices are named in the order they first speak, and the
    // sample's are slt, rms, awb, slt, rms, awb, slt (Samples/standup.script).
    let segments = try #require(json["segments"] as? [[String: Any]])
    #expect(
      segments.map { $0["speaker"] as? String }
        == ["Ana", "Ben", "Cleo", "Ana", "Ben", "Cleo", "Ana"])
    #expect(try savedMeetings(home, title: "Live Sync").count == 1)

    // The file path (`--input … --fast`) gives the same transcript within 2% word error rate,
    // with what the live one had learned: nothing (the sync-up has since learned its words).
    let fast = try await syncups(
      [
        "record", id, "--input", samples.appendingPathComponent("standup.wav").path, "--fast",
        "--use-learning", "none",
      ],
      home: home
    )
    #expect(fast.status == 0, "\(fast.stderr)")
    let meetings = try savedMeetings(home, title: "Live Sync")
    #expect(meetings.count == 2)
    let fastText = try #require(meetings.first?["transcript"] as? String)
    #expect(wordErrorRate(text, fastText) <= 0.02)
  }
}
