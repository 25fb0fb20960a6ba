import Architecture
import Foundation
import Tagged

/// The list of all sync-ups, persisted to `sync-ups.json`. Adds (through a form), deletes, and
/// tells the user when the file could not be read (it is kept aside, never replaced).
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
  }

  public struct Destination: CaseReducer {
    @CasePathable
    public enum State: Equatable, Sendable, CaseReducerState {
      public typealias StateReducer = Destination
      case add(SyncUpForm.State)
      case alert(AlertState<Alert>)
    }

    @CasePathable
    public enum Action: Equatable, Sendable {
      case add(SyncUpForm.Action)
      case alert(Alert)
    }

    public init() {}

    public var body: some ReducerOf<Self> {
      Scope(state: \.add, action: \.add) { SyncUpForm() }
    }
  }

  public enum Alert: Equatable, Sendable {}

  @Dependency(\.uuid) var uuid

  public init() {}

  public var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .addSyncUpButtonTapped:
        state.destination = .add(SyncUpForm.State(syncUp: SyncUp(id: SyncUp.ID(uuid()))))
        return .none

      case .confirmAddSyncUpButtonTapped:
        guard case var .add(form) = state.destination else { return .none }
        guard let syncUp = form.validated() else {
          state.destination = .add(form)
          return .none
        }
        state.destination = nil
        state.$syncUps.withLock { _ = $0.append(syncUp) }
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

      case let .onDelete(indexSet):
        state.$syncUps.withLock { $0.remove(atOffsets: indexSet) }
        return .none
      }
    }
    .ifLet(\.$destination, action: \.destination)
  }
}

extension AlertState where Action == SyncUpsList.Alert {
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
