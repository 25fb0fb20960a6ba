import AudioCore
import SyncUpsFeatures

/// Steps of a recording the `RecordMeeting` tests share; failures point at the caller's line.
extension TestStore where State == RecordMeeting.State, Action == RecordMeeting.Action {
  /// "End meeting" tapped at `meetingSeconds` of the meeting (`recordingSeconds` of recording),
  /// then "Discard" in the alert: the meeting ends unsaved.
  func endAndDiscard(
    recordingSeconds: Int = 0, meetingSeconds: Int = 0,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath,
    line: UInt = #line, column: UInt = #column
  ) async {
    await send(
      .endMeetingButtonTapped,
      assert: {
        $0.alert = .endMeeting(isDiscardable: true)
        $0.timeline.anchors.append(
          .init(
            recordingSeconds: recordingSeconds, meetingSeconds: meetingSeconds, isPaused: true))
      }, fileID: fileID, filePath: filePath, line: line, column: column)
    await send(
      .alert(.presented(.confirmDiscard)),
      assert: {
        $0.alert = nil
        $0.status = .ended
      }, fileID: fileID, filePath: filePath, line: line, column: column)
  }

  /// The recorder hears `utterance` (nothing else pending): it becomes `segment`, shown once the
  /// recording store has it. Returns the segment.
  @discardableResult
  func hears(
    _ utterance: Utterance, from recorder: ScriptedRecorder, as segment: Meeting.Segment,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath,
    line: UInt = #line, column: UInt = #column
  ) async -> Meeting.Segment {
    recorder.send(.utterance(utterance))
    await receive(
      \.recorder?.utterance, assert: { $0.pendingSegments = [.init(segment)] }, fileID: fileID,
      filePath: filePath, line: line, column: column)
    await receive(
      \.segmentKept,
      assert: {
        $0.pendingSegments = []
        $0.segments.append(segment)
      }, fileID: fileID, filePath: filePath, line: line, column: column)
    return segment
  }
}
