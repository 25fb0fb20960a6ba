import Architecture
import Dependencies
import Foundation
import SyncUpsStore
import WorkerThreads

/// The team's blockers since a day, newest first, and closing one by hand: the selected one (the
/// interactive app) or one named by its id (`syncups blockers close`). The rules live in
/// `BlockerBoard`; a closing is written by `SyncUpsDatabase.closeBlocker` and `syncups sync`
/// takes it to the team server.
public struct TeamBlockers: Reducer {
  public struct State: Equatable, Sendable {
    public var since: Date
    public var board = BlockerBoard()
    public var isLoading = false
    /// The open blocker the close key closes (an index into `board.open`).
    public var selection = 0
    /// Why the blockers could not be read or a blocker closed, in one line.
    public var problem: String?
    /// What the last closing did.
    public var closing: Closing?
    /// The board was read (a closing then reads it again).
    public var isShown = false

    public init(since: Date) { self.since = since }

    public var selected: Blocker? {
      board.open.indices.contains(selection) ? board.open[selection] : nil
    }
  }

  public enum Closing: Equatable, Sendable {
    case closed(Blocker)
    /// It was closed before, here or on the team server: nothing changed.
    case alreadyClosed(Blocker)
  }

  public enum Action: Equatable, Sendable {
    case boardLoaded(BlockerBoard)
    case closeFinished(Blocker, BlockerClosing)
    /// `syncups blockers close ID`.
    case closeRequested(id: String)
    case closeTapped
    case failed(String)
    case onAppear
    case selectionMoved(by: Int)
  }

  @Dependency(\.blockers) var blockers
  @Dependency(\.date.now) var now

  public init() {}

  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .boardLoaded(let board):
      state.isLoading = false
      state.isShown = true
      // The same blocker stays selected when it is still open.
      let selected = state.selected?.id
      state.board = board
      state.selection = board.open.firstIndex { $0.id == selected } ?? 0
      return .none

    case .closeFinished(let blocker, let outcome):
      switch outcome {
      case .closed: state.closing = .closed(blocker)
      case .alreadyClosed: state.closing = .alreadyClosed(blocker)
      case .noSuchMeeting:
        state.problem =
          "the meeting of blocker \(blocker.id) was deleted meanwhile; nothing was closed"
      }
      return state.isShown ? load(&state) : .none

    case .closeRequested(let id):
      state.problem = nil
      let wanted = id.trimmingCharacters(in: .whitespaces).lowercased()
      guard let parsed = Blocker.parse(id: wanted) else {
        state.problem =
          "'\(id)' is not a blocker's id: ids look like d1e2f3a4-4-9f3e, as 'syncups blockers' "
          + "lists them"
        return .none
      }
      return .run { [blockers, now] send in
        let found = try await blockers.read(.distantPast, parsed.meeting).all.filter {
          $0.id == wanted
        }
        guard let blocker = found.first else {
          return await send(
            .failed(
              "there is no blocker \(wanted): 'syncups blockers --since 30d' lists the open ones "
                + "with their ids"))
        }
        guard found.count == 1 else {
          return await send(
            .failed(
              "\(wanted) names \(found.count) blockers (meetings whose ids begin alike); close "
                + "them on the team server's blockers page"))
        }
        await send(.closeFinished(blocker, try await blockers.close(blocker, now)))
      } catch: { error, send in
        await send(.failed("cannot close blocker \(wanted): \(error)"))
      }

    case .closeTapped:
      guard let blocker = state.selected else { return .none }
      state.problem = nil
      return .run { [blockers, now] send in
        await send(.closeFinished(blocker, try await blockers.close(blocker, now)))
      } catch: { error, send in
        await send(.failed("cannot close blocker \(blocker.id): \(error)"))
      }

    case .failed(let problem):
      state.isLoading = false
      state.problem = problem
      return .none

    case .onAppear:
      return load(&state)

    case .selectionMoved(let offset):
      guard !state.board.open.isEmpty else { return .none }
      state.selection = min(max(state.selection + offset, 0), state.board.open.count - 1)
      return .none
    }
  }

  private func load(_ state: inout State) -> Effect<Action> {
    state.isLoading = true
    return .run { [blockers, since = state.since] send in
      await send(.boardLoaded(try await blockers.read(since, nil)))
    } catch: { error, send in
      await send(.failed("cannot read the blockers: \(error)"))
    }
  }
}

/// The team's blockers read from the database and closed there, off the cooperative pool.
public struct BlockersClient: Sendable {
  /// The blockers of the finished meetings from `since` on (only those whose meeting's id
  /// begins with `meetingPrefix`, when given).
  public var read:
    @Sendable (_ since: Date, _ meetingPrefix: String?) async throws -> BlockerBoard =
      unimplemented("BlockersClient.read")
  /// Closes a blocker by hand, to be pushed to the team server.
  public var close: @Sendable (_ blocker: Blocker, _ at: Date) async throws -> BlockerClosing =
    unimplemented("BlockersClient.close")

  public init(
    read:
      @escaping @Sendable (_ since: Date, _ meetingPrefix: String?) async throws -> BlockerBoard,
    close: @escaping @Sendable (_ blocker: Blocker, _ at: Date) async throws -> BlockerClosing
  ) {
    self.read = read
    self.close = close
  }

  /// Every endpoint unimplemented: the test value.
  public init() {}
}

extension BlockersClient: DependencyKey {
  public static var liveValue: BlockersClient {
    @Dependency(\.syncUpsDatabase) var database
    return live(database)
  }

  public static func live(_ database: SyncUpsDatabase) -> BlockersClient {
    BlockersClient(
      read: { since, meetingPrefix in
        try await WorkerThread.run(name: "syncups.blockers") {
          BlockerBoard(try database.blockerSources(since: since, meetingPrefix: meetingPrefix))
        }
      },
      close: { blocker, date in
        try await WorkerThread.run(name: "syncups.blockers") {
          try database.closeBlocker(
            blocker.meetingID, segment: blocker.entry.raised.segment, key: blocker.key, at: date)
        }
      }
    )
  }

  public static let testValue = BlockersClient()
}

extension DependencyValues {
  public var blockers: BlockersClient {
    get { self[BlockersClient.self] }
    set { self[BlockersClient.self] = newValue }
  }
}

// The cases reached by key path (see `Scope`): scoped, presented, stacked or received in tests.
extension TeamBlockers.Action {
  public var boardLoaded: BlockerBoard? {
    get { if case .boardLoaded(let value) = self { value } else { nil } }
    set { if let newValue { self = .boardLoaded(newValue) } }
  }

  public var closeFinished: (Blocker, BlockerClosing)? {
    get {
      if case .closeFinished(let blocker, let outcome) = self { (blocker, outcome) } else { nil }
    }
    set { if let newValue { self = .closeFinished(newValue.0, newValue.1) } }
  }

  public var failed: String? {
    get { if case .failed(let value) = self { value } else { nil } }
    set { if let newValue { self = .failed(newValue) } }
  }
}
