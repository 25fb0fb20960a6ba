import Architecture
import AudioCore
import MeetingRecorder

// What the meeting recorder says (levels, seconds, words, the audio, the second pass, the end),
// applied to the meeting: the recorder does the plumbing, the rules for each event are here.

extension RecordMeeting {
  /// What the recorder says, applied: the meeting clock follows the audio when it should, words
  /// become segments of the speaker whose slot they started in, problems are said in one line,
  /// and the end of the recording saves the meeting.
  func apply(_ event: RecordingEvent, _ state: inout State) -> Effect<Action> {
    switch event {
    case .levels(let levels):
      state.levels = levels
      return .none

    case .recorded:
      return state.input.followsAudioTime ? tick(&state) : .none

    case .partial(let text):
      state.partial = text
      return .none

    case .utterance(let utterance):
      return heard(utterance, &state)

    case .audioDropped(let reason):
      state.recording?.audioFile = nil
      state.notice = "cannot keep the meeting's audio: \(reason); the meeting goes on without it"
      return .none

    case .sentences(let utterances):
      return heardSentences(utterances, &state)

    case .sentencesProgress(let fraction):
      state.setSecondPass(.catchingUp(fraction))
      return .none

    case .sentencesLate:
      state.setSecondPass(.late)
      state.notice =
        "the whole sentences are not ready yet; the live transcript is saved now and replaced "
        + "by them in the background"
      return .none

    case .sentencesFailed(let reason):
      state.setSecondPass(.live)
      state.notice = "the whole-sentence pass \(reason); the live transcript is saved instead"
      return .none

    case .inputUnavailable(let reason):
      // No microphone: the default one means "continue without recording", a named one fails.
      guard case .microphone(nil, _) = state.input else { return fail(reason, &state) }
      state.status = .timing
      state.recording?.audioFile = nil
      state.notice = "\(reason); the meeting is timed without recording or transcription"
      return .none

    case .startFailed(let reason):
      return fail("cannot start the meeting: \(reason)", &state)

    case .failed(let message, let keptAudio):
      state.partial = ""
      if !keptAudio { state.recording?.audioFile = nil }
      if case .mix = state.input {
        // Part of a remote stand-up is no longer heard: the meeting ends, keeping what was.
        state.failure = "\(message); the meeting was saved with what was heard until then"
        return save(&state)
      }
      guard state.status == .recording else { return save(&state) }
      state.status = .timing
      state.notice = "\(message); the meeting goes on without recording"
      // The meeting goes on while the user reads this; without audio, an audio-timed meeting
      // goes on by the wall clock.
      state.alert = .recordingFailed(message)
      return state.input.followsAudioTime ? timer() : .none

    case .finished(let keptAudio):
      state.partial = ""
      if !keptAudio { state.recording?.audioFile = nil }
      // The input ended by itself (a file used as the microphone), or the meeting is over.
      return save(&state)
    }
  }
}
