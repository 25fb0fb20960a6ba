import Architecture
import Foundation
import Tagged

/// Edits a sync-up's title, duration, theme, attendees and vocabulary (words and phrases the
/// team uses; attendees' names are always included). Never leaves zero attendees. Saving
/// (by the list or the detail) goes through `validated()`, the rules every front end shares; a
/// refusal stays on the form as `problem`.
public struct SyncUpForm: Reducer {
  public struct State: Equatable, Sendable {
    public var focus: Field? = .title
    public var syncUp: SyncUp
    /// Why the last attempt to save was refused.
    public var problem: SyncUpProblem?

    public enum Field: Hashable, Sendable {
      case attendee(Attendee.ID)
      case title
      /// A vocabulary row, by position.
      case word(Int)
    }

    public init(focus: Field? = .title, syncUp: SyncUp) {
      self.focus = focus
      self.syncUp = syncUp
      if self.syncUp.attendees.isEmpty {
        @Dependency(\.uuid) var uuid
        self.syncUp.attendees.append(Attendee(id: Attendee.ID(uuid())))
      }
    }

    /// The sync-up to save, by the rules; or the problem, kept on the form for the user.
    public mutating func validated() -> SyncUp? {
      do {
        let syncUp = try syncUp.validated()
        problem = nil
        return syncUp
      } catch {
        problem = error
        return nil
      }
    }
  }

  public enum Action: BindableAction, Equatable, Sendable {
    case addAttendeeButtonTapped
    case addWordButtonTapped
    case binding(BindingAction<State>)
    case onDeleteAttendees(IndexSet)
    case onDeleteWords(IndexSet)
  }

  @Dependency(\.uuid) var uuid

  public init() {}

  public var body: some ReducerOf<Self> {
    BindingReducer()
    Reduce { state, action in
      switch action {
      case .addAttendeeButtonTapped:
        let attendee = Attendee(id: Attendee.ID(uuid()))
        state.syncUp.attendees.append(attendee)
        state.focus = .attendee(attendee.id)
        return .none

      case .addWordButtonTapped:
        state.syncUp.vocabulary.append("")
        state.focus = .word(state.syncUp.vocabulary.count - 1)
        return .none

      case .binding:
        return .none

      case .onDeleteAttendees(let indices):
        state.syncUp.attendees.remove(atOffsets: indices)
        if state.syncUp.attendees.isEmpty {
          state.syncUp.attendees.append(Attendee(id: Attendee.ID(uuid())))
        }
        guard let firstIndex = indices.first else { return .none }
        let index = min(firstIndex, state.syncUp.attendees.count - 1)
        state.focus = .attendee(state.syncUp.attendees[index].id)
        return .none

      case .onDeleteWords(let indices):
        for index in indices.reversed() where state.syncUp.vocabulary.indices.contains(index) {
          state.syncUp.vocabulary.remove(at: index)
        }
        guard let firstIndex = indices.first else { return .none }
        // The word that took its place, else the one before, else the last attendee.
        if state.syncUp.vocabulary.isEmpty {
          state.focus = state.syncUp.attendees.last.map { .attendee($0.id) }
        } else {
          state.focus = .word(min(firstIndex, state.syncUp.vocabulary.count - 1))
        }
        return .none
      }
    }
  }
}
