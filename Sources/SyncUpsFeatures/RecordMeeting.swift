import Architecture
import AudioCaptureClient
import AudioCore
import AudioFilesClient
import Foundation
import Tagged
import TranscriptionClient

/// Records one meeting of a sync-up: times each attendee's slot, listens through the capture
/// client, transcribes through the transcription client, keeps the audio, and saves the meeting
/// into the sync-up's shared reference (derived from the list, which persists it).
public struct RecordMeeting: Reducer {
  public struct State: Equatable, Sendable {
    @Presents public var alert: AlertState<Action.Alert>?
    /// Meeting time in seconds; "Next speaker" jumps it to the start of the next slot.
    public var secondsElapsed = 0
    /// Recording time in seconds (timer ticks), which keeps running while an alert is shown.
    public var recordingSeconds = 0
    public var speakerIndex = 0
    @Shared public var syncUp: SyncUp
    /// The final transcript so far, one segment per utterance.
    public var segments: [Meeting.Segment] = []
    /// What the current speaker is saying, not final yet.
    public var partial = ""
    public var options: Options
    /// Whether audio is being captured right now.
    public var isRecording = false
    /// Set when the meeting is over and the last words are being transcribed before saving.
    public var isFinishing = false
    /// Whether the recording wrote audio to keep with the meeting.
    public var keptAudio = false
    /// Where recording time changed its relation to meeting time (next speaker, alerts), so an
    /// utterance is attributed to the slot it started in whatever order results arrive in.
    public var timeline: [TimelineAnchor] = [TimelineAnchor(recordingSeconds: 0, meetingSeconds: 0)]

    public init(syncUp: Shared<SyncUp>, options: Options = Options()) {
      self._syncUp = syncUp
      self.options = options
    }

    public var durationRemaining: Duration {
      syncUp.duration - .seconds(secondsElapsed)
    }

    /// The speaker whose slot contains `meetingSeconds`: slot k covers [k·D/n, (k+1)·D/n).
    public func slot(atMeetingSeconds meetingSeconds: Double) -> Int {
      let count = syncUp.attendees.count
      let duration = syncUp.duration.seconds
      guard count > 1, duration > 0 else { return 0 }
      return min(count - 1, max(0, Int((meetingSeconds * Double(count) / duration).rounded(.down))))
    }

    /// The first whole second of slot `index`.
    func slotStart(_ index: Int) -> Int {
      let count = max(syncUp.attendees.count, 1)
      return Int((syncUp.duration.seconds * Double(index) / Double(count)).rounded(.up))
    }

    /// The speaker of an utterance that started `recordingSeconds` into the recording.
    func speaker(atRecordingSeconds recordingSeconds: Double) -> Int {
      let anchor = timeline.last { Double($0.recordingSeconds) <= recordingSeconds } ?? timeline[0]
      let meetingSeconds =
        anchor.isPaused
        ? Double(anchor.meetingSeconds)
        : Double(anchor.meetingSeconds) + recordingSeconds - Double(anchor.recordingSeconds)
      return max(anchor.speakerIndex, slot(atMeetingSeconds: meetingSeconds))
    }
  }

  /// A point where meeting time stopped following recording time one to one.
  public struct TimelineAnchor: Equatable, Sendable {
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

  /// How the meeting is recorded.
  public struct Options: Equatable, Sendable {
    /// Capture audio at all (false: "continue without recording").
    public var recordsAudio: Bool
    /// The PulseAudio source; nil for the server's default.
    public var source: String?
    /// Transcribe what is captured.
    public var transcribes: Bool
    /// Keep the meeting's audio as FLAC in the data directory.
    public var keepsAudio: Bool
    /// The meeting clock follows the captured audio's time instead of the wall clock: for a
    /// file replayed as fast as it decodes. The recording then stops at the meeting's duration.
    public var followsAudioTime: Bool

    public init(
      recordsAudio: Bool = true, source: String? = nil, transcribes: Bool = true,
      keepsAudio: Bool = true, followsAudioTime: Bool = false
    ) {
      self.recordsAudio = recordsAudio
      self.source = source
      self.transcribes = transcribes
      self.keepsAudio = keepsAudio
      self.followsAudioTime = followsAudioTime
    }
  }

