import AudioCore
import Dependencies
import Foundation
import IssueReporting

/// Records one meeting: captures its input, keeps its audio, transcribes it as it comes (the live
/// pass) and again in whole sentences (the second pass), and says what happens as a stream of
/// events. The live value (module `MeetingRecorderLive`) composes the audio capture, audio files
/// and transcription clients; what is shown and saved is the feature's business, not this one's.
public struct MeetingRecorder: Sendable {
  /// Starts recording. The stream ends after `.finished`, `.failed`, `.inputUnavailable` or
  /// `.startFailed`. Ending it early (cancelling its consumer) stops everything at once and
  /// deletes the audio kept so far: the meeting was discarded.
  public var record: @Sendable (_ request: RecordingRequest) async -> AsyncStream<RecordingEvent> =
    unimplemented("MeetingRecorder.record", placeholder: AsyncStream { $0.finish() })
  /// Ends the input of the recording `id` (also before it has started): the last words are
  /// transcribed, the second pass drains, the audio file is closed, then `.finished` comes.
  public var stop: @Sendable (_ id: UUID) async -> Void = unimplemented("MeetingRecorder.stop")
  /// The second pass again, over a meeting's kept audio (after `.sentencesLate`): its whole
  /// sentences, in seconds from the start of the file, with the sync-up's words and its own
  /// language model (nil: none).
  public var sentences:
    @Sendable (_ audioFile: URL, _ vocabulary: [String], _ teamModel: URL?) async throws ->
      [Utterance] =
      unimplemented("MeetingRecorder.sentences")
  /// The voice features of a kept meeting's audio between two times (seconds from its start),
  /// as the second pass hands them over with each sentence: what a corrected speaker teaches.
  public var voice:
    @Sendable (_ audioFile: URL, _ from: Double, _ to: Double) async throws -> VoiceFrames =
      unimplemented("MeetingRecorder.voice")

  public init(
    record: @escaping @Sendable (_ request: RecordingRequest) async -> AsyncStream<RecordingEvent>,
    stop: @escaping @Sendable (_ id: UUID) async -> Void,
    sentences:
      @escaping @Sendable (_ audioFile: URL, _ vocabulary: [String], _ teamModel: URL?) async throws
      -> [Utterance],
    voice:
      @escaping @Sendable (_ audioFile: URL, _ from: Double, _ to: Double) async throws ->
      VoiceFrames
  ) {
    self.record = record
    self.stop = stop
    self.sentences = sentences
    self.voice = voice
  }

  /// Every endpoint unimplemented: calling one reports an issue (and throws, or returns a
  /// placeholder). The test value.
  public init() {}
}

/// What to record and what to keep of it.
public struct RecordingRequest: Equatable, Sendable {
  /// Names the recording for `stop`.
  public var id: UUID
  public var input: RecordingInput
  /// Run the live pass (and, when the audio is kept, the second pass).
  public var transcribes: Bool
  /// Where the meeting's audio is kept (FLAC), written as it comes; nil: not kept.
  public var audioFile: URL?
  /// Words and phrases both passes expect: attendees' names, then the team's words.
  public var vocabulary: [String]
  /// The sync-up's own language model (`TeamWords`); nil or a missing file: none.
  public var teamModel: URL?
  /// Seconds of audio after which the input ends (a meeting whose clock follows the audio ends
  /// there); nil: until stopped or the input ends.
  public var endsAt: Double?
  /// Nobody waits on a microphone (a file read as fast as it decodes): once the input ended,
  /// the second pass runs to its end, saying how far it is (`.sentencesProgress`), instead of
  /// being stopped after `catchUpBound`.
  public var waitsForSentences: Bool

  public init(
    id: UUID, input: RecordingInput, transcribes: Bool = true, audioFile: URL? = nil,
    vocabulary: [String] = [], teamModel: URL? = nil, endsAt: Double? = nil,
    waitsForSentences: Bool = false
  ) {
    self.id = id
    self.input = input
    self.transcribes = transcribes
    self.audioFile = audioFile
    self.vocabulary = vocabulary
    self.teamModel = teamModel
    self.endsAt = endsAt
    self.waitsForSentences = waitsForSentences
  }
}

/// Where the audio comes from.
public enum RecordingInput: Equatable, Sendable {
  /// A PulseAudio source (nil: the server's default).
  case microphone(String?)
  /// Several PulseAudio sources recorded at once and mixed into one stream (the microphone and
  /// the monitor of the output a call plays through). Each must exist; if one goes away, the
  /// recording ends with what was heard (`.failed`).
  case mix([String])
  /// An audio file used as the microphone.
  case file(URL, pace: RecordingPace)
}

/// How a file used as the microphone is read.
public enum RecordingPace: Equatable, Sendable {
  /// As a microphone would give it.
  case realTime
  /// As fast as the decoder takes it.
  case fast
}

