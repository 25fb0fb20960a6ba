import AudioCaptureClient
import AudioCaptureClientLive
import AudioFilesClient
import AudioFilesClientLive
import ConcurrencyExtras
import Foundation
import MeetingRecorder
import MeetingRecorderLive
import SyncUpsFeatures
import TestSupport
import Testing
import TranscriptionClient
import TranscriptionClientLive

/// The saved meeting reaches the database (`syncups.sqlite`) in a real (temporary) data
/// directory through the reference derived from the list's, with its segments committed as
/// they were heard, and the meeting's audio is kept next to it as FLAC.
@MainActor
struct PersistenceTests {
  @Test func recordedMeetingIsWrittenToTheDataDirectory() async throws {
    let directory = try TemporaryDirectory().url
    defer { try? FileManager.default.removeItem(at: directory) }
    let dataDirectory = DataDirectory(url: directory)
    let now = Date(timeIntervalSince1970: 1_234_567_890)

    try await recordHello(into: dataDirectory, at: now)

    // Read back what is on disk, as the next run of the app would.
    let reopened = try SyncUpsDatabase.open(dataDirectory)
    let (summary, meeting) = try withDependencies {
      $0.dataDirectory = dataDirectory
      $0.syncUpsDatabase = reopened
    } operation: {
      @Shared(.syncUps) var syncUps
      let summary = try #require(syncUps.first?.meetings.first)
      @SharedReader(.meetingTranscript(summary.id)) var meeting
      return (summary, try #require(meeting))
    }
    #expect(summary.segments.isEmpty)
    #expect(try reopened.unfinished().isEmpty)
    // The second pass's sentence (the audio is kept): hello's one sentence decoded whole.
    let expected = try String(
      contentsOf: SampleMeetingTests.samples.appendingPathComponent("hello.sentences.txt"),
      encoding: .utf8
    ).trimmingCharacters(in: .whitespacesAndNewlines)
    #expect(meeting.transcript == expected)
    #expect(meeting.segments.allSatisfy { $0.speaker == "Ana" })
    #expect(meeting.date == now)

    let audioFile = try #require(meeting.audioFile)
    #expect(summary.audioFile == audioFile)
    #expect(audioFile == "audio/\(UUID(0).uuidString.lowercased()).flac")
    let info = try await AudioFilesClient.liveValue.info(
      directory.appendingPathComponent(audioFile))
    #expect(info.sampleRate == 16_000)
    #expect(info.duration > 3)
    // The audio was written under the meeting's id from the start: nothing else is left.
    let audioFiles = try FileManager.default.contentsOfDirectory(
      atPath: dataDirectory.audioDirectory.path)
    #expect(audioFiles == ["\(UUID(0).uuidString.lowercased()).flac"])
    // How long it ran, as the list of meetings shows it.
    let summaries = try await reopened.writer.read { db in
      try MeetingSummariesRequest(syncUpID: SyncUp.ID(UUID(100))).fetch(db)
    }
    #expect(try #require(summaries.first?.length) >= info.duration - 1)
  }

  /// A sync-up of one attendee, saved, then the bundled hello.wav recorded into it by the
  /// app's RecordMeeting with the real recorder and decoder, until the screen is dismissed.
  func recordHello(
    into dataDirectory: DataDirectory, at now: Date,
    sourceLocation: SourceLocation = #_sourceLocation
  ) async throws {
    let database = try SyncUpsDatabase.open(dataDirectory)
    let afterSave = LockIsolated<[String]>([])
    try await withDependencies {
      $0.dataDirectory = dataDirectory
      $0.syncUpsDatabase = database
      $0.audioFiles = .liveValue
      $0.recordingStore = .database(database)
      $0.transcription = .live()
      $0.meetingRecorder = .liveValue
      $0.continuousClock = TestClock()
      $0.date.now = now
      $0.uuid = .incrementing
      $0.teamLearning.learnWords = { id in afterSave.withValue { $0.append("words \(id)") } }
      $0.sentencePasses.startInBackground = { afterSave.withValue { $0.append("background") } }
    } operation: {
      @Shared(.syncUps) var syncUps = []
      let syncUp = SyncUp(
        id: SyncUp.ID(UUID(100)),
        attendees: [Attendee(id: Attendee.ID(UUID(101)), name: "Ana")],
        duration: .seconds(60),
        title: "Persistence"
      )
      $syncUps.withLock { _ = $0.append(syncUp) }
      // On disk before the recording begins (the recording's row refers to it).
      try $syncUps.save()
      let derived = try #require(
        Shared($syncUps[id: syncUp.id]), sourceLocation: sourceLocation)

      let store = Store(
        initialState: RecordMeeting.State(
          meetingID: Meeting.ID(UUID(0)), syncUp: derived,
          input: .file(SampleMeetingTests.samples.appendingPathComponent("hello.wav"), pace: .fast)
        )
      ) {
        RecordMeeting()
      }
      store.send(.onTask)
      _ = await waitUntil { store.isDismissed }
      #expect(
        store.isDismissed, "\(store.state.alert as Any)", sourceLocation: sourceLocation)
      // Once saved, the sync-up's words learn from it and (its audio kept, the voices used) the
      // background pass adapts the voices.
      #expect(
        afterSave.value == ["words \(syncUp.id)", "background"], sourceLocation: sourceLocation)
      try $syncUps.save()
    }
  }
}