  @CasePathable
  public enum Action: Equatable, Sendable {
    case alert(PresentationAction<Alert>)
    case endMeetingButtonTapped
    case nextButtonTapped
    case onTask
    case recordingFailed(String, keptAudio: Bool)
    case recordingFinished(keptAudio: Bool)
    case speechResult(TranscriptionEvent)
    case timerTick

    @CasePathable
    public enum Alert: Equatable, Sendable {
      case confirmDiscard
      case confirmSave
      case continueMeeting
    }
  }

  enum CancelID {
    case recording
    case timer
  }

  @Dependency(\.audioCapture) var audioCapture
  @Dependency(\.audioFiles) var audioFiles
  @Dependency(\.continuousClock) var clock
  @Dependency(\.dataDirectory) var dataDirectory
  @Dependency(\.date.now) var now
  @Dependency(\.dismiss) var dismiss
  @Dependency(\.transcription) var transcription
  @Dependency(\.uuid) var uuid

  public init() {}

  public var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .alert(.presented(.confirmDiscard)):
        return discard()

      case .alert(.presented(.confirmSave)):
        return finish(&state)

      case .alert(.presented(.continueMeeting)), .alert(.dismiss):
        state.timeline.append(
          TimelineAnchor(
            recordingSeconds: state.recordingSeconds, meetingSeconds: state.secondsElapsed,
            speakerIndex: state.speakerIndex
          )
        )
        return .none

      case .alert:
        return .none

      case .endMeetingButtonTapped:
        return showAlert(.endMeeting(isDiscardable: true), &state)

      case .nextButtonTapped:
        guard state.speakerIndex < state.syncUp.attendees.count - 1 else {
          return showAlert(.endMeeting(isDiscardable: false), &state)
        }
        state.speakerIndex += 1
        state.secondsElapsed = state.slotStart(state.speakerIndex)
        state.timeline.append(
          TimelineAnchor(
            recordingSeconds: state.recordingSeconds, meetingSeconds: state.secondsElapsed,
            speakerIndex: state.speakerIndex
          )
        )
        return .none

      case .onTask:
        state.isRecording = state.options.recordsAudio
        guard state.isRecording else { return timer() }
        return state.options.followsAudioTime ? record(state) : .merge(timer(), record(state))

      case let .recordingFailed(message, keptAudio):
        state.isRecording = false
        state.keptAudio = keptAudio
        state.partial = ""
        guard !state.isFinishing else { return save(&state) }
        // Without audio, an audio-timed meeting goes on by the wall clock.
        return .merge(
          showAlert(.recordingFailed(message), &state),
          state.options.followsAudioTime ? timer() : .none
        )

      case let .recordingFinished(keptAudio):
        state.isRecording = false
        state.keptAudio = keptAudio
        state.partial = ""
        // The input ended by itself (a file used as the microphone): the meeting is over too.
        return save(&state)

      case .speechResult(.partial(let text)):
        state.partial = text
        return .none

      case .speechResult(.final(let utterance)):
        state.partial = ""
        let speakerIndex = state.speaker(atRecordingSeconds: utterance.start)
        let speaker = state.syncUp.attendees[safe: speakerIndex]?.name ?? "Unknown"
        state.segments.append(
          Meeting.Segment(
            speaker: speaker, start: utterance.start, end: utterance.end, text: utterance.text,
            words: utterance.words
          )
        )
        return .none

      case .timerTick:
        state.recordingSeconds += 1
        guard state.alert == nil, !state.isFinishing else { return .none }
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
  private func showAlert(_ alert: AlertState<Action.Alert>, _ state: inout State) -> Effect<Action> {
    state.alert = alert
    state.timeline.append(
      TimelineAnchor(
        recordingSeconds: state.recordingSeconds, meetingSeconds: state.secondsElapsed,
        speakerIndex: state.speakerIndex, isPaused: true
      )
    )
    return .none
  }

  /// Ends the meeting: stops the timer and, when recording, stops capture and lets the last
  /// utterance be transcribed before saving (`recordingFinished`).
  private func finish(_ state: inout State) -> Effect<Action> {
    state.alert = nil
    guard state.isRecording else { return save(&state) }
    state.isFinishing = true
    return .merge(
      .cancel(id: CancelID.timer),
      .run { [audioCapture] _ in await audioCapture.stop() }
    )
  }

