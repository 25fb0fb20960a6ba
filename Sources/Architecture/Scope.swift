import CasePaths
import IssueReporting

/// Runs a child reducer on a part of the parent's state, for the child's actions only.
public struct Scope<ParentState, ParentAction, Child: Reducer>: Reducer {
  enum StatePath {
    case keyPath(WritableKeyPath<ParentState, Child.State>)
    case casePath(AnyCasePath<ParentState, Child.State>)
  }

  let toChildState: StatePath
  let toChildAction: AnyCasePath<ParentAction, Child.Action>
  let child: Child
  let fileID: StaticString
  let line: UInt

  /// Scopes to a stored part of the parent's state (a struct field).
  public init<ChildState, ChildAction>(
    state toChildState: WritableKeyPath<ParentState, ChildState>,
    action toChildAction: CaseKeyPath<ParentAction, ChildAction>,
    @ReducerBuilder<ChildState, ChildAction> child: () -> Child,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) where ChildState == Child.State, ChildAction == Child.Action {
    self.toChildState = .keyPath(toChildState)
    self.toChildAction = AnyCasePath(toChildAction)
    self.child = child()
    self.fileID = fileID
    self.line = line
  }

  /// Scopes to one case of an enum state (e.g. a destination).
  public init<ChildState, ChildAction>(
    state toChildState: CaseKeyPath<ParentState, ChildState>,
    action toChildAction: CaseKeyPath<ParentAction, ChildAction>,
    @ReducerBuilder<ChildState, ChildAction> child: () -> Child,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) where ParentState: CasePathable, ChildState == Child.State, ChildAction == Child.Action {
    self.toChildState = .casePath(AnyCasePath(toChildState))
    self.toChildAction = AnyCasePath(toChildAction)
    self.child = child()
    self.fileID = fileID
    self.line = line
  }

  public func reduce(into state: inout ParentState, action: ParentAction) -> Effect<ParentAction> {
    guard let childAction = toChildAction.extract(from: action) else { return .none }
    let effect: Effect<Child.Action>
    switch toChildState {
    case .keyPath(let keyPath):
      effect = child.reduce(into: &state[keyPath: keyPath], action: childAction)
    case .casePath(let casePath):
      guard var childState = casePath.extract(from: state) else {
        reportIssue(
          """
          A "Scope" at "\(fileID):\(line)" received a child action when the parent state was in \
          another case: \(action)
          """
        )
        return .none
      }
      effect = child.reduce(into: &childState, action: childAction)
      state = casePath.embed(childState)
    }
    let embed = toChildAction
    return effect.map { embed.embed($0) }
  }
}
