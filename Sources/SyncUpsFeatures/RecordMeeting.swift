import Architecture
import AudioCaptureClient
import AudioCore
import AudioFilesClient
import Foundation
import Tagged
import TranscriptionClient
import WorkerThreads

/// Records one meeting of a sync-up: times each attendee's slot, listens to its input,
/// transcribes, keeps the audio, writes every utterance to the recording store as it is heard,
/// and saves the meeting into the sync-up's shared reference (derived from the list, which
/// persists it). Front ends only send actions: keys, "end and save" on Ctrl-C, SIGTERM or `q`.
public struct RecordMeeting: Reducer {
  public struct State: Equatable, Sendable {
    @Presents public var alert: AlertState<Action.Alert>?
    /// The meeting's id, from the start: its audio and its durable record are named by it.
    public let meetingID: Meeting.ID
    /// What the meeting is recorded from.
    public let input: Input
    @Shared public var syncUp: SyncUp
    /// Meeting time in seconds; "Next speaker" jumps it to the start of the next slot.
    public var secondsElapsed = 0
    public var speakerIndex = 0
    /// The final transcript so far, one segment per utterance.
    public var segments: [Meeting.Segment] = []
    /// What the current speaker is saying, not final yet.
    public var partial = ""
    public var status = Status.timing
    /// The meeting as it is kept while it runs (set when it starts).
    public var recording: MeetingRecording?
    /// The last problem the user should know about, in one line (the meeting went on).
    public var notice: String?
    /// Why the meeting could not be recorded or saved, in one line (it ended).
    public var failure: String?
    /// Recording time against meeting time, to attribute utterances to slots.
    public var timeline = Timeline()

    public init(meetingID: Meeting.ID, syncUp: Shared<SyncUp>, input: Input) {
      self.meetingID = meetingID
      self._syncUp = syncUp
      self.input = input
    }

    public var durationRemaining: Duration {
      syncUp.duration - .seconds(secondsElapsed)
    }

    /// Audio is being captured (or its last words transcribed).
    public var isRecording: Bool { status == .recording || status == .ending }

    /// The first whole second of each attendee's slot: slot k starts at ⌈k·D/n⌉, and at least a
    /// second after the slot before it, so that no speaker is skipped. Slots that would start
    /// at or after the end of the meeting never come.
    func slotStarts() -> [Int] {
      let count = max(syncUp.attendees.count, 1)
      var starts: [Int] = []
      for index in 0..<count {
        let even = Int((syncUp.duration.seconds * Double(index) / Double(count)).rounded(.up))
        starts.append(max(even, (starts.last ?? -1) + 1))
      }
      return starts
    }

    /// The speaker whose slot contains `meetingSeconds`.
    public func slot(atMeetingSeconds meetingSeconds: Double) -> Int {
      slotStarts().lastIndex { Double($0) <= meetingSeconds } ?? 0
    }

    func slotStart(_ index: Int) -> Int { slotStarts()[index] }

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

  /// What a meeting is recorded from.
  public enum Input: Equatable, Sendable {
    /// No microphone: the meeting is timed, nothing is recorded ("continue without recording").
    case none
    /// A PulseAudio source (nil: the server's default). Without a server, the default source
    /// means "continue without recording"; a named one is an error.
    case microphone(String?, keeping: Keep = .all)
    /// An audio file used as the microphone, in real time or as fast as it decodes (the meeting
    /// clock then follows the audio's time).
    case file(URL, pace: Pace, keeping: Keep = .all)

    public var keeps: Keep {
      switch self {
      case .none: []
      case .microphone(_, let keeping), .file(_, _, let keeping): keeping
      }
    }

    /// The meeting clock follows the audio's time instead of the wall clock.
    public var followsAudioTime: Bool {
      if case .file(_, .fast, _) = self { return true }
      return false
    }
  }

  /// What is kept of the input.
  public struct Keep: OptionSet, Equatable, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    public static let transcript = Keep(rawValue: 1)
    public static let audio = Keep(rawValue: 2)
    public static let all: Keep = [.transcript, .audio]
  }

  public enum Pace: Equatable, Sendable {
    case realTime
    case fast
  }

