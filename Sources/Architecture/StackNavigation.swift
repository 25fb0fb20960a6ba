import ConcurrencyExtras
import CustomDump
import Dependencies
import IssueReporting

/// Identifies an element of a `StackState`. Ids only increase, and an element keeps its id while
/// others are pushed and popped. Integer literals make tests read well: `$0.path[id: 0]`.
public struct StackElementID: Hashable, Comparable, Sendable, ExpressibleByIntegerLiteral,
  CustomDumpStringConvertible, CustomStringConvertible
{
  public let rawValue: Int
  public init(rawValue: Int) { self.rawValue = rawValue }
  public init(integerLiteral value: Int) { self.rawValue = value }
  public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
  public var description: String { "#\(rawValue)" }
  public var customDumpDescription: String { "#\(rawValue)" }
}

/// Hands out stack element ids: 0, 1, 2… for each store (a dependency, so tests are deterministic).
public final class StackElementIDGenerator: Sendable {
  private let nextID: LockIsolated<Int>

  public init(startingAt first: Int = 0) { self.nextID = LockIsolated(first) }

  public func next() -> StackElementID {
    nextID.withValue { id in
      defer { id += 1 }
      return StackElementID(rawValue: id)
    }
  }

  /// A generator that will hand out the same ids as this one from now on.
  public func copy() -> StackElementIDGenerator {
    StackElementIDGenerator(startingAt: nextID.value)
  }
}

extension StackElementIDGenerator: DependencyKey {
  public static var liveValue: StackElementIDGenerator { StackElementIDGenerator() }
  public static var testValue: StackElementIDGenerator { StackElementIDGenerator() }
}

extension DependencyValues {
  public var stackElementID: StackElementIDGenerator {
    get { self[StackElementIDGenerator.self] }
    set { self[StackElementIDGenerator.self] = newValue }
  }
}

/// The state of a navigation stack: an ordered collection of screens with stable ids.
public struct StackState<Element>: RandomAccessCollection {
  public private(set) var ids: [StackElementID] = []
  private var elements: [StackElementID: Element] = [:]

  public init() {}

  public init(_ elements: some Sequence<Element>) {
    for element in elements { append(element) }
  }

  public var startIndex: Int { ids.startIndex }
  public var endIndex: Int { ids.endIndex }

  public subscript(position: Int) -> Element {
    get { elements[ids[position]]! }
    set { elements[ids[position]] = newValue }
  }

  public subscript(id id: StackElementID) -> Element? {
    get { elements[id] }
    set {
      guard ids.contains(id) else {
        if newValue != nil {
          reportIssue("No stack element with id \(id): use 'append' to push a new one.")
        }
        return
      }
      guard let newValue else { return pop(from: id) }
      elements[id] = newValue
    }
  }

  /// Pushes a new element; its id comes from `@Dependency(\.stackElementID)`.
  public mutating func append(_ element: Element) {
    @Dependency(\.stackElementID) var stackElementID
    append(element, id: stackElementID.next())
  }

  mutating func append(_ element: Element, id: StackElementID) {
    ids.append(id)
    elements[id] = element
  }

  @discardableResult
  public mutating func removeLast() -> Element {
    let id = ids.removeLast()
    return elements.removeValue(forKey: id)!
  }

  public mutating func removeLast(_ count: Int) {
    for _ in 0..<count { removeLast() }
  }

  public mutating func removeAll() {
    ids.removeAll()
    elements.removeAll()
  }

  /// Removes the element with `id` and everything above it.
  public mutating func pop(from id: StackElementID) {
    guard let index = ids.firstIndex(of: id) else { return }
    for removed in ids[index...] { elements[removed] = nil }
    ids.removeSubrange(index...)
  }

  /// Removes everything above the element with `id`.
  public mutating func pop(to id: StackElementID) {
    guard let index = ids.firstIndex(of: id) else { return }
    for removed in ids[(index + 1)...] { elements[removed] = nil }
    ids.removeSubrange((index + 1)...)
  }
}

extension StackState: Equatable where Element: Equatable {
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.ids == rhs.ids && lhs.ids.allSatisfy { lhs.elements[$0] == rhs.elements[$0] }
  }
}

extension StackState: Sendable where Element: Sendable {}

extension StackState: CustomDumpReflectable {
  public var customDumpMirror: Mirror {
    Mirror(
      self,
      unlabeledChildren: ids.map { (id: $0, element: elements[$0]!) },
      displayStyle: .collection
    )
  }
}