  /// Inserts the meeting at the front of the sync-up's meetings, through the shared reference,
  /// and files its audio under the meeting's id.
  private func save(_ state: inout State) -> Effect<Action> {
    state.isFinishing = false
    let meetingID = Meeting.ID(uuid())
    let audioFile = DataDirectory.audioFile(of: meetingID)
    let meeting = Meeting(
      id: meetingID,
      date: now,
      transcript: state.segments.map(\.text).joined(separator: " "),
      segments: state.segments,
      audioFile: state.keptAudio ? audioFile : nil
    )
    state.$syncUp.withLock { $0.meetings.insert(meeting, at: 0) }
    let move =
      state.keptAudio
      ? (from: recordingURL(state), to: dataDirectory.url.appendingPathComponent(audioFile))
      : nil
    return .merge(
      .cancel(id: CancelID.timer),
      .cancel(id: CancelID.recording),
      .run { [audioFiles, dismiss] _ in
        if let move { try? await audioFiles.move(move.from, move.to) }
        await dismiss()
      }
    )
  }

  /// Ends without saving. Cancelling the recording also deletes the audio it wrote.
  private func discard() -> Effect<Action> {
    .merge(
      .cancel(id: CancelID.timer),
      .cancel(id: CancelID.recording),
      .run { [dismiss] _ in await dismiss() }
    )
  }

  /// Where audio is written while the meeting runs.
  private func recordingURL(_ state: State) -> URL {
    dataDirectory.recordingAudio(of: state.syncUp.id)
  }

  /// Microphone → (kept audio, transcription) → `speechResult` actions. Ends with
  /// `recordingFinished` when capture stops, or `recordingFailed` with what went wrong.
  /// When the meeting follows audio time, it also sends a `timerTick` for every second of audio
  /// and stops reading at the meeting's duration.
  private func record(_ state: State) -> Effect<Action> {
    let options = state.options
    let audioURL = options.keepsAudio ? recordingURL(state) : nil
    let duration = state.syncUp.duration.seconds
    return .run { [audioCapture, audioFiles, transcription] send in
      let wroteAudio = LockIsolated(false)
      do {
        let chunks = try await audioCapture.start(options.source)
        let (decoderInput, decoderFeed) = AsyncThrowingStream<AudioChunk, any Error>.makeStream()
        try await withThrowingTaskGroup(of: Void.self) { group in
          group.addTask {
            do {
              var audioSeconds = 0
              for try await chunk in chunks {
                if options.followsAudioTime {
                  guard chunk.start < duration else { break }
                  while Double(audioSeconds + 1) <= chunk.end {
                    audioSeconds += 1
                    await send(.timerTick)
                  }
                }
                if let audioURL {
                  try await audioFiles.append(chunk.samples, audioURL)
                  wroteAudio.setValue(true)
                }
                decoderFeed.yield(chunk)
              }
              decoderFeed.finish()
            } catch {
              decoderFeed.finish(throwing: error)
              throw error
            }
          }
          group.addTask {
            guard options.transcribes else {
              for try await _ in decoderInput {}
              return
            }
            for try await event in try await transcription.transcribe(decoderInput) {
              await send(.speechResult(event))
            }
          }
          try await group.waitForAll()
        }
        if let audioURL, wroteAudio.value { try await audioFiles.close(audioURL) }
        if Task.isCancelled { return await discardAudio() }
        await send(.recordingFinished(keptAudio: wroteAudio.value))
      } catch {
        // Whatever was recorded before the failure is kept: finish the audio file.
        if let audioURL, wroteAudio.value { try? await audioFiles.close(audioURL) }
        if Task.isCancelled { return await discardAudio() }
        await send(.recordingFailed("\(error)", keptAudio: wroteAudio.value))
      }

      /// The meeting was discarded: its audio goes with it.
      func discardAudio() async {
        if let audioURL, wroteAudio.value { try? await audioFiles.delete(audioURL) }
      }
    }
    .cancellable(id: CancelID.recording)
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
        "\(message) The transcript so far is kept. Continue the meeting without recording, or discard it."
      )
    }
  }
}

extension Collection {
  subscript(safe index: Index) -> Element? {
    indices.contains(index) ? self[index] : nil
  }
}
