import Architecture
import AudioCore
import MeetingRecorder

// The cases reached by key path (see `Scope`): scoped, presented, stacked or received in tests.
extension RecordMeeting.Action {
  public var alert: PresentationAction<Alert>? {
    get { if case .alert(let value) = self { value } else { nil } }
    set { if let newValue { self = .alert(newValue) } }
  }

  public var recorder: RecordingEvent? {
    get { if case .recorder(let value) = self { value } else { nil } }
    set { if let newValue { self = .recorder(newValue) } }
  }

  public var segmentKept: Meeting.Segment? {
    get { if case .segmentKept(let value) = self { value } else { nil } }
    set { if let newValue { self = .segmentKept(newValue) } }
  }

  public var storeFailed: (String, Meeting.Segment)? {
    get { if case .storeFailed(let reason, let segment) = self { (reason, segment) } else { nil } }
    set { if let newValue { self = .storeFailed(newValue.0, newValue.1) } }
  }

  public var timerTick: Void? {
    get { if case .timerTick = self { () } else { nil } }
    set { if newValue != nil { self = .timerTick } }
  }
}