/// Actions of a navigation stack.
public enum StackAction<State, Action> {
  /// An action of the element with `id`.
  case element(id: StackElementID, action: Action)
  /// Pops the element with `id` and everything above it.
  case popFrom(id: StackElementID)
  /// Pushes `state` with `id`, which must be greater than every id on the stack.
  case push(id: StackElementID, state: State)
}

extension StackAction: Equatable where State: Equatable, Action: Equatable {}
extension StackAction: Sendable where State: Sendable, Action: Sendable {}

extension StackAction {
  /// `\.path?[id: 0]?.detail`: an action of the element with `id` (see `Scope` for how a case
  /// is reached).
  public subscript(id id: StackElementID) -> Action? {
    get {
      guard case .element(let elementID, let action) = self, elementID == id else { return nil }
      return action
    }
    set { if let newValue { self = .element(id: id, action: newValue) } }
  }

  /// `\.path?.popFrom`: the id of the element popped (with those above it).
  public var popFrom: StackElementID? {
    get { if case .popFrom(let id) = self { id } else { nil } }
    set { if let newValue { self = .popFrom(id: newValue) } }
  }
}

private struct StackElementCancelID: Hashable, Sendable {
  let id: StackElementID
}

extension Reducer {
  /// Runs `element` on the stack's elements, before this reducer; handles pushes and pops;
  /// cancels a popped element's effects; lets an element pop itself with `@Dependency(\.dismiss)`.
  public func forEach<ElementState, ElementAction, Element: Reducer>(
    _ toStackState: WritableKeyPath<State, StackState<ElementState>>,
    action toStackAction: WritableKeyPath<Action, StackAction<ElementState, ElementAction>?>,
    @ReducerBuilder<ElementState, ElementAction> element: () -> Element,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) -> _StackReducer<Self, Element>
  where Element.State == ElementState, Element.Action == ElementAction {
    _StackReducer(
      base: self, toStackState: toStackState, toStackAction: toStackAction,
      element: element(), fileID: fileID, line: line
    )
  }

  /// `forEach` for elements whose state names its reducer (`CaseReducerState`).
  public func forEach<ElementState: CaseReducerState, ElementAction>(
    _ toStackState: WritableKeyPath<State, StackState<ElementState>>,
    action toStackAction: WritableKeyPath<Action, StackAction<ElementState, ElementAction>?>,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) -> _StackReducer<Self, ElementState.StateReducer>
  where ElementState.StateReducer.Action == ElementAction {
    forEach(
      toStackState, action: toStackAction, element: { ElementState.StateReducer() },
      fileID: fileID, line: line)
  }
}

public struct _StackReducer<Base: Reducer, Element: Reducer>: Reducer {
  let base: Base
  let toStackState: WritableKeyPath<Base.State, StackState<Element.State>>
  let toStackAction: WritableKeyPath<Base.Action, StackAction<Element.State, Element.Action>?>
  let element: Element
  let fileID: StaticString
  let line: UInt

  public func reduce(into state: inout Base.State, action: Base.Action) -> Effect<Base.Action> {
    let idsBefore = state[keyPath: toStackState].ids
    let stackAction = action[keyPath: toStackAction]
    var elementEffect = Effect<Base.Action>.none

    if case .element(let id, let elementAction) = stackAction {
      if var elementState = state[keyPath: toStackState][id: id] {
        let embed = Embed(toStackAction, into: action)
        elementEffect = element.reduce(into: &elementState, action: elementAction)
          .map({ embed(.element(id: id, action: $0)) }, dismissWith: { embed(.popFrom(id: id)) })
          .cancellable(id: StackElementCancelID(id: id))
        state[keyPath: toStackState][id: id] = elementState
      } else {
        reportIssue(
          """
          A "forEach" at "\(fileID):\(line)" received an action for a missing element \(id): \
          \(action)
          """
        )
      }
    }

    let baseEffect = base.reduce(into: &state, action: action)

    switch stackAction {
    case .popFrom(let id):
      state[keyPath: toStackState].pop(from: id)
    case .push(let id, let elementState):
      if let last = state[keyPath: toStackState].ids.last, id <= last {
        reportIssue(
          "A \"forEach\" at \"\(fileID):\(line)\" was asked to push id \(id), not above \(last)."
        )
      } else {
        state[keyPath: toStackState].append(elementState, id: id)
      }
    case .element, nil:
      break
    }

    let idsAfter = Set(state[keyPath: toStackState].ids)
    let cancellations = idsBefore.filter { !idsAfter.contains($0) }
      .map { Effect<Base.Action>.cancel(id: StackElementCancelID(id: $0)) }
    return .merge([elementEffect, baseEffect] + cancellations)
  }
}
