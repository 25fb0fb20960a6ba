import Foundation
import MeetingRecorder

// What a meeting is recorded from and what is kept of it, and how that becomes a request to the
// meeting recorder.

extension RecordMeeting {
  /// What a meeting is recorded from.
  public enum Input: Equatable, Sendable {
    /// No microphone: the meeting is timed, nothing is recorded ("continue without recording").
    case none
    /// A PulseAudio source (nil: the server's default). Without a server, the default source
    /// means "continue without recording"; a named one is an error.
    case microphone(String?, keeping: Keep = .all)
    /// Several PulseAudio sources at once, mixed into one meeting (a remote stand-up: the
    /// microphone and the monitor of the output the call plays through). Each must exist, and
    /// one that goes away ends the meeting, saved with what was heard, as a failure.
    case mix([String], keeping: Keep = .all)
    /// An audio file used as the microphone, in real time or as fast as it decodes (the meeting
    /// clock then follows the audio's time).
    case file(URL, pace: Pace, keeping: Keep = .all)

    public var keeps: Keep {
      switch self {
      case .none: []
      case .microphone(_, let keeping), .mix(_, let keeping), .file(_, _, let keeping): keeping
      }
    }

    /// The meeting clock follows the audio's time instead of the wall clock.
    public var followsAudioTime: Bool {
      if case .file(_, .fast, _) = self { return true }
      return false
    }

    /// What the recorder listens to (nil: nothing, the meeting is only timed).
    var recordingInput: RecordingInput? {
      switch self {
      case .none: nil
      case .microphone(let source, _): .microphone(source)
      case .mix(let sources, _): .mix(sources)
      case .file(let url, let pace, _): .file(url, pace: pace)
      }
    }
  }

  public typealias Pace = RecordingPace

  /// What is kept of the input.
  public struct Keep: OptionSet, Equatable, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    public static let transcript = Keep(rawValue: 1)
    public static let audio = Keep(rawValue: 2)
    public static let all: Keep = [.transcript, .audio]
  }
}

extension RecordMeeting.State {
  /// What the meeting recorder is asked to do for this meeting: listen to its input, keep its
  /// audio under `audioFolder` (the data directory), transcribe with the sync-up's words (and
  /// its own language model when it has one), and (when the meeting clock
  /// follows the audio) stop at the end of the meeting's time and wait for the whole sentences
  /// (nobody waits on a microphone). Nil when nothing is recorded.
  func recordingRequest(audioFolder: URL) -> RecordingRequest? {
    input.recordingInput.map {
      RecordingRequest(
        id: meetingID.rawValue, input: $0,
        transcribes: input.keeps.contains(.transcript),
        audioFile: recording?.audioFile.map { audioFolder.appendingPathComponent($0) },
        vocabulary: syncUp.transcriptionVocabulary,
        teamModel: learning.contains(.words)
          ? audioFolder.appendingPathComponent(DataDirectory.teamWordsFile(of: syncUp.id)) : nil,
        endsAt: input.followsAudioTime ? syncUp.duration.seconds : nil,
        waitsForSentences: input.followsAudioTime
      )
    }
  }
}