  public enum Status: Equatable, Sendable {
    /// The meeting runs without capturing audio.
    case timing
    /// The meeting runs and its input is captured.
    case recording
    /// The meeting is over: the last words are being transcribed before it is saved.
    case ending
    /// Saved, discarded, or never started.
    case ended
  }

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

  @CasePathable
  public enum Action: Equatable, Sendable {
    case alert(PresentationAction<Alert>)
    /// Keeping the audio failed; the meeting goes on without it.
    case audioFailed(String)
    /// No microphone: the meeting is timed without recording.
    case captureUnavailable(String)
    /// Ctrl-C, SIGTERM or `q`: end the meeting and save it.
    case endAndSaveRequested
    case endMeetingButtonTapped
    case nextButtonTapped
    case onTask
    /// The input broke mid-meeting; what was heard is kept.
    case recordingFailed(String, keptAudio: Bool)
    /// The input ended (or was stopped) and the last words are transcribed.
    case recordingFinished(keptAudio: Bool)
    case saveFailed(String)
    case speechResult(TranscriptionEvent)
    /// The meeting could not start recording; it ends without saving.
    case startFailed(String)
    /// An utterance could not be kept safe from a crash.
    case storeFailed(String)
    case timerTick

    @CasePathable
    public enum Alert: Equatable, Sendable {
      case confirmDiscard
      case confirmSave
      case continueMeeting
    }
  }

  enum CancelID {
    case capture
    case recording
    case timer
  }

  @Dependency(\.audioCapture) var audioCapture
  @Dependency(\.audioFiles) var audioFiles
  @Dependency(\.continuousClock) var clock
  @Dependency(\.dataDirectory) var dataDirectory
  @Dependency(\.date.now) var now
  @Dependency(\.dismiss) var dismiss
  @Dependency(\.recordingStore) var recordingStore
  @Dependency(\.transcription) var transcription

  public init() {}

  public var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .alert(.presented(.confirmDiscard)):
        return discard(&state)

      case .alert(.presented(.confirmSave)):
        return finish(&state)

      case .alert(.presented(.continueMeeting)), .alert(.dismiss):
        if state.timeline.isPaused {
          state.timeline.mark(
            meetingSeconds: state.secondsElapsed, speakerIndex: state.speakerIndex
          )
        }
        return .none

      case .alert:
        return .none

      case .audioFailed(let message):
        state.recording?.audioFile = nil
        state.notice = message
        return .none

      case .captureUnavailable(let message):
        state.status = .timing
        state.recording?.audioFile = nil
        state.notice = "\(message); the meeting is timed without recording or transcription"
        return .none

      case .endAndSaveRequested:
        guard state.status == .timing || state.status == .recording else { return .none }
        return finish(&state)

      case .endMeetingButtonTapped:
        guard state.status == .timing || state.status == .recording else { return .none }
        return showAlert(.endMeeting(isDiscardable: true), &state)

      case .nextButtonTapped:
        guard state.status == .timing || state.status == .recording else { return .none }
        guard state.speakerIndex < state.syncUp.attendees.count - 1 else {
          return showAlert(.endMeeting(isDiscardable: false), &state)
        }
        state.speakerIndex += 1
        state.secondsElapsed = state.slotStart(state.speakerIndex)
        state.timeline.mark(meetingSeconds: state.secondsElapsed, speakerIndex: state.speakerIndex)
        return .none

      case .onTask:
        let keepsAudio = state.input.keeps.contains(.audio)
        let recording = MeetingRecording(
          meetingID: state.meetingID, syncUpID: state.syncUp.id, started: now,
          audioFile: keepsAudio ? DataDirectory.audioFile(of: state.meetingID) : nil
        )
        state.recording = recording
        guard state.input != .none else {
          return .merge(timer(), begin(recording))
        }
        state.status = .recording
        return state.input.followsAudioTime ? record(state) : .merge(timer(), record(state))

      case .recordingFailed(let message, let keptAudio):
        state.partial = ""
        if !keptAudio { state.recording?.audioFile = nil }
        guard state.status == .recording else { return save(&state) }
        state.status = .timing
        state.notice = "\(message); the meeting goes on without recording"
        // The meeting goes on while the user reads this; without audio, an audio-timed meeting
        // goes on by the wall clock.
        state.alert = .recordingFailed(message)
        return state.input.followsAudioTime ? timer() : .none

