import Architecture

// The questions a meeting asks: end it early (save, discard or resume), and what to do when the
// recording fails mid-meeting.

extension AlertState where Action == RecordMeeting.Action.Alert {
  public static func endMeeting(isDiscardable: Bool) -> Self {
    Self {
      TextState("End meeting?")
    } actions: {
      ButtonState(action: .confirmSave) { TextState("Save and end") }
      if isDiscardable {
        ButtonState(role: .destructive, action: .confirmDiscard) { TextState("Discard") }
      }
      ButtonState(role: .cancel) { TextState("Resume") }
    } message: {
      TextState("You are ending the meeting early. What would you like to do?")
    }
  }

  public static func recordingFailed(_ message: String) -> Self {
    Self {
      TextState("Recording failed")
    } actions: {
      ButtonState(role: .cancel, action: .continueMeeting) { TextState("Continue meeting") }
      ButtonState(role: .destructive, action: .confirmDiscard) { TextState("Discard meeting") }
    } message: {
      TextState(
        "\(message) The transcript so far is kept. Continue the meeting without recording, "
          + "or discard it."
      )
    }
  }
}
