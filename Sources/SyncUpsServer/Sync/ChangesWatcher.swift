import Logging
import PostgresNIO
import ServiceLifecycle

/// Wakes long-polling pulls when a push commits: one connection LISTENs for the pushes'
/// NOTIFY and reconnects when PostgreSQL goes away. The version cursor stays the truth: a lost
/// notification only makes a pull wait for its timeout.
public actor ChangesWatcher: Service {
  let client: PostgresClient
  let logger: Logger
  /// Counts wake-ups; a pull that read its changes at generation G waits only while it is G.
  private(set) var generation = 0
  private var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
  private var nextWaiter = 0

  public init(client: PostgresClient, logger: Logger) {
    self.client = client
    self.logger = logger
  }

  /// Listens until the application shuts down (a graceful shutdown cancels it).
  public nonisolated func run() async throws {
    try await cancelWhenGracefulShutdown { await self.listen() }
  }

  private nonisolated func listen() async {
    while !Task.isCancelled {
      do {
        try await client.withConnection { connection in
          try await connection.listen(on: Schema.changesChannel) { notifications in
            // Listening again after a reconnect: what was pushed meanwhile is read now.
            await self.wake()
            for try await _ in notifications { await self.wake() }
          }
        }
      } catch {
        if Task.isCancelled { break }
        logger.warning("listening for pushes failed; retrying in 1 s: \(String(describing: error))")
        await wake()
      }
      try? await Task.sleep(for: .seconds(1))
    }
  }

  func wake() {
    generation += 1
    for waiter in waiters.values { waiter.resume() }
    waiters = [:]
  }

  /// Returns when a push arrives after `generation`, or after `timeout`.
  func wait(after generation: Int, upTo timeout: Duration) async {
    guard generation == self.generation else { return }
    let id = nextWaiter
    nextWaiter += 1
    let timer = Task {
      try? await Task.sleep(for: timeout)
      self.release(id)
    }
    await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        waiters[id] = continuation
      }
    } onCancel: {
      Task { await self.release(id) }
    }
    timer.cancel()
  }

  private func release(_ id: Int) {
    waiters.removeValue(forKey: id)?.resume()
  }
}
