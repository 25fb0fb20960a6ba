import AudioCore
import VoiceProfiles

// Where a meeting is, from its start to its save, each step with what it holds: what the
// second pass gave travels with the ending and the saving, and the save goes on from one place
// (`saveIfReady`) once nothing is on its way any more.

extension RecordMeeting {
  public enum Status: Equatable, Sendable {
    /// The meeting runs without capturing audio.
    case timing
    /// The meeting runs and its input is captured.
    case recording
    /// The input ended or is being stopped: the last words and the second pass's sentences
    /// are on their way before the save.
    case ending(SecondPass)
    /// The recording is done: the meeting is saved once every utterance on its way into the
    /// recording store is kept and the sentences are told apart by voice.
    case saving(SecondPass)
    /// Saved into the sync-up's meetings, as this meeting (with its whole transcript).
    case saved(Meeting)
    /// Discarded, or never started.
    case ended
  }

  /// What the second pass gave, and so what the meeting is saved with.
  public enum SecondPass: Equatable, Sendable {
    /// No sentences (none yet, no second pass, or it failed): the live segments are saved.
    case live
    /// The input ended and the recording waits for it (a file read as fast as it decodes:
    /// nobody waits on a microphone); this share of the audio is decoded.
    case catchingUp(Double)
    /// It had not caught up when the input ended: the live segments are saved now and it runs
    /// again from the kept audio once the meeting is saved (`SentencePass`).
    case late
    /// Its sentences, attributed by slot, are being told apart by voice: the save waits.
    case tellingVoices(bySlot: [Meeting.Segment])
    /// Its sentences, attributed by voice (by slot when the voices could not tell), saved
    /// instead of the live segments, and what they taught of each attendee's voice (kept once
    /// the meeting is saved).
    case told([Meeting.Segment], learned: [Attendee.ID: VoiceProfile])
  }
}

extension RecordMeeting.State {
  /// What the second pass gave so far (`.live` before the meeting ends).
  public var secondPass: RecordMeeting.SecondPass {
    switch status {
    case .ending(let pass), .saving(let pass): pass
    case .timing, .recording, .saved, .ended: .live
    }
  }

  /// Sets what the second pass gave: its events come once the input ended, so a recording
  /// whose input ended by itself (a file) is ending from then on.
  mutating func setSecondPass(_ pass: RecordMeeting.SecondPass) {
    switch status {
    case .saving: status = .saving(pass)
    case .timing, .recording, .ending: status = .ending(pass)
    case .saved, .ended: break
    }
  }

  /// What the meeting is saved with: the second pass's sentences when there are some, else
  /// the live segments (those kept as they came, and those that could not be, in time order).
  public var savedSegments: [Meeting.Segment] {
    if case .saved(let meeting) = status { return meeting.segments }
    switch secondPass {
    case .told(let segments, _), .tellingVoices(let segments): return segments
    case .live, .catchingUp, .late:
      return unkeptSegments.isEmpty
        ? segments : (segments + unkeptSegments).sorted { $0.start < $1.start }
    }
  }

  /// Saving, and nothing is on its way any more: every utterance is kept (or could not be),
  /// and the sentences are told apart by voice.
  var isReadyToSave: Bool {
    guard case .saving(let pass) = status, pendingSegments.isEmpty else { return false }
    if case .tellingVoices = pass { return false }
    return true
  }

  /// Audio is being captured (or its last words transcribed).
  public var isRecording: Bool {
    switch status {
    case .recording, .ending: true
    case .timing, .saving, .saved, .ended: false
    }
  }

  /// The meeting is under way: its time runs, keys and alerts act on it.
  public var isRunning: Bool { status == .timing || status == .recording }

  /// Saved, discarded, or never started.
  public var isEnded: Bool {
    switch status {
    case .saved, .ended: true
    case .timing, .recording, .ending, .saving: false
    }
  }
}
