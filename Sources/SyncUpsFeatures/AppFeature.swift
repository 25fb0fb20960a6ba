import Architecture
import Foundation
import Tagged

/// The whole app: the sync-ups list at the root and a navigation stack on top of it
/// (a sync-up's detail, recording a meeting, a past meeting).
public struct AppFeature: Reducer {
  public struct State: Equatable, Sendable {
    public var path = StackState<Path.State>()
    public var syncUpsList = SyncUpsList.State()

    public init(
      path: StackState<Path.State> = StackState(), syncUpsList: SyncUpsList.State = .init()
    ) {
      self.path = path
      self.syncUpsList = syncUpsList
    }
  }

  public enum Action: Equatable, Sendable {
    case path(StackAction<Path.State, Path.Action>)
    case syncUpTapped(SyncUp.ID)
    case syncUpsList(SyncUpsList.Action)
  }

  public struct Path: CaseReducer {
    public enum State: Equatable, Sendable, CaseReducerState {
      public typealias StateReducer = Path
      case detail(SyncUpDetail.State)
      case meeting(MeetingFeature.State)
      case record(RecordMeeting.State)
    }

    public enum Action: Equatable, Sendable {
      case detail(SyncUpDetail.Action)
      case meeting(MeetingFeature.Action)
      case record(RecordMeeting.Action)
    }

    public init() {}

    public var body: some ReducerOf<Self> {
      Scope(state: \.detail, action: \.detail) { SyncUpDetail() }
      Scope(state: \.meeting, action: \.meeting) { MeetingFeature() }
      Scope(state: \.record, action: \.record) { RecordMeeting() }
    }
  }

  @Dependency(\.uuid) var uuid

  public init() {}

  public var body: some ReducerOf<Self> {
    Scope(state: \.syncUpsList, action: \.syncUpsList) { SyncUpsList() }
    Reduce { state, action in
      switch action {
      case .path(.element(let id, .detail(.delegate(let delegate)))):
        switch delegate {
        case .startMeeting(let syncUp, let input):
          state.path.append(
            .record(
              RecordMeeting.State(meetingID: Meeting.ID(uuid()), syncUp: syncUp, input: input))
          )
        case .showMeeting(let meeting):
          // The detail that sent this, wherever it is in the stack.
          guard case .detail(let detail)? = state.path[id: id] else { return .none }
          state.path.append(.meeting(MeetingFeature.State(meeting: meeting, syncUp: detail.syncUp)))
        }
        return .none

      case .path:
        return .none

      case .syncUpTapped(let id):
        guard let syncUp = Shared(state.syncUpsList.$syncUps[id: id]) else { return .none }
        state.path.append(.detail(SyncUpDetail.State(syncUp: syncUp)))
        return .none

      case .syncUpsList(.destination(.presented(.search(.delegate(.openMeeting(let hit)))))):
        // The search stays underneath: going back from the meeting returns to the hits.
        guard let syncUp = state.syncUpsList.syncUps[id: hit.syncUpID],
          let meeting = syncUp.meetings[id: hit.meetingID]
        else { return .none }
        state.path.append(
          .meeting(
            MeetingFeature.State(meeting: meeting, syncUp: syncUp, highlightedSegment: hit.segment)
          )
        )
        return .none

      case .syncUpsList:
        return .none
      }
    }
    .forEach(\.path, action: \.path)
  }
}

// The cases reached by key path (see `Scope`): scoped, presented, stacked or received in tests.
extension AppFeature.Action {
  public var path: StackAction<AppFeature.Path.State, AppFeature.Path.Action>? {
    get { if case .path(let value) = self { value } else { nil } }
    set { if let newValue { self = .path(newValue) } }
  }

  public var syncUpsList: SyncUpsList.Action? {
    get { if case .syncUpsList(let value) = self { value } else { nil } }
    set { if let newValue { self = .syncUpsList(newValue) } }
  }
}

extension AppFeature.Path.State {
  public var detail: SyncUpDetail.State? {
    get { if case .detail(let value) = self { value } else { nil } }
    set { if let newValue { self = .detail(newValue) } }
  }

  public var meeting: MeetingFeature.State? {
    get { if case .meeting(let value) = self { value } else { nil } }
    set { if let newValue { self = .meeting(newValue) } }
  }

  public var record: RecordMeeting.State? {
    get { if case .record(let value) = self { value } else { nil } }
    set { if let newValue { self = .record(newValue) } }
  }
}

extension AppFeature.Path.Action {
  public var detail: SyncUpDetail.Action? {
    get { if case .detail(let value) = self { value } else { nil } }
    set { if let newValue { self = .detail(newValue) } }
  }

  public var meeting: MeetingFeature.Action? {
    get { if case .meeting(let value) = self { value } else { nil } }
    set { if let newValue { self = .meeting(newValue) } }
  }

  public var record: RecordMeeting.Action? {
    get { if case .record(let value) = self { value } else { nil } }
    set { if let newValue { self = .record(newValue) } }
  }
}