/// How loud one source of the input is, for a level meter.
public struct AudioLevel: Equatable, Sendable {
  /// The source's name (a PulseAudio source, or the file's name).
  public var source: String
  /// 0…1: the last chunk's loudness on a −60…0 dBFS scale.
  public var loudness: Double
  /// Seconds of audio since anything louder than a whisper was heard (since the start if never).
  public var silentFor: Double

  public init(source: String, loudness: Double, silentFor: Double) {
    self.source = source
    self.loudness = loudness
    self.silentFor = silentFor
  }
}

/// What happens to a recording, in order.
public enum RecordingEvent: Equatable, Sendable {
  /// The input could not be opened (no PulseAudio server, no such source, an unreadable file),
  /// in one line: nothing was recorded.
  case inputUnavailable(String)
  /// The recording could not start for another reason (no speech model), in one line.
  case startFailed(String)
  /// Each source's level (in the input's order), for each chunk.
  case levels([AudioLevel])
  /// Another whole second of audio was recorded: sent before what was said in it.
  case recorded(seconds: Int)
  /// The live pass's guess at what is being said.
  case partial(String)
  /// The live pass's result for a finished utterance.
  case utterance(Utterance)
  /// The audio could not be written (why, in words): the file is deleted and the recording goes
  /// on without it, and without the second pass.
  case audioDropped(String)
  /// The second pass's whole sentences, sent before `.finished` when it caught up.
  case sentences([Utterance])
  /// How far the second pass is (0…1 of the audio) while the recording waits for it after its
  /// input ended (`waitsForSentences`).
  case sentencesProgress(Double)
  /// The second pass had not caught up when the input ended (within `catchUpBound`): it is
  /// stopped so the meeting ends at once, and is to be run again from the kept audio.
  case sentencesLate
  /// The second pass failed (why, in words).
  case sentencesFailed(String)
  /// The input broke (why, in one line); what was heard before is transcribed and kept.
  case failed(String, keptAudio: Bool)
  /// The input ended or was stopped, and everything heard is transcribed; `keptAudio`: the
  /// audio file is complete.
  case finished(keptAudio: Bool)
}

// The cases reached by key path (see `Scope`): scoped, presented, stacked or received in tests.
extension RecordingEvent {
  public var inputUnavailable: String? {
    get { if case .inputUnavailable(let value) = self { value } else { nil } }
    set { if let newValue { self = .inputUnavailable(newValue) } }
  }

  public var levels: [AudioLevel]? {
    get { if case .levels(let value) = self { value } else { nil } }
    set { if let newValue { self = .levels(newValue) } }
  }

  public var recorded: Int? {
    get { if case .recorded(let value) = self { value } else { nil } }
    set { if let newValue { self = .recorded(seconds: newValue) } }
  }

  public var partial: String? {
    get { if case .partial(let value) = self { value } else { nil } }
    set { if let newValue { self = .partial(newValue) } }
  }

  public var utterance: Utterance? {
    get { if case .utterance(let value) = self { value } else { nil } }
    set { if let newValue { self = .utterance(newValue) } }
  }

  public var audioDropped: String? {
    get { if case .audioDropped(let value) = self { value } else { nil } }
    set { if let newValue { self = .audioDropped(newValue) } }
  }

  public var sentences: [Utterance]? {
    get { if case .sentences(let value) = self { value } else { nil } }
    set { if let newValue { self = .sentences(newValue) } }
  }

  public var sentencesProgress: Double? {
    get { if case .sentencesProgress(let value) = self { value } else { nil } }
    set { if let newValue { self = .sentencesProgress(newValue) } }
  }

  public var sentencesLate: Void? {
    get { if case .sentencesLate = self { () } else { nil } }
    set { if newValue != nil { self = .sentencesLate } }
  }

  public var sentencesFailed: String? {
    get { if case .sentencesFailed(let value) = self { value } else { nil } }
    set { if let newValue { self = .sentencesFailed(newValue) } }
  }

  public var failed: (String, keptAudio: Bool)? {
    get { if case .failed(let reason, let keptAudio) = self { (reason, keptAudio) } else { nil } }
    set { if let newValue { self = .failed(newValue.0, keptAudio: newValue.keptAudio) } }
  }

  public var finished: Bool? {
    get { if case .finished(let value) = self { value } else { nil } }
    set { if let newValue { self = .finished(keptAudio: newValue) } }
  }
}

extension MeetingRecorder: TestDependencyKey {
  public static let testValue = MeetingRecorder()
}

extension DependencyValues {
  public var meetingRecorder: MeetingRecorder {
    get { self[MeetingRecorder.self] }
    set { self[MeetingRecorder.self] = newValue }
  }
}
