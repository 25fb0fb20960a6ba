import IssueReporting

/// Runs a child reducer on a part of the parent's state, for the child's actions only.
///
/// A case of an enum is reached through a writable key path to an optional computed property,
/// written by hand next to the enum for each case that is scoped, presented, stacked or
/// received in tests:
///
///     extension Parent.Action {
///       var child: Child.Action? {
///         get { if case .child(let value) = self { value } else { nil } }
///         set { if let newValue { self = .child(newValue) } }
///       }
///     }
///
/// The getter gives the case's value (nil in any other case); the setter makes the whole value
/// that case, whatever it was before. A case without a value is a `Void?` property. Paths chain
/// with `?`, e.g. `store.receive(\.destination?.presented?.edit)`.
public struct Scope<ParentState, ParentAction, Child: Reducer>: Reducer {
  enum StatePath {
    /// A stored part of the parent's state (a struct field).
    case field(WritableKeyPath<ParentState, Child.State>)
    /// One case of an enum state.
    case `case`(WritableKeyPath<ParentState, Child.State?>)
  }

  let toChildState: StatePath
  let toChildAction: WritableKeyPath<ParentAction, Child.Action?>
  let child: Child
  let fileID: StaticString
  let line: UInt

  /// Scopes to a stored part of the parent's state (a struct field).
  public init<ChildState, ChildAction>(
    state toChildState: WritableKeyPath<ParentState, ChildState>,
    action toChildAction: WritableKeyPath<ParentAction, ChildAction?>,
    @ReducerBuilder<ChildState, ChildAction> child: () -> Child,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) where ChildState == Child.State, ChildAction == Child.Action {
    self.toChildState = .field(toChildState)
    self.toChildAction = toChildAction
    self.child = child()
    self.fileID = fileID
    self.line = line
  }

  /// Scopes to one case of an enum state (e.g. a destination).
  public init<ChildState, ChildAction>(
    state toChildState: WritableKeyPath<ParentState, ChildState?>,
    action toChildAction: WritableKeyPath<ParentAction, ChildAction?>,
    @ReducerBuilder<ChildState, ChildAction> child: () -> Child,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) where ChildState == Child.State, ChildAction == Child.Action {
    self.toChildState = .case(toChildState)
    self.toChildAction = toChildAction
    self.child = child()
    self.fileID = fileID
    self.line = line
  }

  public func reduce(into state: inout ParentState, action: ParentAction) -> Effect<ParentAction> {
    guard let childAction = action[keyPath: toChildAction] else { return .none }
    let effect: Effect<Child.Action>
    switch toChildState {
    case .field(let keyPath):
      effect = child.reduce(into: &state[keyPath: keyPath], action: childAction)
    case .case(let keyPath):
      guard var childState = state[keyPath: keyPath] else {
        reportIssue(
          """
          A "Scope" at "\(fileID):\(line)" received a child action when the parent state was in \
          another case: \(action)
          """
        )
        return .none
      }
      effect = child.reduce(into: &childState, action: childAction)
      state[keyPath: keyPath] = childState
    }
    let embed = Embed(toChildAction, into: action)
    return effect.map { embed($0) }
  }
}

/// Puts a child's action back into the parent's case: `parent[keyPath: \.child] = childAction`.
///
/// A key path only writes into a value that exists, so it is given one: the parent action that
/// carried the child's. The case's setter replaces it whole.
struct Embed<Root, Value>: @unchecked Sendable {
  // Unchecked: a key path is immutable, and the root is an action, which effects already send
  // across tasks.
  let keyPath: WritableKeyPath<Root, Value?>
  let root: Root

  init(_ keyPath: WritableKeyPath<Root, Value?>, into root: Root) {
    self.keyPath = keyPath
    self.root = root
  }

  func callAsFunction(_ value: Value) -> Root {
    var root = root
    root[keyPath: keyPath] = value
    return root
  }
}
