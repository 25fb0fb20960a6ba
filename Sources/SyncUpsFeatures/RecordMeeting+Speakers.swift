import AudioCore

// Who is speaking when: each attendee's slot of meeting time, and the timeline that maps recording
// time to meeting time (next speaker and alerts make them differ), so that an utterance belongs
// to the speaker whose slot it started in.

extension RecordMeeting.State {
  /// The first whole second of each attendee's slot: slot k starts at ⌈k·D/n⌉, and at least a
  /// second after the slot before it, so that no speaker is skipped. Slots that would start
  /// at or after the end of the meeting never come.
  func slotStarts() -> [Int] {
    let count = max(syncUp.attendees.count, 1)
    var starts: [Int] = []
    for index in 0..<count {
      let even = Int(
        saturating: (syncUp.duration.seconds * Double(index) / Double(count)).rounded(.up))
      starts.append(max(even, (starts.last ?? -1) + 1))
    }
    return starts
  }

  /// The speaker whose slot contains `meetingSeconds`.
  public func slot(atMeetingSeconds meetingSeconds: Double) -> Int {
    slotStarts().lastIndex { Double($0) <= meetingSeconds } ?? 0
  }

  /// An utterance as a segment of the speaker whose slot it started in.
  func segment(_ utterance: Utterance) -> Meeting.Segment {
    let speakerIndex = speaker(atRecordingSeconds: utterance.start)
    return Meeting.Segment(
      speaker: syncUp.attendees[safe: speakerIndex]?.name ?? "Unknown",
      start: utterance.start, end: utterance.end, text: utterance.text, words: utterance.words
    )
  }

  /// The speaker of an utterance that started `recordingSeconds` into the recording.
  func speaker(atRecordingSeconds recordingSeconds: Double) -> Int {
    let anchor = timeline.anchor(at: recordingSeconds)
    let meetingSeconds =
      anchor.isPaused
      ? Double(anchor.meetingSeconds)
      : Double(anchor.meetingSeconds) + recordingSeconds - Double(anchor.recordingSeconds)
    return max(anchor.speakerIndex, slot(atMeetingSeconds: meetingSeconds))
  }
}

extension RecordMeeting {
  /// Recording time (timer ticks, which go on while the meeting is paused) and the points where
  /// meeting time stopped following it one to one (next speaker, alerts).
  public struct Timeline: Equatable, Sendable {
    public var seconds = 0
    public var anchors = [Anchor(recordingSeconds: 0, meetingSeconds: 0)]

    public init(
      seconds: Int = 0, anchors: [Anchor] = [Anchor(recordingSeconds: 0, meetingSeconds: 0)]
    ) {
      self.seconds = seconds
      self.anchors = anchors
    }

    var isPaused: Bool { anchors.last?.isPaused ?? false }

    func anchor(at recordingSeconds: Double) -> Anchor {
      anchors.last { Double($0.recordingSeconds) <= recordingSeconds } ?? anchors[0]
    }

    mutating func mark(meetingSeconds: Int, speakerIndex: Int, isPaused: Bool = false) {
      anchors.append(
        Anchor(
          recordingSeconds: seconds, meetingSeconds: meetingSeconds, speakerIndex: speakerIndex,
          isPaused: isPaused
        )
      )
    }
  }

  public struct Anchor: Equatable, Sendable {
    public var recordingSeconds: Int
    public var meetingSeconds: Int
    public var speakerIndex = 0
    public var isPaused = false

    public init(
      recordingSeconds: Int, meetingSeconds: Int, speakerIndex: Int = 0, isPaused: Bool = false
    ) {
      self.recordingSeconds = recordingSeconds
      self.meetingSeconds = meetingSeconds
      self.speakerIndex = speakerIndex
      self.isPaused = isPaused
    }
  }
}

extension Collection {
  subscript(safe index: Index) -> Element? {
    indices.contains(index) ? self[index] : nil
  }
}