      case .recordingFinished(let keptAudio):
        state.partial = ""
        if !keptAudio { state.recording?.audioFile = nil }
        // The input ended by itself (a file used as the microphone): the meeting is over too.
        return save(&state)

      case .saveFailed(let message):
        state.failure = message
        return .none

      case .speechResult(.partial(let text)):
        state.partial = text
        return .none

      case .speechResult(.final(let utterance)):
        state.partial = ""
        let speakerIndex = state.speaker(atRecordingSeconds: utterance.start)
        let segment = Meeting.Segment(
          speaker: state.syncUp.attendees[safe: speakerIndex]?.name ?? "Unknown",
          start: utterance.start, end: utterance.end, text: utterance.text, words: utterance.words
        )
        state.segments.append(segment)
        return .run { [recordingStore, id = state.meetingID] _ in
          try await recordingStore.append(segment, id)
        } catch: { error, send in
          await send(.storeFailed("cannot keep the transcript safe from a crash: \(error)"))
        }

      case .startFailed(let message):
        state.status = .ended
        state.failure = message
        return .merge(
          stopEffects(),
          .run { [recordingStore, dismiss, id = state.meetingID] _ in
            try? await recordingStore.discard(id)
            await dismiss()
          }
        )

      case .storeFailed(let message):
        state.notice = message
        return .none

