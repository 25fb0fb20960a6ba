import Architecture
import Foundation

/// Shows a past meeting: its date, the attendees and the transcript by speaker. The list holds
/// meetings as summaries; the transcript is read from the database when the meeting is shown
/// (`.meetingTranscript(id)`), and follows it if it changes.
public struct MeetingFeature: Reducer {
  public struct State: Equatable, Sendable {
    public let meeting: Meeting
    public let syncUp: SyncUp
    /// The meeting with its segments; nil when it is not in the database (deleted meanwhile).
    @SharedReader public var transcript: Meeting?

    public init(meeting: Meeting, syncUp: SyncUp) {
      self.meeting = meeting
      self.syncUp = syncUp
      self._transcript = SharedReader(.meetingTranscript(meeting.id))
    }

    /// The segments shown: the database's, or the meeting's own when it is not there.
    public var segments: [Meeting.Segment] { transcript?.segments ?? meeting.segments }
    /// The whole transcript as text (older meetings may have text without segments).
    public var text: String { transcript?.transcript ?? meeting.transcript }

    /// Consecutive segments of one speaker, merged into one turn.
    public var turns: [Turn] {
      var turns: [Turn] = []
      for segment in segments {
        if let last = turns.last, last.speaker == segment.speaker {
          turns[turns.count - 1].end = segment.end
          turns[turns.count - 1].text += " " + segment.text
        } else {
          turns.append(
            Turn(
              speaker: segment.speaker, start: segment.start, end: segment.end, text: segment.text)
          )
        }
      }
      return turns
    }
  }

  public struct Turn: Equatable, Sendable {
    public var speaker: String
    public var start: Double
    public var end: Double
    public var text: String
  }

  public enum Action: Equatable, Sendable {}

  public init() {}

  public func reduce(into state: inout State, action: Action) -> Effect<Action> {}
}
