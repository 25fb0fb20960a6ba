import ConcurrencyExtras
import Dependencies
import IssueReporting

/// Work a reducer asks the store to do after it has changed state: send actions back, run async
/// operations, start or stop cancellable work. An effect is a plain description; the `Store` (or
/// `TestStore`) interprets it, so reducers stay pure and testable.
public struct Effect<Action> {
  enum Operation {
    /// Fed back into the store synchronously, right after the reducer that returned it.
    case send(Action)
    /// Started as a task. `cancelIDs` are registered with the store (outermost last).
    case run(Run)
    /// Cancels every in-flight task registered under the id.
    case cancel(AnyHashableSendable)
  }

  struct Run {
    var priority: TaskPriority?
    var cancelIDs: [CancelID] = []
    var body: @Sendable (Send<Action>) async -> Void
  }

  struct CancelID {
    var id: AnyHashableSendable
    var cancelInFlight: Bool
  }

  let operations: [Operation]

  /// An effect that does nothing.
  public static var none: Self { Self(operations: []) }

  /// Sends an action back into the store immediately after the reducer returns.
  public static func send(_ action: Action) -> Self { Self(operations: [.send(action)]) }

  /// Runs an async operation that can send actions back into the store.
  ///
  /// The operation runs with the dependencies that were in force when the reducer created the
  /// effect. A thrown error other than cancellation goes to `handler`, or is reported as an issue.
  public static func run(
    priority: TaskPriority? = nil,
    operation: @escaping @Sendable (_ send: Send<Action>) async throws -> Void,
    catch handler: (@Sendable (_ error: any Error, _ send: Send<Action>) async -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> Self {
    withEscapedDependencies { dependencies in
      Self(
        operations: [
          .run(
            Run(priority: priority) { send in
              await dependencies.yield {
                do {
                  try await operation(send)
                } catch is CancellationError {
                } catch {
                  guard let handler else {
                    reportIssue(
                      """
                      An "Effect.run" returned from "\(fileID):\(line)" threw an unhandled error: \
                      \(error)

                      Handle non-cancellation errors with the "catch" parameter of "Effect.run" \
                      or a "do" block.
                      """,
                      fileID: fileID, filePath: filePath, line: line, column: column
                    )
                    return
                  }
                  await handler(error, send)
                }
              }
            }
          )
        ]
      )
    }
  }

  /// Runs all effects at the same time.
  public static func merge(_ effects: Self...) -> Self { merge(effects) }

  /// Runs all effects at the same time.
  public static func merge(_ effects: some Sequence<Self>) -> Self {
    Self(operations: effects.flatMap(\.operations))
  }

  /// Merges this effect with another.
  public func merge(with other: Self) -> Self { Self(operations: operations + other.operations) }

  /// Marks the effect's work as cancellable by `id`. With `cancelInFlight`, work already running
  /// under `id` is cancelled before this one starts.
  public func cancellable(id: some Hashable & Sendable, cancelInFlight: Bool = false) -> Self {
    let cancelID = CancelID(id: AnyHashableSendable(id), cancelInFlight: cancelInFlight)
    return Self(
      operations: operations.map {
        guard case .run(var run) = $0 else { return $0 }
        run.cancelIDs.append(cancelID)
        return .run(run)
      }
    )
  }

  /// Cancels any in-flight work registered under `id`.
  public static func cancel(id: some Hashable & Sendable) -> Self {
    Self(operations: [.cancel(AnyHashableSendable(id))])
  }

  /// Transforms the actions the effect sends.
  public func map<NewAction>(
    _ transform: @escaping @Sendable (Action) -> NewAction
  ) -> Effect<NewAction> {
    map(transform, dismissWith: nil)
  }

  /// Transforms actions and, when `dismissAction` is given, makes `@Dependency(\.dismiss)` inside
  /// the effect send that parent action (how a presented child closes itself).
  func map<NewAction>(
    _ transform: @escaping @Sendable (Action) -> NewAction,
    dismissWith dismissAction: (@Sendable () -> NewAction)?
  ) -> Effect<NewAction> {
    Effect<NewAction>(
      operations: operations.map { operation -> Effect<NewAction>.Operation in
        switch operation {
        case .send(let action):
          return .send(transform(action))
        case .cancel(let id):
          return .cancel(id)
        case .run(let run):
          let body = run.body
          return .run(
            Effect<NewAction>.Run(
              priority: run.priority,
              cancelIDs: run.cancelIDs.map { .init(id: $0.id, cancelInFlight: $0.cancelInFlight) },
              body: { send in
                let childSend = Send<Action> { send(transform($0)) }
                guard let dismissAction else { return await body(childSend) }
                let dismiss = DismissEffect.Handler { await send(dismissAction()) }
                await DismissEffect.$handler.withValue(dismiss) {
                  await body(childSend)
                }
              }
            )
          )
        }
      }
    )
  }
}

/// The callable an `Effect.run` operation uses to send actions back into the store.
/// Actions sent after the effect's task was cancelled are dropped.
public struct Send<Action>: Sendable {
  let send: @MainActor @Sendable (Action) -> Void

  public init(send: @escaping @MainActor @Sendable (Action) -> Void) {
    self.send = send
  }

  @MainActor
  public func callAsFunction(_ action: Action) {
    guard !Task.isCancelled else { return }
    send(action)
  }
}