      case .timerTick:
        state.timeline.seconds += 1
        guard !state.timeline.isPaused, state.status == .timing || state.status == .recording
        else { return .none }
        state.secondsElapsed += 1
        if state.secondsElapsed >= Int(state.syncUp.duration.seconds.rounded(.up)) {
          return finish(&state)
        }
        state.speakerIndex = max(
          state.speakerIndex, state.slot(atMeetingSeconds: Double(state.secondsElapsed))
        )
        return .none
      }
    }
    .ifLet(\.$alert, action: \.alert)
  }

  /// One tick a second on the wall clock.
  private func timer() -> Effect<Action> {
    .run { [clock] send in
      for await _ in clock.timer(interval: .seconds(1)) { await send(.timerTick) }
    }
    .cancellable(id: CancelID.timer, cancelInFlight: true)
  }

  /// Shows an alert; meeting time stands still until it is answered.
  private func showAlert(
    _ alert: AlertState<Action.Alert>, _ state: inout State
  ) -> Effect<Action> {
    state.alert = alert
    state.timeline.mark(
      meetingSeconds: state.secondsElapsed, speakerIndex: state.speakerIndex, isPaused: true
    )
    return .none
  }

  /// Ends the meeting: stops the timer and, when recording, stops the input and lets the last
  /// utterance be transcribed before saving (`recordingFinished`).
  private func finish(_ state: inout State) -> Effect<Action> {
    state.alert = nil
    guard state.status == .recording else { return save(&state) }
    state.status = .ending
    return .merge(.cancel(id: CancelID.timer), .cancel(id: CancelID.capture))
  }

  /// Inserts the meeting at the front of the sync-up's meetings, through the shared reference,
  /// writes it to disk, then drops its durable record.
  private func save(_ state: inout State) -> Effect<Action> {
    guard state.status != .ended, let recording = state.recording else { return .none }
    state.status = .ended
    state.alert = nil
    let meeting = Meeting.recorded(
      recording, segments: state.segments, length: Double(state.timeline.seconds)
    )
    state.$syncUp.withLock { $0.meetings.insert(meeting, at: 0) }
    return .merge(
      stopEffects(),
      .run { [syncUp = state.$syncUp, recordingStore, dismiss] send in
        do {
          try await WorkerThread.run(name: "syncups-save") { try syncUp.save() }
          try await recordingStore.finish(recording.meetingID, recording.audioFile)
        } catch {
          await send(
            .saveFailed(
              "cannot save the meeting: \(error); it is kept and the next syncups command "
                + "recovers it"
            )
          )
        }
        await dismiss()
      }
    )
  }

  /// Ends without saving. Cancelling the recording also deletes the audio it wrote.
  private func discard(_ state: inout State) -> Effect<Action> {
    state.status = .ended
    state.alert = nil
    return .merge(
      stopEffects(),
      .run { [recordingStore, dismiss, id = state.meetingID] _ in
        try? await recordingStore.discard(id)
        await dismiss()
      }
    )
  }

  private func stopEffects() -> Effect<Action> {
    .merge(
      .cancel(id: CancelID.timer), .cancel(id: CancelID.recording), .cancel(id: CancelID.capture)
    )
  }

  /// A meeting without input is kept from its start too.
  private func begin(_ recording: MeetingRecording) -> Effect<Action> {
    .run { [recordingStore] send in
      do {
        try await recordingStore.begin(recording)
      } catch {
        await send(.startFailed("cannot start the meeting: \(error)"))
      }
    }
  }

  /// Input → (kept audio, transcription) → `speechResult` actions, after the recording store has
  /// the meeting. Ends with `recordingFinished` when the input ends or is stopped (cancelling
  /// `CancelID.capture`), or `recordingFailed` with what went wrong. When the meeting follows
  /// audio time, the input also sends a `timerTick` for every second of audio.
  private func record(_ state: State) -> Effect<Action> {
    let stop = StopSignal()
    let input = state.input
    let recording = state.recording!
    let audioURL = recording.audioFile.map { dataDirectory.url.appendingPathComponent($0) }
    let duration = state.syncUp.duration.seconds
    return .merge(
      .run { _ in await stop.fireWhenCancelled() }.cancellable(id: CancelID.capture),
      .run { [audioCapture, audioFiles, transcription, recordingStore, clock] send in
        do {
          try await recordingStore.begin(recording)
          if input.keeps.contains(.transcript) { try await transcription.checkModel() }
        } catch {
          return await send(.startFailed("cannot start the meeting: \(error)"))
        }
        let chunks: AsyncThrowingStream<AudioChunk, any Error>
        do {
          switch input {
          case .none:
            return
          case .microphone(let source, _):
            chunks = try await audioCapture.start(source)
            stop.onFire { Task { await audioCapture.stop() } }
          case .file(let url, _, _):
            chunks = try await audioFiles.read(url)
          }
        } catch {
          if case .microphone(nil, _) = input {
            return await send(.captureUnavailable("\(error)"))
          }
          return await send(.startFailed(Self.describe(error)))
        }
        let feed = Feed(
          chunks: chunks, input: input, duration: duration, stop: stop, audioURL: audioURL,
          audioFiles: audioFiles, clock: clock, send: send
        )
        let fed = AsyncThrowingStream<AudioChunk, any Error> { try await feed.next() }
        do {
          if input.keeps.contains(.transcript) {
            for try await event in try await transcription.transcribe(fed) {
              await send(.speechResult(event))
            }
          } else {
            for try await _ in fed {}
          }
          let kept = await feed.closeAudio()
          if Task.isCancelled { return await feed.deleteAudio() }
          await send(.recordingFinished(keptAudio: kept))
        } catch {
          // Whatever was recorded before the failure is kept: finish the audio file.
          let kept = await feed.closeAudio()
          if Task.isCancelled { return await feed.deleteAudio() }
          await send(.recordingFailed(Self.describe(error), keptAudio: kept))
        }
      }
      .cancellable(id: CancelID.recording)
    )
  }

  /// An error in words: Foundation's file errors say what failed and why, never their domain.
  static func describe(_ error: any Error) -> String {
    if case .notFound(let path)? = error as? AudioFileError {
      return "cannot read \(path): no such file"
    }
    let ns = error as NSError
    guard ns.domain == NSCocoaErrorDomain || ns.domain == NSPOSIXErrorDomain else {
      return "\(error)"
    }
    let path = ns.userInfo[NSFilePathErrorKey] as? String
    let reason: String
    if let code = ns.posixCode {
      reason = String(cString: strerror(code)).lowercased()
    } else {
      switch CocoaError.Code(rawValue: ns.code) {
      case .fileWriteFileExists: reason = "a file is in the way"
      case .fileWriteNoPermission, .fileReadNoPermission: reason = "permission denied"
      case .fileWriteOutOfSpace: reason = "no space left on device"
      case .fileWriteVolumeReadOnly: reason = "read-only file system"
      case .fileNoSuchFile, .fileReadNoSuchFile: reason = "no such file or folder"
      default: reason = ns.localizedDescription
      }
    }
    return path.map { "\($0): \(reason)" } ?? reason
  }
}

