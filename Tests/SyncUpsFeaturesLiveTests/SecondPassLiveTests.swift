import AudioCore
import AudioFilesClient
import AudioFilesClientLive
import Foundation
import MeetingRecorder
import MeetingRecorderLive
import SyncUpsFeatures
import SyncUpsTestSupport
import TestSupport
import Testing
import TranscriptionClient
import TranscriptionClientLive

/// Records `Samples/vocabulary.wav` with the real decoders and the audio kept: the live pass
/// shows its results as they come, the second pass runs behind it on the same chunks, and the
/// meeting is saved with the second pass's sentences, attributed to speakers. Both passes know
/// the sync-up's vocabulary (a made-up team name no dictionary has).
@MainActor
struct SecondPassLiveTests {
  @Test func theSavedMeetingIsTheSecondPassWithTheVocabulary() async throws {
    let home = try TemporaryDirectory().url
    defer { try? FileManager.default.removeItem(at: home) }
    let sample = SampleMeetingTests.samples.appendingPathComponent("vocabulary.wav")
    let syncUp = Shared(
      value: SyncUp(
        id: SyncUp.ID(UUID(0)),
        attendees: [
          Attendee(id: Attendee.ID(UUID(1)), name: "Ana"),
          Attendee(id: Attendee.ID(UUID(2)), name: "Ben"),
        ],
        duration: .seconds(10),
        title: "Platform",
        vocabulary: ["Zorbex"]
      )
    )
    let store = try await recordToTheEnd(
      syncUp, input: .file(sample, pace: .fast), now: Date(timeIntervalSince1970: 1_234_567_890)
    ) {
      $0.audioFiles = .liveValue
      $0.transcription = .live()
      $0.meetingRecorder = .liveValue
      $0.dataDirectory = DataDirectory(url: home)
    }
    #expect(store.isDismissed)
    #expect(store.state.notice == nil)
    let meeting = try #require(syncUp.wrappedValue.meetings.first)

    // The same chunks through the second pass alone, with the same vocabulary.
    let options = TranscriptionOptions(vocabulary: ["Ana", "Ben", "Zorbex"])
    let sentences = try await TranscriptionClient.live().transcribeSentences(
      try await AudioFilesClient.liveValue.read(sample), options)
    #expect(meeting.segments.map(\.text) == sentences.map(\.text))
    #expect(meeting.segments.map(\.start) == sentences.map(\.start))
    #expect(meeting.segments.map(\.words) == sentences.map(\.words))
    // Ana's slot is the first 5 s, Ben's the rest.
    #expect(meeting.segments.map(\.speaker) == sentences.map { $0.start < 5 ? "Ana" : "Ben" })
    #expect(meeting.transcript.contains("the zorbex team"), "\(meeting.transcript)")
    // The live pass showed its own results as they came.
    #expect(!store.state.segments.isEmpty)
    #expect(store.state.pendingSegments.isEmpty)
    let audio = try #require(meeting.audioFile)
    #expect(FileManager.default.fileExists(atPath: home.appendingPathComponent(audio).path))
  }
}
