import ConcurrencyExtras
import CustomDump
import Dependencies
import IssueReporting
import Synchronization

/// Optional child state that a parent presents (a sheet, an alert, a pushed editor).
///
/// Besides the value it carries an identity that changes whenever a new child is presented, so
/// `ifLet` can cancel the effects of the child that went away. Equality ignores the identity.
@propertyWrapper
public struct PresentationState<State> {
  private var value: State?
  private(set) var id: PresentationID?

  public init(wrappedValue: State?) {
    self.value = wrappedValue
    self.id = wrappedValue.map { PresentationID(case: caseName(of: $0)) }
  }

  public var wrappedValue: State? {
    get { value }
    set {
      switch (newValue, id) {
      case (nil, _):
        id = nil
      case (let newValue?, let id?) where id.case == caseName(of: newValue):
        break
      case (let newValue?, _):
        id = PresentationID(case: caseName(of: newValue))
      }
      value = newValue
    }
  }

  public var projectedValue: Self {
    get { self }
    set { self = newValue }
  }
}

/// Spelled as in the Composable Architecture: `@Presents var destination: Destination.State?`.
public typealias Presents = PresentationState

extension PresentationState: Equatable where State: Equatable {
  public static func == (lhs: Self, rhs: Self) -> Bool { lhs.value == rhs.value }
}

extension PresentationState: Sendable where State: Sendable {}

extension PresentationState: CustomDumpRepresentable {
  public var customDumpValue: Any { value as Any }
}

/// Identifies one presentation; also the cancellation id of the presented child's effects.
struct PresentationID: Hashable, Sendable {
  private static let counter = Atomic<Int>(0)
  let serial: Int
  let `case`: String

  init(case: String) {
    self.serial = Self.counter.add(1, ordering: .relaxed).newValue
    self.case = `case`
  }
}

/// The enum case of a destination, so switching `.edit` to `.alert` counts as a new presentation.
private func caseName(of value: Any) -> String {
  let mirror = Mirror(reflecting: value)
  guard mirror.displayStyle == .enum else { return "" }
  return mirror.children.first?.label ?? String(describing: value)
}

/// Actions of a presented child: its own actions, or the request to dismiss it.
public enum PresentationAction<Action> {
  case dismiss
  case presented(Action)
}

extension PresentationAction {
  /// `\.destination?.dismiss` (see `Scope` for how a case is reached).
  public var dismiss: Void? {
    get { if case .dismiss = self { () } else { nil } }
    set { if newValue != nil { self = .dismiss } }
  }

  /// `\.destination?.presented?.edit`: an action of the presented child.
  public var presented: Action? {
    get { if case .presented(let action) = self { action } else { nil } }
    set { if let newValue { self = .presented(newValue) } }
  }
}

extension PresentationAction: Equatable where Action: Equatable {}
extension PresentationAction: Sendable where Action: Sendable {}

/// State that goes away by itself after its first action, like an alert.
public protocol _EphemeralState {}

private func isEphemeral(_ state: Any) -> Bool {
  if state is any _EphemeralState { return true }
  let mirror = Mirror(reflecting: state)
  guard mirror.displayStyle == .enum, let payload = mirror.children.first?.value else {
    return false
  }
  return payload is any _EphemeralState
}

/// A reducer whose state knows it, so `.ifLet(\.$destination, action: \.destination)` needs no
/// trailing closure (the role of TCA's `@Reducer enum Destination`).
public protocol CaseReducer: Reducer {
  init()
}

public protocol CaseReducerState {
  associatedtype StateReducer: CaseReducer where StateReducer.State == Self
}

extension Reducer {
  /// Runs `destination` on the presented child state, before this reducer; cancels the child's
  /// effects when it is dismissed or replaced; lets the child dismiss itself with
  /// `@Dependency(\.dismiss)`.
  public func ifLet<DestinationState, DestinationAction, Destination: Reducer>(
    _ toPresentationState: WritableKeyPath<State, PresentationState<DestinationState>>,
    action toPresentationAction: WritableKeyPath<Action, PresentationAction<DestinationAction>?>,
    @ReducerBuilder<DestinationState, DestinationAction> destination: () -> Destination,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) -> _PresentationReducer<Self, Destination>
  where Destination.State == DestinationState, Destination.Action == DestinationAction {
    _PresentationReducer(
      base: self,
      toPresentationState: toPresentationState,
      toPresentationAction: toPresentationAction,
      destination: destination(),
      fileID: fileID,
      line: line
    )
  }

