import Architecture
import Foundation
import Tagged
import WorkerThreads

/// The list of all sync-ups, kept in the database. Adds (through a form), deletes (once an
/// alert is confirmed, unless one is being recorded; their audio goes with them), and tells the
/// user when the database could not be read.
public struct SyncUpsList: Reducer {
  public struct State: Equatable, Sendable {
    @Presents public var destination: Destination.State?
    @Shared(.syncUps) public var syncUps

    public init(destination: Destination.State? = nil) {
      self.destination = destination
    }
  }

  public enum Action: Equatable, Sendable {
    case addSyncUpButtonTapped
    case blockersButtonTapped
    case confirmAddSyncUpButtonTapped
    case deletionFailed(String)
    case deletionPrepared([SyncUp.ID], audioFiles: [String])
    case destination(PresentationAction<Destination.Action>)
    case dismissAddSyncUpButtonTapped
    case onAppear
    case onDelete(IndexSet)
    case searchButtonTapped
  }

  public struct Destination: CaseReducer {
    public enum State: Equatable, Sendable, CaseReducerState {
      public typealias StateReducer = Destination
      case add(SyncUpForm.State)
      case alert(AlertState<Alert>)
      case blockers(TeamBlockers.State)
      case search(TranscriptSearchFeature.State)
    }

    public enum Action: Equatable, Sendable {
      case add(SyncUpForm.Action)
      case alert(Alert)
      case blockers(TeamBlockers.Action)
      case search(TranscriptSearchFeature.Action)
    }

    public init() {}

    public var body: some ReducerOf<Self> {
      Scope(state: \.add, action: \.add) { SyncUpForm() }
      Scope(state: \.blockers, action: \.blockers) { TeamBlockers() }
      Scope(state: \.search, action: \.search) { TranscriptSearchFeature() }
    }
  }

  public enum Alert: Equatable, Sendable {
    case confirmDeletion([SyncUp.ID])
  }

  /// How far back the blockers screen looks: a week of stand-ups, as `syncups blockers`.
  public static let blockersWindow: TimeInterval = 7 * 24 * 3600

  @Dependency(\.date.now) var now
  @Dependency(\.syncUpDeletion) var syncUpDeletion
  @Dependency(\.teamLearning) var teamLearning
  @Dependency(\.uuid) var uuid

  public init() {}

  public var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .addSyncUpButtonTapped:
        state.destination = .add(SyncUpForm.State(syncUp: SyncUp(id: SyncUp.ID(uuid()))))
        return .none

      case .blockersButtonTapped:
        state.destination = .blockers(
          TeamBlockers.State(since: now.addingTimeInterval(-Self.blockersWindow)))
        return .send(.destination(.presented(.blockers(.onAppear))))

      case .confirmAddSyncUpButtonTapped:
        guard case .add(var form) = state.destination else { return .none }
        guard let syncUp = form.validated() else {
          state.destination = .add(form)
          return .none
        }
        state.destination = nil
        // Through the element: the save writes this sync-up alone.
        state.$syncUps[id: syncUp.id].withLock { $0 = syncUp }
        return .none

      case .deletionFailed(let message):
        state.destination = .alert(.deletionFailed(message))
        return .none

      case .deletionPrepared(let ids, let audioFiles):
        for id in ids { state.$syncUps[id: id].withLock { $0 = nil } }
        return .run { [syncUps = state.$syncUps, syncUpDeletion, teamLearning] send in
          do {
            try await WorkerThread.run(name: "syncups-save") { try syncUps.save() }
          } catch {
            return await send(.deletionFailed("\(error)"))
          }
          // Their audio and their words go with them.
          _ = await syncUpDeletion.finish(ids, audioFiles: audioFiles, learning: teamLearning)
        }

      case .destination(.presented(.alert(.confirmDeletion(let ids)))):
        return .run { [syncUpDeletion] send in
          do {
            let audioFiles = try await syncUpDeletion.prepare(ids)
            await send(.deletionPrepared(ids, audioFiles: audioFiles))
          } catch {
            await send(.deletionFailed("\(error)"))
          }
        }

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

// The cases reached by key path (see `Scope`): scoped, presented, stacked or received in tests.
extension SyncUpsList.Action {
  public var deletionPrepared: ([SyncUp.ID], audioFiles: [String])? {
    get {
      if case .deletionPrepared(let ids, let audioFiles) = self { (ids, audioFiles) } else { nil }
    }
    set {
      if let newValue { self = .deletionPrepared(newValue.0, audioFiles: newValue.audioFiles) }
    }
  }

  public var destination: PresentationAction<SyncUpsList.Destination.Action>? {
    get { if case .destination(let value) = self { value } else { nil } }
    set { if let newValue { self = .destination(newValue) } }
  }
}

extension SyncUpsList.Destination.State {
  public var add: SyncUpForm.State? {
    get { if case .add(let value) = self { value } else { nil } }
    set { if let newValue { self = .add(newValue) } }
  }

  public var blockers: TeamBlockers.State? {
    get { if case .blockers(let value) = self { value } else { nil } }
    set { if let newValue { self = .blockers(newValue) } }
  }

  public var search: TranscriptSearchFeature.State? {
    get { if case .search(let value) = self { value } else { nil } }
    set { if let newValue { self = .search(newValue) } }
  }
}

extension SyncUpsList.Destination.Action {
  public var add: SyncUpForm.Action? {
    get { if case .add(let value) = self { value } else { nil } }
    set { if let newValue { self = .add(newValue) } }
  }

  public var blockers: TeamBlockers.Action? {
    get { if case .blockers(let value) = self { value } else { nil } }
    set { if let newValue { self = .blockers(newValue) } }
  }

  public var search: TranscriptSearchFeature.Action? {
    get { if case .search(let value) = self { value } else { nil } }
    set { if let newValue { self = .search(newValue) } }
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

  /// Sync-ups that could not be deleted, and why.
  public static func deletionFailed(_ message: String) -> Self {
    AlertState {
      TextState("Could not delete")
    } actions: {
      ButtonState(role: .cancel) { TextState("OK") }
    } message: {
      TextState(message)
    }
  }

  /// The database could not be read: say why.
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
