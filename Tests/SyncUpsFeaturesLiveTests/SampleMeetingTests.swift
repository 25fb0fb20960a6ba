import AudioCaptureClient
import AudioCaptureClientLive
import AudioCore
import AudioFilesClient
import AudioFilesClientLive
import Foundation
import MeetingRecorder
import MeetingRecorderLive
import SyncUpsFeatures
import SyncUpsTestSupport
import Testing
import TranscriptionClient
import TranscriptionClientLive

/// Records the bundled stand-up with the real PocketSphinx decoder, the capture client replaying
/// `Samples/standup.wav` as fast as it decodes and the meeting clock following the audio's time,
/// so the saved meeting is the same every run.
///
/// A `Store`, not an exhaustive `TestStore`: the run sends hundreds of partial results and ticks
/// whose exact interleaving is not the point; the saved meeting is, and it is asserted exactly.
@MainActor
struct SampleMeetingTests {
  static let samples = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Samples")

  @Test func sampleMeetingIsSavedWithItsTranscriptAndSpeakers() async throws {
    let syncUp = Shared(
      value: SyncUp(
        id: SyncUp.ID(UUID(0)),
        attendees: [
          Attendee(id: Attendee.ID(UUID(1)), name: "Ana"),
          Attendee(id: Attendee.ID(UUID(2)), name: "Ben"),
          Attendee(id: Attendee.ID(UUID(3)), name: "Cleo"),
        ],
        duration: .seconds(36),
        title: "Stand-up"
      )
    )
    let now = Date(timeIntervalSince1970: 1_234_567_890)
    let store = try await recordToTheEnd(
      syncUp,
      input: .file(
        Self.samples.appendingPathComponent("standup.wav"), pace: .fast, keeping: .transcript),
      now: now
    ) {
      $0.audioFiles = .liveValue
      $0.transcription = .live()
      $0.meetingRecorder = .liveValue
    }
    #expect(store.isDismissed)
    let meeting = try #require(syncUp.wrappedValue.meetings.first)

    let expectedTranscript = try String(
      // The live pass with the attendees' names as vocabulary (no audio kept: no second pass).
      contentsOf: Self.samples.appendingPathComponent("standup.recorded-live.txt"), encoding: .utf8
    ).trimmingCharacters(in: .whitespacesAndNewlines)
    #expect(meeting.transcript == expectedTranscript)
    #expect(meeting.id == Meeting.ID(UUID(0)))
    #expect(meeting.date == now)
    #expect(store.state.secondsElapsed == 32)
    // Each utterance belongs to the attendee whose 12-second slot it started in.
    let expectedSegments: [(speaker: String, start: Double, text: String)] = [
      ("Ana", 0.73, "good morning everyone let's start the stand up"),
      ("Ana", 4.41, "yesterday i finished the lagoon page and fixed two bugs in the report"),
      ("Ana", 9.97, "i worked on the database migration it is almost done"),
      ("Ben", 14.4, "today i will argue the pull request and write the release notes"),
      ("Ben", 18.44, "today i want to add tests for the new search feature"),
      ("Ben", 22.91, "i am blocked by the build server"),
      ("Cleo", 24.77, "it has been very slow since monday"),
      ("Cleo", 27.8, "thank you let's talk about the build server after the meeting"),
    ]
    #expect(meeting.segments.map(\.speaker) == expectedSegments.map(\.speaker))
    #expect(meeting.segments.map(\.start) == expectedSegments.map(\.start))
    #expect(meeting.segments.map(\.text) == expectedSegments.map(\.text))
    #expect(meeting.segments.allSatisfy { !$0.words.isEmpty && $0.end > $0.start })
  }
}
