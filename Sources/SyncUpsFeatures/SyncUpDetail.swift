import Architecture
import AudioCaptureClient
import Foundation
import Tagged
import WorkerThreads

/// One sync-up: edit it (on a copy), delete it, delete past meetings, start a meeting.
/// Holds the sync-up as a reference derived from the list's, so every change is saved there.
public struct SyncUpDetail: Reducer {
  public struct State: Equatable, Sendable {
    @Presents public var destination: Destination.State?
    @Shared public var syncUp: SyncUp

    public init(destination: Destination.State? = nil, syncUp: Shared<SyncUp>) {
      self.destination = destination
      self._syncUp = syncUp
    }
  }

  public enum Action: Equatable, Sendable {
    case audioCaptureUnavailable(String)
    case callUnavailable(String)
    case cancelEditButtonTapped
    case delegate(Delegate)
    case deleteButtonTapped
    case deleteMeetings(atOffsets: IndexSet)
    case deletionFailed(String)
    case deletionPrepared(audioFiles: [String])
    case destination(PresentationAction<Destination.Action>)
    case doneEditingButtonTapped
    case editButtonTapped
    case meetingTapped(Meeting.ID)
    /// A remote stand-up: the default microphone and what the call plays through, mixed.
    case startCallButtonTapped
    case startMeetingButtonTapped

    public enum Delegate: Equatable, Sendable {
      /// Start recording a meeting of this sync-up from `input` (`.none` when the user chose to
      /// go on without a microphone).
      case startMeeting(Shared<SyncUp>, input: RecordMeeting.Input)
      case showMeeting(Meeting)
    }
  }

  public struct Destination: CaseReducer {
    public enum State: Equatable, Sendable, CaseReducerState {
      public typealias StateReducer = Destination
      case alert(AlertState<Alert>)
      case edit(SyncUpForm.State)
    }

    public enum Action: Equatable, Sendable {
      case alert(Alert)
      case edit(SyncUpForm.Action)
    }

    public init() {}

    public var body: some ReducerOf<Self> {
      Scope(state: \.edit, action: \.edit) { SyncUpForm() }
    }
  }

  public enum Alert: Equatable, Sendable {
    case confirmDeletion
    case continueWithoutRecording
    case recordMicrophoneOnly
  }

  @Dependency(\.audioCapture) var audioCapture
  @Dependency(\.dismiss) var dismiss
  @Dependency(\.syncUpDeletion) var syncUpDeletion
  @Dependency(\.teamLearning) var teamLearning

  public init() {}

  public var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .audioCaptureUnavailable(let reason):
        state.destination = .alert(.audioCaptureUnavailable(reason))
        return .none

      case .callUnavailable(let reason):
        state.destination = .alert(.callUnavailable(reason))
        return .none

      case .cancelEditButtonTapped:
        state.destination = nil
        return .none

      case .delegate:
        return .none

      case .deleteButtonTapped:
        state.destination = .alert(.deleteSyncUp)
        return .none

      case .deleteMeetings(atOffsets: let indices):
        let meetings = state.syncUp.meetings
        let audioFiles = indices.filter(meetings.indices.contains).compactMap {
          meetings[$0].audioFile
        }
        state.$syncUp.withLock { $0.meetings.remove(atOffsets: indices) }
        // Their audio goes once their rows are gone, and the sync-up's words are learned again
        // without them.
        return .run { [syncUp = state.$syncUp, syncUpDeletion, teamLearning] send in
          do {
            try await WorkerThread.run(name: "syncups-save") { try syncUp.save() }
          } catch {
            return await send(.deletionFailed("\(error)"))
          }
          let id = syncUp.wrappedValue.id
          _ = await syncUpDeletion.finish([id], audioFiles: audioFiles, learning: teamLearning)
        }

      case .deletionFailed(let message):
        state.destination = .alert(.deletionFailed(message))
        return .none

      case .deletionPrepared(let audioFiles):
        @Shared(.syncUps) var syncUps
        let id = state.syncUp.id
        $syncUps[id: id].withLock { $0 = nil }
        return .run { [syncUps = $syncUps, syncUpDeletion, teamLearning, dismiss] send in
          do {
            try await WorkerThread.run(name: "syncups-save") { try syncUps.save() }
          } catch {
            return await send(.deletionFailed("\(error)"))
          }
          // Its audio and its words go with it.
          _ = await syncUpDeletion.finish([id], audioFiles: audioFiles, learning: teamLearning)
          await dismiss()
        }

      case .destination(.presented(.alert(.confirmDeletion))):
        return .run { [id = state.syncUp.id, syncUpDeletion] send in
          do {
            await send(.deletionPrepared(audioFiles: try await syncUpDeletion.prepare([id])))
          } catch {
            await send(.deletionFailed("\(error)"))
          }
        }

      case .destination(.presented(.alert(.continueWithoutRecording))):
        return .send(.delegate(.startMeeting(state.$syncUp, input: .none)))

      case .destination(.presented(.alert(.recordMicrophoneOnly))):
        return .send(.startMeetingButtonTapped)

      case .destination:
        return .none

      case .doneEditingButtonTapped:
        guard case .edit(var form) = state.destination else { return .none }
        guard let syncUp = form.validated() else {
          state.destination = .edit(form)
          return .none
        }
        state.$syncUp.withLock { $0 = syncUp }
        state.destination = nil
        return .none

