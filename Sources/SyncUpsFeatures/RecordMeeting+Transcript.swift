import Architecture
import AudioCore

// What is shown and saved of what is heard: each final utterance is written to the recording
// store and shown once it is kept, in the order heard; one the store could not keep is never
// shown as kept, and is saved with the meeting.

extension RecordMeeting {
  /// A final utterance being written to the recording store.
  public struct PendingSegment: Equatable, Sendable {
    public var segment: Meeting.Segment
    /// The store is done with it: it kept it, or (`failed`) could not.
    public var isKept = false
    public var failed = false

    public init(_ segment: Meeting.Segment, isKept: Bool = false, failed: Bool = false) {
      self.segment = segment
      self.isKept = isKept
      self.failed = failed
    }
  }

  /// A final utterance, attributed to the speaker whose slot it started in, goes to the
  /// recording store; it is shown (`segmentKept`) only once the store has it, so what the
  /// user saw survives a crash.
  func heard(_ utterance: Utterance, _ state: inout State) -> Effect<Action> {
    state.partial = ""
    let segment = state.segment(utterance)
    state.pendingSegments.append(PendingSegment(segment))
    return .run { [recordingStore, id = state.meetingID] send in
      do {
        try await recordingStore.append(segment, id)
        await send(.segmentKept(segment))
      } catch {
        await send(
          .storeFailed(
            "cannot keep what is heard safe from a crash (\(error)); it is not shown, and is "
              + "saved with the meeting if there is room then",
            segment))
      }
    }
  }

  /// A pending segment is in the store (or could not be): it is shown once those before it
  /// are (one that could not be kept never is); the last one lets a waiting save go on.
  func kept(
    _ segment: Meeting.Segment, failed: Bool = false, _ state: inout State
  ) -> Effect<Action> {
    if let index = state.pendingSegments.firstIndex(where: { $0.segment == segment && !$0.isKept })
    {
      state.pendingSegments[index].isKept = true
      state.pendingSegments[index].failed = failed
    }
    while let first = state.pendingSegments.first, first.isKept {
      if first.failed {
        state.unkeptSegments.append(first.segment)
      } else {
        state.segments.append(first.segment)
      }
      state.pendingSegments.removeFirst()
    }
    return saveIfReady(&state)
  }
}
