import Architecture
import Foundation
import Tagged

/// The list of all sync-ups, persisted to `sync-ups.json`. Adds (through a form), deletes (once
/// an alert is confirmed), and tells the user when the file could not be read (it is kept aside,
/// never replaced).
public struct SyncUpsList: Reducer {
  public struct State: Equatable, Sendable {
    @Presents public var destination: Destination.State?
    @Shared(.syncUps) public var syncUps

    public init(destination: Destination.State? = nil) {
      self.destination = destination
    }
  }

  @CasePathable
  public enum Action: Equatable, Sendable {
    case addSyncUpButtonTapped
    case confirmAddSyncUpButtonTapped
    case destination(PresentationAction<Destination.Action>)
    case dismissAddSyncUpButtonTapped
    case onAppear
    case onDelete(IndexSet)
    case searchButtonTapped
  }

  public struct Destination: CaseReducer {
    @CasePathable
    public enum State: Equatable, Sendable, CaseReducerState {
      public typealias StateReducer = Destination
      case add(SyncUpForm.State)
      case alert(AlertState<Alert>)
      case search(TranscriptSearchFeature.State)
    }

    @CasePathable
    public enum Action: Equatable, Sendable {
      case add(SyncUpForm.Action)
      case alert(Alert)
      case search(TranscriptSearchFeature.Action)
    }

    public init() {}

    public var body: some ReducerOf<Self> {
      Scope(state: \.add, action: \.add) { SyncUpForm() }
      Scope(state: \.search, action: \.search) { TranscriptSearchFeature() }
    }
  }

  @CasePathable
  public enum Alert: Equatable, Sendable {
    case confirmDeletion([SyncUp.ID])
  }

  @Dependency(\.uuid) var uuid

  public init() {}

  public var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .addSyncUpButtonTapped:
        state.destination = .add(SyncUpForm.State(syncUp: SyncUp(id: SyncUp.ID(uuid()))))
        return .none

      case .confirmAddSyncUpButtonTapped:
        guard case .add(var form) = state.destination else { return .none }
        guard let syncUp = form.validated() else {
          state.destination = .add(form)
          return .none
        }
        state.destination = nil
        state.$syncUps.withLock { _ = $0.append(syncUp) }
        return .none

      case .destination(.presented(.alert(.confirmDeletion(let ids)))):
        state.$syncUps.withLock { syncUps in
          for id in ids { syncUps.remove(id: id) }
        }
        return .none

      case .destination:
        return .none

      case .dismissAddSyncUpButtonTapped:
        state.destination = nil
        return .none

      case .onAppear:
        guard let error = state.$syncUps.loadError else { return .none }
        state.destination = .alert(.loadFailed(error))
        return .none

      case .onDelete(let indexSet):
        let syncUps = indexSet.filter { state.syncUps.indices.contains($0) }
          .map { state.syncUps[$0] }
        guard !syncUps.isEmpty else { return .none }
        state.destination = .alert(.deleteSyncUps(syncUps))
        return .none

      case .searchButtonTapped:
        state.destination = .search(TranscriptSearchFeature.State())
        return .none
      }
    }
    .ifLet(\.$destination, action: \.destination)
  }
}

extension AlertState where Action == SyncUpsList.Alert {
  /// Asks before sync-ups and their meetings are deleted.
  public static func deleteSyncUps(_ syncUps: [SyncUp]) -> Self {
    AlertState {
      TextState(
        syncUps.count == 1
          ? "Delete '\(syncUps[0].title)' and all its meetings?"
          : "Delete \(syncUps.count) sync-ups and all their meetings?"
      )
    } actions: {
      ButtonState(role: .destructive, action: .confirmDeletion(syncUps.map(\.id))) {
        TextState("Yes")
      }
      ButtonState(role: .cancel) { TextState("No") }
    }
  }

  /// The data file exists but could not be read: say where the original was kept.
  public static func loadFailed(_ error: any Error) -> Self {
    AlertState {
      TextState("Could not load your sync-ups")
    } actions: {
      ButtonState(role: .cancel) { TextState("OK") }
    } message: {
      TextState("\(error)")
    }
  }
}
