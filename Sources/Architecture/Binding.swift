import CustomDump

/// An action that writes one field of state, as a text field or toggle would.
/// `.set(\.title, "Design")` both sets the value and compares equal to another such action.
public struct BindingAction<Root>: Equatable, @unchecked Sendable {
  // Unchecked: key paths are immutable, and `value` is required to be Sendable by `set`.
  public let keyPath: PartialKeyPath<Root>
  let value: any Sendable
  let apply: @Sendable (inout Root) -> Void
  let isEqual: @Sendable (any Sendable) -> Bool

  public static func set<Value: Equatable & Sendable>(
    _ keyPath: WritableKeyPath<Root, Value>,
    _ value: Value
  ) -> Self {
    nonisolated(unsafe) let keyPath = keyPath
    return Self(
      keyPath: keyPath,
      value: value,
      apply: { $0[keyPath: keyPath] = value },
      isEqual: { ($0 as? Value) == value }
    )
  }

  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.keyPath == rhs.keyPath && lhs.isEqual(rhs.value)
  }
}

extension BindingAction: CustomDumpReflectable {
  public var customDumpMirror: Mirror {
    Mirror(self, children: ["set": (keyPath, value)], displayStyle: .enum)
  }
}

/// An action enum with a `case binding(BindingAction<State>)`.
public protocol BindableAction {
  associatedtype State
  static func binding(_ action: BindingAction<State>) -> Self
}

extension BindableAction {
  /// The binding action this action carries, if it is the `binding` case.
  public var binding: BindingAction<State>? {
    Mirror(reflecting: self).children.first?.value as? BindingAction<State>
  }
}

/// Applies binding actions to state. Put it first in `body`, then react in a `Reduce`.
public struct BindingReducer<State, Action: BindableAction>: Reducer where Action.State == State {
  public init() {}

  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    action.binding?.apply(&state)
    return .none
  }
}
