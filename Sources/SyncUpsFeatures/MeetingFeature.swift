import Architecture
import Foundation

/// Shows a past meeting: its date, the attendees and the transcript by speaker.
public struct MeetingFeature: Reducer {
  public struct State: Equatable, Sendable {
    public let meeting: Meeting
    public let syncUp: SyncUp

    public init(meeting: Meeting, syncUp: SyncUp) {
      self.meeting = meeting
      self.syncUp = syncUp
    }

    /// Consecutive segments of one speaker, merged into one turn.
    public var turns: [Turn] {
      var turns: [Turn] = []
      for segment in meeting.segments {
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
