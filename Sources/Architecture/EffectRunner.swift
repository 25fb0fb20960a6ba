import ConcurrencyExtras

/// Starts the work an effect describes and keeps track of it: which tasks are in flight and
/// under which cancellation ids. Shared by `Store` and `TestStore`.
@MainActor
final class EffectRunner {
  private(set) var inFlight: [Int: Task<Void, Never>] = [:]
  private var cancellables: [AnyHashableSendable: Set<Int>] = [:]
  private var nextKey = 0
  /// What `@Dependency(\.dismiss)` does in a feature run directly by this store.
  let dismissHandler: @Sendable () async -> Void

  init(dismissHandler: @escaping @Sendable () async -> Void) {
    self.dismissHandler = dismissHandler
  }

  /// Runs `effect`: `.send` actions go to `sendNow` (synchronously, in order), async work is
  /// started as tasks whose actions go through `send`. Returns the keys of the started tasks.
  func start<Action>(
    _ effect: Effect<Action>,
    send: Send<Action>,
    sendNow: (Action) -> Void
  ) -> [Int] {
    var started: [Int] = []
    for operation in effect.operations {
      switch operation {
      case .send(let action):
        sendNow(action)
      case .cancel(let id):
        cancel(id: id)
      case .run(let run):
        for cancelID in run.cancelIDs where cancelID.cancelInFlight {
          cancel(id: cancelID.id)
        }
        let key = nextKey
        nextKey += 1
        let dismiss = DismissEffect.Handler(dismiss: dismissHandler)
        inFlight[key] = Task(priority: run.priority) { [weak self] in
          await DismissEffect.$handler.withValue(dismiss) {
            await run.body(send)
          }
          self?.finished(key)
        }
        for cancelID in run.cancelIDs {
          cancellables[cancelID.id, default: []].insert(key)
        }
        started.append(key)
      }
    }
    return started
  }

  /// Cancels the work under `id`. It no longer counts as in flight, even while it winds down.
  func cancel(id: AnyHashableSendable) {
    for key in cancellables.removeValue(forKey: id) ?? [] {
      cancel(key: key)
    }
  }

  func cancel(key: Int) {
    inFlight.removeValue(forKey: key)?.cancel()
  }

  func cancelAll() {
    for key in inFlight.keys { cancel(key: key) }
    cancellables.removeAll()
  }

  private func finished(_ key: Int) {
    inFlight[key] = nil
    for id in cancellables.keys {
      cancellables[id]?.remove(key)
      if cancellables[id]?.isEmpty == true { cancellables[id] = nil }
    }
  }
}
