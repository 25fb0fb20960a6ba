import Architecture
import AudioCore
import Foundation
import MeetingRecorder
import Tagged
import VoiceProfiles
import WorkerThreads

/// Records one meeting of a sync-up: times each attendee's slot, has the meeting recorder listen
/// to its input, attributes what is heard to speakers, writes every utterance to the recording
/// store as it is heard, and saves the meeting into the sync-up's shared reference (derived from
/// the list, which persists it). Front ends only send actions: keys, "end and save" on Ctrl-C,
/// SIGTERM or `q`.
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
    /// The final transcript so far, one segment per utterance: each one shown once the
    /// recording store has it (so what is on screen survives a crash).
    public var segments: [Meeting.Segment] = []
    /// Final utterances on their way into the recording store, in order; shown once kept.
    public var pendingSegments: [PendingSegment] = []
    /// Final utterances the recording store could not keep (a full disk): never shown as kept,
    /// saved with the meeting when it can be.
    public var unkeptSegments: [Meeting.Segment] = []
    /// What the current speaker is saying, not final yet.
    public var partial = ""
    /// How loud each source of the input is, in the input's order (empty until it is heard).
    public var levels: [AudioLevel] = []
    /// Where the meeting is, with what each step holds (`RecordMeeting+Status`).
    public var status = Status.timing
    /// The meeting as it is kept while it runs (set when it starts).
    public var recording: MeetingRecording?
    /// The last problem the user should know about, in one line (the meeting went on).
    public var notice: String?
    /// Why the meeting could not be recorded or saved, in one line (it ended).
    public var failure: String?
    /// Recording time against meeting time, to attribute utterances to slots.
    public var timeline = Timeline()
    /// What the transcription uses of what the sync-up learned (`--use-learning`). With the
    /// voices, a saved meeting with kept audio teaches them in the background, and when some
    /// attendee has an adaptation its sentences are decoded again with it there.
    public var learning = LearningUse.all

    public init(
      meetingID: Meeting.ID, syncUp: Shared<SyncUp>, input: Input, learning: LearningUse = .all
    ) {
      self.meetingID = meetingID
      self._syncUp = syncUp
      self.input = input
      self.learning = learning
    }

    public var durationRemaining: Duration {
      syncUp.duration - .seconds(secondsElapsed)
    }
  }

  public enum Action: Equatable, Sendable {
    case alert(PresentationAction<Alert>)
    /// Ctrl-C, SIGTERM or `q`: end the meeting and save it.
    case endAndSaveRequested
    case endMeetingButtonTapped
    case nextButtonTapped
    case onTask
    /// What the meeting recorder says: levels, seconds, words, the audio, the second pass, the end.
    case recorder(RecordingEvent)
    case saveFailed(String)
    /// The meeting is saved, but what it teaches could not all be learned: said, not fatal.
    case learningFailed(String)
    /// The recording store has this final utterance: it can be shown.
    case segmentKept(Meeting.Segment)
    /// The meeting could not start; it ends without saving.
    case startFailed(String)
    /// An utterance could not be kept safe from a crash: it is not shown as kept, and is saved
    /// with the meeting if that can be.
    case storeFailed(String, Meeting.Segment)
    case timerTick
    /// The second pass's sentences told apart by voice (nil: they could not be), and what the
    /// meeting taught about each voice.
    case voicesTold([Meeting.Segment]?, learned: [Attendee.ID: VoiceProfile])

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

  @Dependency(\.continuousClock) var clock
  @Dependency(\.dataDirectory) var dataDirectory
  @Dependency(\.date.now) var now
  @Dependency(\.dismiss) var dismiss
  @Dependency(\.meetingRecorder) var meetingRecorder
  @Dependency(\.recordingStore) var recordingStore
  @Dependency(\.sentencePasses) var sentencePasses
  @Dependency(\.teamLearning) var teamLearning

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

      case .endAndSaveRequested:
        guard state.isRunning else { return .none }
        return finish(&state)

      case .endMeetingButtonTapped:
        guard state.isRunning else { return .none }
        return showAlert(.endMeeting(isDiscardable: true), &state)

      case .nextButtonTapped:
        guard state.isRunning else { return .none }
        guard state.speakerIndex < state.syncUp.attendees.count - 1 else {
          return showAlert(.endMeeting(isDiscardable: false), &state)
        }
        state.speakerIndex += 1
        state.secondsElapsed = state.slotStarts()[state.speakerIndex]
        state.timeline.mark(meetingSeconds: state.secondsElapsed, speakerIndex: state.speakerIndex)
        return .none

      case .onTask:
        // A sync-up stored before the rules (an old import) may have nobody to give slots to.
        guard !state.syncUp.attendees.isEmpty else {
          return fail(
            "'\(state.syncUp.title)' has no attendees, so nobody could be given a slot: add one "
              + "with 'syncups edit' and --add-attendee, then record", &state)
        }
        state.recording = MeetingRecording(
          meetingID: state.meetingID, syncUpID: state.syncUp.id, started: now,
          audioFile: state.input.keeps.contains(.audio)
            ? DataDirectory.audioFile(of: state.meetingID) : nil
        )
        if state.input != .none { state.status = .recording }
        return state.input.followsAudioTime ? record(state) : .merge(timer(), record(state))

      case .recorder(let event):
        return apply(event, &state)

      case .saveFailed(let message):
        state.failure = message
        return .none

      case .learningFailed(let message):
        state.notice = message
        return .none

      case .segmentKept(let segment):
        return kept(segment, &state)

      case .startFailed(let message):
        return fail(message, &state)

      case .storeFailed(let message, let segment):
        state.notice = message
        return kept(segment, failed: true, &state)

      case .timerTick:
        return tick(&state)

      case .voicesTold(let segments, let learned):
        return toldVoices(segments, learned: learned, &state)
      }
    }
    .ifLet(\.$alert, action: \.alert)
  }

  /// A second of meeting time (unless an alert holds it); the meeting ends when its time is up.
  func tick(_ state: inout State) -> Effect<Action> {
    state.timeline.seconds += 1
    guard !state.timeline.isPaused, state.isRunning else { return .none }
    state.secondsElapsed += 1
    if state.secondsElapsed >= Int(state.syncUp.duration.seconds.rounded(.up)) {
      return finish(&state)
    }
    state.speakerIndex = max(
      state.speakerIndex, state.slot(atMeetingSeconds: Double(state.secondsElapsed))
    )
    return .none
  }

  /// One tick a second on the wall clock.
  func timer() -> Effect<Action> {
    .run { [clock] send in
      for await _ in clock.timer(interval: .seconds(1)) { await send(.timerTick) }
    }
    .cancellable(id: CancelID.timer, cancelInFlight: true)
  }

  /// Keeps the meeting from its start, then (unless it has no input) records it, sending what
  /// the recorder says until the recording ends.
  private func record(_ state: State) -> Effect<Action> {
    let recording = state.recording!
    let request = state.recordingRequest(audioFolder: dataDirectory.url)
    return .run { [recordingStore, meetingRecorder] send in
      do {
        try await recordingStore.begin(recording)
      } catch {
        return await send(.startFailed("cannot start the meeting: \(error)"))
      }
      guard let request else { return }
      for await event in await meetingRecorder.record(request) {
        await send(.recorder(event))
      }
    }
    .cancellable(id: CancelID.recording)
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

  /// Ends the meeting: stops the timer and, when recording, has the recorder stop its input and
  /// transcribe the last words before saving (`.finished`); a recording whose input is ending
  /// already is saved when it has.
  private func finish(_ state: inout State) -> Effect<Action> {
    state.alert = nil
    if case .ending = state.status { return .none }
    guard state.status == .recording else { return save(&state) }
    state.status = .ending(.live)
    return .merge(
      .cancel(id: CancelID.timer),
      .run { [meetingRecorder, id = state.meetingID] _ in await meetingRecorder.stop(id.rawValue) }
    )
  }

  /// The recording is done: the meeting is saved once nothing is on its way any more (the
  /// utterances going into the recording store, the sentences being told apart by voice).
  func save(_ state: inout State) -> Effect<Action> {
    guard !state.isEnded, state.recording != nil else { return .none }
    state.alert = nil
    state.status = .saving(state.secondPass)
    guard state.isReadyToSave else { return .cancel(id: CancelID.timer) }
    return write(&state)
  }

  /// Something the save waited for arrived: the meeting is saved if nothing else is awaited.
  func saveIfReady(_ state: inout State) -> Effect<Action> {
    state.isReadyToSave ? write(&state) : .none
  }

  /// Inserts the meeting at the front of the sync-up's meetings through the shared reference:
  /// its save is the store's one named write for it (it finishes the recording's own row with
  /// what is saved), and the recording then lets the meeting go. Saves the second pass's
  /// sentences when there are some, else the live segments; then what the meeting teaches is
  /// learned (`AfterSave`).
  private func write(_ state: inout State) -> Effect<Action> {
    guard let recording = state.recording else { return .none }
    let pass = state.secondPass
    let segments = state.savedSegments
    // Nothing heard and not a second of it: there is no meeting to keep.
    guard !segments.isEmpty || state.timeline.seconds >= 1 else {
      state.notice = "the meeting ended before anything was heard; nothing was saved"
      return discard(&state)
    }
    let meeting = Meeting.recorded(
      recording, segments: segments, length: Double(state.timeline.seconds))
    state.status = .saved(meeting)
    state.$syncUp.withLock { $0.meetings.insert(meeting, at: 0) }
    var learned: [Attendee.ID: VoiceProfile] = [:]
    if case .told(_, let voices) = pass { learned = voices }
    let after = AfterSave(
      recording: recording, sentencesLate: pass == .late && recording.audioFile != nil,
      usesVoices: state.learning.contains(.voices) && recording.audioFile != nil,
      learnedVoices: learned, learning: state.learning, recordingStore: recordingStore,
      sentencePasses: sentencePasses, teamLearning: teamLearning)
    return .merge(
      stopEffects(),
      .run {
        [
          syncUp = state.$syncUp, syncUpID = state.syncUp.id, dismiss,
          database = dataDirectory.databaseFile
        ] send in
        do {
          // With an adaptation, the sentences are decoded again in the background pass.
          try await after.prepare(syncUpID)
          try await WorkerThread.run(name: "syncups-save") { try syncUp.save() }
        } catch {
          await send(
            .saveFailed(
              "cannot save the meeting (\(SyncUpsDatabaseError(error, url: database))); what "
                + "was heard is kept, and the next syncups command recovers it"
            )
          )
          return await dismiss()
        }
        if let problem = await after.learn(syncUpID) { await send(.learningFailed(problem)) }
        await dismiss()
      }
    )
  }

  /// The meeting could not start: it ends unsaved, saying why.
  func fail(_ message: String, _ state: inout State) -> Effect<Action> {
    state.failure = message
    return discard(&state)
  }

  /// Ends without saving. Cancelling the recording also deletes the audio it wrote.
  func discard(_ state: inout State) -> Effect<Action> {
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
    .merge(.cancel(id: CancelID.timer), .cancel(id: CancelID.recording))
  }
}
