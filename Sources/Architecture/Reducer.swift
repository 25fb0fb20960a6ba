/// A feature's logic: how an action changes state, and what effects follow.
///
/// Conform either by implementing `reduce(into:action:)`, or by composing other reducers in
/// `body` (a `ReducerBuilder`), as in the Composable Architecture.
public protocol Reducer<State, Action> {
  associatedtype State
  associatedtype Action
  associatedtype Body

  func reduce(into state: inout State, action: Action) -> Effect<Action>

  @ReducerBuilder<State, Action>
  var body: Body { get }
}

public typealias ReducerOf<R: Reducer> = Reducer<R.State, R.Action>

extension Reducer where Body == Never {
  public var body: Body {
    fatalError("'\(Self.self)' has no body: it implements 'reduce(into:action:)'.")
  }
}

extension Reducer where Body: Reducer, Body.State == State, Body.Action == Action {
  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    body.reduce(into: &state, action: action)
  }
}

/// A reducer made from a closure.
public struct Reduce<State, Action>: Reducer {
  let reduce: (inout State, Action) -> Effect<Action>

  public init(_ reduce: @escaping (_ state: inout State, _ action: Action) -> Effect<Action>) {
    self.reduce = reduce
  }

  public init(_ reducer: some Reducer<State, Action>) {
    self.reduce = { reducer.reduce(into: &$0, action: $1) }
  }

  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    reduce(&state, action)
  }
}

/// A reducer that does nothing.
public struct EmptyReducer<State, Action>: Reducer {
  public init() {}
  public func reduce(into state: inout State, action: Action) -> Effect<Action> { .none }
}

/// Groups reducers, e.g. to apply a modifier to all of them at once.
public struct CombineReducers<State, Action, Reducers: Reducer>: Reducer
where Reducers.State == State, Reducers.Action == Action {
  let reducers: Reducers

  public init(@ReducerBuilder<State, Action> _ build: () -> Reducers) {
    self.reducers = build()
  }

  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    reducers.reduce(into: &state, action: action)
  }
}

@resultBuilder
public enum ReducerBuilder<State, Action> {
  public static func buildBlock() -> EmptyReducer<State, Action> { EmptyReducer() }

  public static func buildExpression<R: Reducer<State, Action>>(_ expression: R) -> R { expression }

  public static func buildPartialBlock<R: Reducer<State, Action>>(first: R) -> R { first }

  public static func buildPartialBlock<R0: Reducer<State, Action>, R1: Reducer<State, Action>>(
    accumulated: R0, next: R1
  ) -> _Sequence<R0, R1> {
    _Sequence(first: accumulated, second: next)
  }

  public static func buildOptional<R: Reducer<State, Action>>(_ wrapped: R?) -> _Optional<R> {
    _Optional(wrapped: wrapped)
  }

  public static func buildEither<R0: Reducer<State, Action>, R1: Reducer<State, Action>>(
    first: R0
  ) -> _Conditional<R0, R1> {
    .first(first)
  }

  public static func buildEither<R0: Reducer<State, Action>, R1: Reducer<State, Action>>(
    second: R1
  ) -> _Conditional<R0, R1> {
    .second(second)
  }

  public static func buildLimitedAvailability<R: Reducer<State, Action>>(
    _ wrapped: R
  ) -> Reduce<State, Action> {
    Reduce(wrapped)
  }

  /// Runs `first`, then `second`; their effects are merged.
  public struct _Sequence<R0: Reducer<State, Action>, R1: Reducer<State, Action>>: Reducer {
    let first: R0
    let second: R1
    public func reduce(into state: inout State, action: Action) -> Effect<Action> {
      let firstEffect = first.reduce(into: &state, action: action)
      return firstEffect.merge(with: second.reduce(into: &state, action: action))
    }
  }

  public struct _Optional<Wrapped: Reducer<State, Action>>: Reducer {
    let wrapped: Wrapped?
    public func reduce(into state: inout State, action: Action) -> Effect<Action> {
      wrapped?.reduce(into: &state, action: action) ?? .none
    }
  }

  public enum _Conditional<First: Reducer<State, Action>, Second: Reducer<State, Action>>: Reducer {
    case first(First)
    case second(Second)
    public func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch self {
      case .first(let first): first.reduce(into: &state, action: action)
      case .second(let second): second.reduce(into: &state, action: action)
      }
    }
  }
}

extension Reducer {
  /// Runs `reducer` after this one whenever the value at `toValue` changed.
  public func onChange<Value: Equatable, Changed: Reducer<State, Action>>(
    of toValue: @escaping (State) -> Value,
    @ReducerBuilder<State, Action> _ reducer:
      @escaping (_ oldValue: Value, _ newValue: Value) -> Changed
  ) -> _OnChangeReducer<Self, Value, Changed> {
    _OnChangeReducer(base: self, toValue: toValue, reducer: reducer)
  }
}

public struct _OnChangeReducer<Base: Reducer, Value: Equatable, Changed: Reducer>: Reducer
where Changed.State == Base.State, Changed.Action == Base.Action {
  let base: Base
  let toValue: (Base.State) -> Value
  let reducer: (Value, Value) -> Changed

  public func reduce(into state: inout Base.State, action: Base.Action) -> Effect<Base.Action> {
    let oldValue = toValue(state)
    let effect = base.reduce(into: &state, action: action)
    let newValue = toValue(state)
    guard oldValue != newValue else { return effect }
    return effect.merge(with: reducer(oldValue, newValue).reduce(into: &state, action: action))
  }
}
