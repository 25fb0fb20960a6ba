import Architecture
import Foundation

/// Shows a past meeting: its date, the attendees and the transcript by speaker. The list holds
/// meetings as summaries; the transcript is read from the database when the meeting is shown
/// (`.meetingTranscript(id)`), and follows it if it changes.
public struct MeetingFeature: Reducer {
  public struct State: Equatable, Sendable {
    public let meeting: Meeting
    public let syncUp: SyncUp
    /// The segment (an index into the meeting's segments) a search found: shown as a turn of
    /// its own, marked.
    public var highlightedSegment: Int?
    /// The meeting with its segments; nil when it is not in the database (deleted meanwhile).
    @SharedReader public var transcript: Meeting?
    /// The segment picked for a correction (shown as a turn of its own, marked).
    public var selectedSegment: Int?
    /// The correction being written.
    @Presents public var correction: CorrectSegment.State?

    public init(meeting: Meeting, syncUp: SyncUp, highlightedSegment: Int? = nil) {
      self.meeting = meeting
      self.syncUp = syncUp
      self.highlightedSegment = highlightedSegment
      self._transcript = SharedReader(.meetingTranscript(meeting.id))
    }

    /// The segments shown: the database's, or the meeting's own when it is not there.
    public var segments: [Meeting.Segment] { transcript?.segments ?? meeting.segments }
    /// The whole transcript as text (older meetings may have text without segments).
    public var text: String { transcript?.transcript ?? meeting.transcript }

    /// Consecutive segments of one speaker, merged into one turn (never the highlighted one).
    public var turns: [Turn] {
      var turns: [Turn] = []
      for (index, segment) in segments.enumerated() {
        let isHighlighted = index == (selectedSegment ?? highlightedSegment)
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

  public enum Action: Equatable, Sendable {
    case correction(PresentationAction<CorrectSegment.Action>)
    /// Correct the selected segment.
    case correctTapped
    /// Picks a segment to correct (nil: none), moving by `by` from the one picked.
    case segmentSelectionMoved(by: Int)
    case segmentSelectionEnded
  }

  public init() {}

  public var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .correction(.presented(.delegate(.finished))):
        state.correction = nil
        return .none

      case .correction:
        return .none

      case .correctTapped:
        guard let index = state.selectedSegment, state.segments.indices.contains(index) else {
          return .none
        }
        state.correction = CorrectSegment.State(
          syncUp: state.syncUp, meeting: state.transcript ?? state.meeting, number: index + 1,
          segment: state.segments[index])
        return .none

      case .segmentSelectionMoved(let offset):
        guard !state.segments.isEmpty else { return .none }
        let current = state.selectedSegment ?? state.highlightedSegment ?? 0
        let moved = state.selectedSegment == nil ? current : current + offset
        state.selectedSegment = min(max(moved, 0), state.segments.count - 1)
        return .none

      case .segmentSelectionEnded:
        state.selectedSegment = nil
        return .none
      }
    }
    .ifLet(\.$correction, action: \.correction) { CorrectSegment() }
  }
}

// The cases reached by key path (see `Scope`): scoped, presented, stacked or received in tests.
extension MeetingFeature.Action {
  public var correction: PresentationAction<CorrectSegment.Action>? {
    get { if case .correction(let value) = self { value } else { nil } }
    set { if let newValue { self = .correction(newValue) } }
  }
}
