import AudioCore
import Dependencies
import Foundation
import IssueReporting
import MeetingRecorder
import VoiceProfiles
import WorkerThreads

/// Segment corrections written to the database, and voices taught by them, off the
/// cooperative pool.
public struct CorrectionsClient: Sendable {
  /// Corrects a finished meeting's segment (`number`: 1 = the first); the segment as saved.
  public var correct:
    @Sendable (_ meetingID: Meeting.ID, _ number: Int, _ change: SegmentChange) async throws
      -> Meeting.Segment = unimplemented("CorrectionsClient.correct")
  /// Puts back what the recogniser gave; the segment as saved.
  public var restore:
    @Sendable (_ meetingID: Meeting.ID, _ number: Int) async throws -> Meeting.Segment =
      unimplemented("CorrectionsClient.restore")
  /// Refines the attendee's voice profile from the meeting's audio between two times; what is
  /// now known of the voice (nil: too little speech there to learn from).
  public var teachVoice: @Sendable (_ lesson: VoiceLesson) async throws -> VoiceSummary? =
    unimplemented("CorrectionsClient.teachVoice")

  public init(
    correct:
      @escaping @Sendable (_ meetingID: Meeting.ID, _ number: Int, _ change: SegmentChange)
      async throws -> Meeting.Segment,
    restore:
      @escaping @Sendable (_ meetingID: Meeting.ID, _ number: Int) async throws -> Meeting.Segment,
    teachVoice: @escaping @Sendable (_ lesson: VoiceLesson) async throws -> VoiceSummary?
  ) {
    self.correct = correct
    self.restore = restore
    self.teachVoice = teachVoice
  }

  /// Every endpoint unimplemented: calling one reports an issue (and throws, or returns a
  /// placeholder). The test value.
  public init() {}
}

/// Speech a person said is an attendee's: a stretch of a meeting's kept audio.
public struct VoiceLesson: Equatable, Sendable {
  public var attendeeID: Attendee.ID
  public var syncUpID: SyncUp.ID
  /// The meeting's audio, relative to the data directory.
  public var audioFile: String
  public var start: Double
  public var end: Double

  public init(
    attendeeID: Attendee.ID, syncUpID: SyncUp.ID, audioFile: String, start: Double, end: Double
  ) {
    self.attendeeID = attendeeID
    self.syncUpID = syncUpID
    self.audioFile = audioFile
    self.start = start
    self.end = end
  }
}

extension CorrectionsClient: DependencyKey {
  public static var liveValue: CorrectionsClient {
    @Dependency(\.syncUpsDatabase) var database
    @Dependency(\.dataDirectory) var directory
    @Dependency(\.meetingRecorder) var recorder
    return live(database, directory: directory, recorder: recorder)
  }

  public static func live(
    _ database: SyncUpsDatabase, directory: DataDirectory, recorder: MeetingRecorder
  ) -> CorrectionsClient {
    CorrectionsClient(
      correct: { meetingID, number, change in
        try await WorkerThread.run(name: "syncups.correct") {
          try database.correctSegment(meetingID, number: number, change)
        }
      },
      restore: { meetingID, number in
        try await WorkerThread.run(name: "syncups.correct") {
          try database.restoreRecognition(meetingID, number: number)
        }
      },
      teachVoice: { lesson in
        let url = directory.url.appendingPathComponent(lesson.audioFile)
        let voice = try await recorder.voice(url, lesson.start, lesson.end)
        // The whole meeting: the room its frames are warped over.
        let meeting = try await recorder.voice(url, 0, Double(Int32.max))
        return try await WorkerThread.run(name: "syncups.voices") {
          let known = try database.voiceProfiles(lesson.syncUpID)[lesson.attendeeID]
          guard let taught = VoiceProfile.taught(known, by: voice, in: meeting) else {
            return nil
          }
          try database.learnVoices([lesson.attendeeID: taught])
          return VoiceSummary(meetings: taught.meetings, seconds: taught.seconds)
        }
      }
    )
  }

  public static let testValue = CorrectionsClient()
}

extension DependencyValues {
  public var corrections: CorrectionsClient {
    get { self[CorrectionsClient.self] }
    set { self[CorrectionsClient.self] = newValue }
  }
}