      case .editButtonTapped:
        state.destination = .edit(SyncUpForm.State(syncUp: state.syncUp))
        return .none

      case .meetingTapped(let id):
        guard let meeting = state.syncUp.meetings[id: id] else { return .none }
        return .send(.delegate(.showMeeting(meeting)))

      case .startCallButtonTapped:
        return .run { [syncUp = state.$syncUp, audioCapture] send in
          do {
            let sources = try CallSources.pick(from: try await audioCapture.sources())
            await send(.delegate(.startMeeting(syncUp, input: .mix(sources))))
          } catch {
            await send(.callUnavailable("\(error)"))
          }
        }

      case .startMeetingButtonTapped:
        return .run { [syncUp = state.$syncUp, audioCapture] send in
          do {
            try await audioCapture.checkAvailability(nil)
            await send(.delegate(.startMeeting(syncUp, input: .microphone(nil))))
          } catch {
            await send(.audioCaptureUnavailable("\(error)"))
          }
        }
      }
    }
    .ifLet(\.$destination, action: \.destination)
  }
}

// The cases reached by key path (see `Scope`): scoped, presented, stacked or received in tests.
extension SyncUpDetail.Action {
  public var audioCaptureUnavailable: String? {
    get { if case .audioCaptureUnavailable(let value) = self { value } else { nil } }
    set { if let newValue { self = .audioCaptureUnavailable(newValue) } }
  }

  public var callUnavailable: String? {
    get { if case .callUnavailable(let value) = self { value } else { nil } }
    set { if let newValue { self = .callUnavailable(newValue) } }
  }

  public var delegate: Delegate? {
    get { if case .delegate(let value) = self { value } else { nil } }
    set { if let newValue { self = .delegate(newValue) } }
  }

  public var deletionFailed: String? {
    get { if case .deletionFailed(let value) = self { value } else { nil } }
    set { if let newValue { self = .deletionFailed(newValue) } }
  }

  public var deletionPrepared: [String]? {
    get { if case .deletionPrepared(let value) = self { value } else { nil } }
    set { if let newValue { self = .deletionPrepared(audioFiles: newValue) } }
  }

  public var destination: PresentationAction<SyncUpDetail.Destination.Action>? {
    get { if case .destination(let value) = self { value } else { nil } }
    set { if let newValue { self = .destination(newValue) } }
  }

  public var startMeetingButtonTapped: Void? {
    get { if case .startMeetingButtonTapped = self { () } else { nil } }
    set { if newValue != nil { self = .startMeetingButtonTapped } }
  }
}

extension SyncUpDetail.Action.Delegate {
  public var startMeeting: (Shared<SyncUp>, input: RecordMeeting.Input)? {
    get { if case .startMeeting(let syncUp, let input) = self { (syncUp, input) } else { nil } }
    set { if let newValue { self = .startMeeting(newValue.0, input: newValue.input) } }
  }

  public var showMeeting: Meeting? {
    get { if case .showMeeting(let value) = self { value } else { nil } }
    set { if let newValue { self = .showMeeting(newValue) } }
  }
}

extension SyncUpDetail.Destination.State {
  public var edit: SyncUpForm.State? {
    get { if case .edit(let value) = self { value } else { nil } }
    set { if let newValue { self = .edit(newValue) } }
  }
}

extension SyncUpDetail.Destination.Action {
  public var edit: SyncUpForm.Action? {
    get { if case .edit(let value) = self { value } else { nil } }
    set { if let newValue { self = .edit(newValue) } }
  }
}

extension AlertState where Action == SyncUpDetail.Alert {
  public static let deleteSyncUp = Self {
    TextState("Delete?")
  } actions: {
    ButtonState(role: .destructive, action: .confirmDeletion) { TextState("Yes") }
    ButtonState(role: .cancel) { TextState("Nevermind") }
  } message: {
    TextState("Are you sure you want to delete this sync-up and all its meetings?")
  }

  /// The sync-up could not be deleted, and why.
  public static func deletionFailed(_ message: String) -> Self {
    Self {
      TextState("Could not delete")
    } actions: {
      ButtonState(role: .cancel) { TextState("OK") }
    } message: {
      TextState(message)
    }
  }

  /// The original's "speech recognition denied" flow, for a machine without a microphone.
  /// `reason`: what PulseAudio lacks for a call (or why it cannot be asked), in words.
  public static func callUnavailable(_ reason: String) -> Self {
    Self {
      TextState("The call cannot be recorded")
    } actions: {
      ButtonState(action: .recordMicrophoneOnly) { TextState("Record the microphone only") }
      ButtonState(role: .cancel) { TextState("Cancel") }
    } message: {
      TextState(reason.hasSuffix(".") ? reason : reason + ".")
    }
  }

  public static func audioCaptureUnavailable(_ reason: String) -> Self {
    Self {
      TextState("Audio capture is unavailable")
    } actions: {
      ButtonState(action: .continueWithoutRecording) { TextState("Continue without recording") }
      ButtonState(role: .cancel) { TextState("Cancel") }
    } message: {
      TextState("\(reason) The meeting can still be timed, but nothing will be transcribed.")
    }
  }
}
