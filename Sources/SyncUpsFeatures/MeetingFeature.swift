import Architecture
import Foundation

/// Shows a past meeting: its date, the attendees and the transcript by speaker.
public struct MeetingFeature: Reducer {
  public struct State: Equatable, Sendable {
    public let meeting: Meeting
    public let syncUp: SyncUp
    /// The segment (an index into the meeting's segments) a search found: shown as a turn of
    /// its own, marked.
    public var highlightedSegment: Int?

    public init(meeting: Meeting, syncUp: SyncUp, highlightedSegment: Int? = nil) {
      self.meeting = meeting
      self.syncUp = syncUp
      self.highlightedSegment = highlightedSegment
    }

    /// Consecutive segments of one speaker, merged into one turn (never the highlighted one).
    public var turns: [Turn] {
      var turns: [Turn] = []
      for (index, segment) in meeting.segments.enumerated() {
        let isHighlighted = index == highlightedSegment
        if let last = turns.last, last.speaker == segment.speaker, !last.isHighlighted,
          !isHighlighted
        {
          turns[turns.count - 1].end = segment.end
          turns[turns.count - 1].text += " " + segment.text
        } else {
          turns.append(
            Turn(
              speaker: segment.speaker, start: segment.start, end: segment.end, text: segment.text,
              isHighlighted: isHighlighted)
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
    public var isHighlighted = false
  }

  public enum Action: Equatable, Sendable {}

  public init() {}

  public func reduce(into state: inout State, action: Action) -> Effect<Action> {}
}