/// Fires once, when the effect that waits on it is cancelled: "stop capturing".
final class StopSignal: Sendable {
  private struct Inner {
    var isFired = false
    var handlers: [@Sendable () -> Void] = []
  }
  private let inner = LockIsolated(Inner())

  var isFired: Bool { inner.value.isFired }

  func onFire(_ handler: @escaping @Sendable () -> Void) {
    let fired = inner.withValue {
      if !$0.isFired { $0.handlers.append(handler) }
      return $0.isFired
    }
    if fired { handler() }
  }

  func fireWhenCancelled() async {
    await withTaskCancellationHandler {
      while !Task.isCancelled { try? await Task.sleep(for: .seconds(3600)) }
    } onCancel: {
      let handlers = inner.withValue { inner in
        inner.isFired = true
        defer { inner.handlers = [] }
        return inner.handlers
      }
      for handler in handlers { handler() }
    }
  }
}

/// The chunks the decoder pulls, one at a time: so the decoder never falls behind a buffer, and
/// stopping takes effect at the next chunk. Each chunk is written to the meeting's audio (if
/// kept) on its way; a write error drops the audio, says so once, and the meeting goes on.
/// Used by one consumer at a time (the decoder, then the effect after it).
private final class Feed: @unchecked Sendable {
  private var iterator: AsyncThrowingStream<AudioChunk, any Error>.AsyncIterator
  private let input: RecordMeeting.Input
  private let duration: Double
  private let stop: StopSignal
  private var audioURL: URL?
  private let audioFiles: AudioFilesClient
  private let clock: any Clock<Duration>
  private let send: Send<RecordMeeting.Action>
  private let started = ContinuousClock.now
  private var audioSeconds = 0
  private var wroteAudio = false

  init(
    chunks: AsyncThrowingStream<AudioChunk, any Error>, input: RecordMeeting.Input,
    duration: Double, stop: StopSignal, audioURL: URL?, audioFiles: AudioFilesClient,
    clock: any Clock<Duration>, send: Send<RecordMeeting.Action>
  ) {
    self.iterator = chunks.makeAsyncIterator()
    self.input = input
    self.duration = duration
    self.stop = stop
    self.audioURL = audioURL
    self.audioFiles = audioFiles
    self.clock = clock
    self.send = send
  }

  func next() async throws -> AudioChunk? {
    guard !stop.isFired, let chunk = try await iterator.next(), !stop.isFired else { return nil }
    switch input {
    case .file(_, .fast, _):
      guard chunk.start < duration else { return nil }
      while Double(audioSeconds + 1) <= chunk.end {
        audioSeconds += 1
        await send(.timerTick)
      }
    case .file(_, .realTime, _):
      let due = started + .seconds(chunk.end)
      let wait = due - ContinuousClock.now
      if wait > .zero { try await clock.sleep(for: wait) }
    case .none, .microphone:
      break
    }
    if let url = audioURL {
      do {
        try await audioFiles.append(chunk.samples, url)
        wroteAudio = true
      } catch {
        await deleteAudio()
        await send(
          .audioFailed(
            "cannot keep the meeting's audio: \(RecordMeeting.describe(error)); "
              + "the meeting goes on without it"
          )
        )
      }
    }
    return chunk
  }

  /// Finishes the audio file; whether there is audio to keep.
  func closeAudio() async -> Bool {
    guard let url = audioURL, wroteAudio else { return false }
    do {
      try await audioFiles.close(url)
      return true
    } catch {
      await deleteAudio()
      return false
    }
  }

  /// The meeting was discarded, or its audio could not be kept: the file goes.
  func deleteAudio() async {
    guard let url = audioURL else { return }
    audioURL = nil
    try? await audioFiles.close(url)
    // Even a first write that failed may have left a file behind.
    try? await audioFiles.delete(url)
    wroteAudio = false
  }
}

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

extension Collection {
  subscript(safe index: Index) -> Element? {
    indices.contains(index) ? self[index] : nil
  }
}
