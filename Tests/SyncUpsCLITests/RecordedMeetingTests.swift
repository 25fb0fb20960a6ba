import AudioCaptureClient
import AudioCaptureClientLive
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

/// A sync-up made with `syncups add`, a meeting recorded into it by the app's own RecordMeeting
/// feature (the real decoder on the bundled stand-up, replayed), then read back with
/// `syncups meetings` and `syncups transcript`: the database holds what the app saved.
@MainActor
@Suite("syncups transcript of a recorded meeting")
struct RecordedMeetingTests {
  @Test func transcriptOfARealRecordedMeeting() async throws {
    let home = try Home()
    let added = try await home.run(
      "add", "--title", "Stand-up", "--attendee", "Ana", "--attendee", "Ben", "--attendee", "Cleo",
      "--duration", "36s"
    )
    let id = try #require(
      UUID(uuidString: added.stdout.trimmingCharacters(in: .newlines)), "\(added)")
    let date = ISO8601DateFormatter().date(from: "2026-11-21T14:05:00Z")!

    let meeting = try await recordTheStandUp(into: id, of: home, at: date)
    let expected = try String(
      // The live pass with the attendees' names as vocabulary (no audio kept: no second pass).
      contentsOf: repositoryRoot.appendingPathComponent("Samples/standup.recorded-live.txt"),
      encoding: .utf8
    ).trimmingCharacters(in: .whitespacesAndNewlines)
    #expect(meeting.transcript == expected)
    #expect(Set(meeting.segments.map(\.speaker)) == ["Ana", "Ben", "Cleo"])

    // meetings: one, numbered 1, with its segment count and first words.
    let meetings = try await home.run("meetings", "stand-up", "--json")
    #expect(meetings.status == 0, "\(meetings)")
    let list = try #require(
      try JSONSerialization.jsonObject(with: Data(meetings.stdout.utf8)) as? [[String: Any]])
    #expect(list.count == 1)
    #expect(list.first?["index"] as? Int == 1)
    #expect(list.first?["id"] as? String == meeting.id.rawValue.uuidString.lowercased())
    #expect(list.first?["segments"] as? Int == meeting.segments.count)
    #expect(
      list.first?["firstWords"] as? String == expected.split(separator: " ").prefix(8).joined(
        separator: " ") + " …")

    // txt: one line per segment, the speaker and text as saved.
    let txt = try await home.run("transcript", "Stand-up")
    #expect(txt.status == 0 && txt.stderr.isEmpty, "\(txt)")
    let lines = txt.stdout.split(separator: "\n").map(String.init)
    #expect(lines.count == meeting.segments.count)
    for (line, segment) in zip(lines, meeting.segments) {
      #expect(line.wholeMatch(of: /\[\d\d:\d\d - \d\d:\d\d\] [A-Za-z]+: .+/) != nil, "\(line)")
      #expect(line.hasSuffix("] \(segment.speaker): \(segment.text)"), "\(line)")
    }

    try await expectTheJSONTranscriptIsTheSavedMeeting(meeting, text: expected, in: home)

    // srt: one cue per segment, the speaker first.
    let srt = try await home.run("transcript", "stand-up", "--format", "srt")
    let cues = srt.stdout.components(separatedBy: "\n\n").filter { !$0.isEmpty }
    #expect(cues.count == meeting.segments.count)
    for (index, (cue, segment)) in zip(cues, meeting.segments).enumerated() {
      let cueLines = cue.split(separator: "\n", omittingEmptySubsequences: false)
      #expect(cueLines.count == 3, "\(cue)")
      #expect(cueLines.first == "\(index + 1)"[...])
      #expect(
        cueLines.dropFirst().first?.wholeMatch(
          of: /\d\d:\d\d:\d\d,\d\d\d --> \d\d:\d\d:\d\d,\d\d\d/) != nil)
      #expect(cueLines.last.map(String.init) == "\(segment.speaker): \(segment.text)")
    }
  }

  /// The bundled stand-up, replayed through the real decoder into the sync-up `id` by the
  /// app's RecordMeeting, saved as the app saves it: the meeting it made.
  func recordTheStandUp(
    into id: UUID, of home: Home, at date: Date, sourceLocation: SourceLocation = #_sourceLocation
  ) async throws -> Meeting {
    let database = try SyncUpsDatabase.open(home.dataDirectory)
    return try await withDependencies {
      $0.dataDirectory = home.dataDirectory
      $0.syncUpsDatabase = database
      $0.recordingStore = .database(database)
    } operation: {
      @Shared(.syncUps) var syncUps
      let syncUp = try #require(Shared($syncUps[id: SyncUp.ID(id)]), sourceLocation: sourceLocation)
      let store = try await recordToTheEnd(
        syncUp,
        input: .file(
          repositoryRoot.appendingPathComponent("Samples/standup.wav"), pace: .fast,
          keeping: .transcript),
        now: date
      ) {
        $0.audioFiles = .liveValue
        $0.transcription = .live()
        $0.meetingRecorder = .liveValue
      }
      #expect(store.isDismissed, sourceLocation: sourceLocation)
      try $syncUps.save()
      return try #require(syncUp.wrappedValue.meetings.first, sourceLocation: sourceLocation)
    }
  }

  /// json: exactly the saved meeting.
  func expectTheJSONTranscriptIsTheSavedMeeting(
    _ meeting: Meeting, text expected: String, in home: Home,
    sourceLocation: SourceLocation = #_sourceLocation
  ) async throws {
    let json = try await home.run("transcript", "stand-up", "--format", "json")
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any],
      sourceLocation: sourceLocation)
    #expect(object["syncUp"] as? String == "Stand-up", sourceLocation: sourceLocation)
    #expect(
      object["meeting"] as? String == meeting.id.rawValue.uuidString.lowercased(),
      sourceLocation: sourceLocation)
    #expect(object["date"] as? String == "2026-11-21T14:05:00Z", sourceLocation: sourceLocation)
    #expect(object["text"] as? String == expected, sourceLocation: sourceLocation)
    let segments = try #require(
      object["segments"] as? [[String: Any]], sourceLocation: sourceLocation)
    #expect(
      segments.map { $0["speaker"] as? String } == meeting.segments.map(\.speaker),
      sourceLocation: sourceLocation)
    #expect(
      segments.map { $0["text"] as? String } == meeting.segments.map(\.text),
      sourceLocation: sourceLocation)
    #expect(
      segments.map { $0["start"] as? Double }
        == meeting.segments.map { ($0.start * 1000).rounded() / 1000 },
      sourceLocation: sourceLocation)
    #expect(
      segments.map { $0["end"] as? Double }
        == meeting.segments.map { ($0.end * 1000).rounded() / 1000 }, sourceLocation: sourceLocation
    )
  }
}