  /// `ifLet` for a destination whose state names its reducer (`CaseReducerState`).
  public func ifLet<DestinationState: CaseReducerState, DestinationAction>(
    _ toPresentationState: WritableKeyPath<State, PresentationState<DestinationState>>,
    action toPresentationAction: WritableKeyPath<Action, PresentationAction<DestinationAction>?>,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) -> _PresentationReducer<Self, DestinationState.StateReducer>
  where DestinationState.StateReducer.Action == DestinationAction {
    ifLet(
      toPresentationState, action: toPresentationAction,
      destination: { DestinationState.StateReducer() },
      fileID: fileID, line: line)
  }

  /// `ifLet` for state with no logic of its own, such as an `AlertState`.
  public func ifLet<DestinationState: _EphemeralState, DestinationAction>(
    _ toPresentationState: WritableKeyPath<State, PresentationState<DestinationState>>,
    action toPresentationAction: WritableKeyPath<Action, PresentationAction<DestinationAction>?>,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) -> _PresentationReducer<Self, EmptyReducer<DestinationState, DestinationAction>> {
    ifLet(
      toPresentationState, action: toPresentationAction, destination: { EmptyReducer() },
      fileID: fileID, line: line)
  }
}

public struct _PresentationReducer<Base: Reducer, Destination: Reducer>: Reducer {
  let base: Base
  let toPresentationState: WritableKeyPath<Base.State, PresentationState<Destination.State>>
  let toPresentationAction: WritableKeyPath<Base.Action, PresentationAction<Destination.Action>?>
  let destination: Destination
  let fileID: StaticString
  let line: UInt

  public func reduce(into state: inout Base.State, action: Base.Action) -> Effect<Base.Action> {
    let initialID = state[keyPath: toPresentationState].id
    let presentationAction = action[keyPath: toPresentationAction]
    var childEffect = Effect<Base.Action>.none

    if case .presented(let childAction) = presentationAction {
      if var childState = state[keyPath: toPresentationState].wrappedValue, let initialID {
        let embed = Embed(toPresentationAction, into: action)
        childEffect = destination.reduce(into: &childState, action: childAction)
          .map({ embed(.presented($0)) }, dismissWith: { embed(.dismiss) })
          .cancellable(id: initialID)
        state[keyPath: toPresentationState].wrappedValue =
          isEphemeral(childState) ? nil : childState
      } else {
        reportIssue(
          """
          An "ifLet" at "\(fileID):\(line)" received a presentation action when its state was \
          absent: \(action)
          """
        )
      }
    }

    let baseEffect = base.reduce(into: &state, action: action)

    if case .dismiss = presentationAction, state[keyPath: toPresentationState].id == initialID {
      state[keyPath: toPresentationState].wrappedValue = nil
    }
    var effect = childEffect.merge(with: baseEffect)
    if let initialID, state[keyPath: toPresentationState].id != initialID {
      effect = effect.merge(with: .cancel(id: initialID))
    }
    return effect
  }
}

/// Lets a presented child (or stack element) close itself: `await dismiss()` in an effect.
public struct DismissEffect: Sendable {
  /// Set by `ifLet`/`forEach` (and the test store) around a child's effects.
  ///
  /// The closure is wrapped in a struct on purpose: a task-local whose value has a function type
  /// is reabstracted when it is pushed, and optimized builds then crash in
  /// `swift_task_localValuePush` (Swift 6.3; `make test-release` runs the optimized binary).
  @TaskLocal static var handler: Handler?

  struct Handler: Sendable {
    let dismiss: @Sendable () async -> Void
  }

  public func callAsFunction(
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    guard let handler = Self.handler else {
      reportIssue(
        """
        "dismiss" was called at "\(fileID):\(line)" from a feature that was not presented: \
        nothing will be dismissed.
        """,
        fileID: fileID, filePath: filePath, line: line, column: column
      )
      return
    }
    await handler.dismiss()
  }
}

extension DismissEffect: DependencyKey {
  public static let liveValue = DismissEffect()
  public static let testValue = DismissEffect()
}

extension DependencyValues {
  public var dismiss: DismissEffect {
    get { self[DismissEffect.self] }
    set { self[DismissEffect.self] = newValue }
  }
}
