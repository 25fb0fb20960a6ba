import Architecture
import Dependencies

/// The tiny example feature that proves the core end to end: a count, and a timer that
/// increments it every second on `continuousClock`.
struct Counter: Reducer {
  struct State: Equatable {
    var count = 0
    var isTimerRunning = false
  }

  enum Action: Equatable, Sendable {
    case decrementButtonTapped
    case incrementButtonTapped
    case timerTick
    case toggleTimerButtonTapped
  }

  enum CancelID { case timer }

  @Dependency(\.continuousClock) var clock

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .decrementButtonTapped:
        state.count -= 1
        return .none
      case .incrementButtonTapped:
        state.count += 1
        return .none
      case .timerTick:
        state.count += 1
        return .none
      case .toggleTimerButtonTapped:
        state.isTimerRunning.toggle()
        guard state.isTimerRunning else { return .cancel(id: CancelID.timer) }
        return .run { [clock] send in
          for await _ in clock.timer(interval: .seconds(1)) {
            await send(.timerTick)
          }
        }
        .cancellable(id: CancelID.timer, cancelInFlight: true)
      }
    }
  }
}

// The cases reached by key path (see `Scope`).
extension Counter.Action {
  var timerTick: Void? {
    get { if case .timerTick = self { () } else { nil } }
    set { if newValue != nil { self = .timerTick } }
  }
}
