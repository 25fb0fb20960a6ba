import Foundation

/// A thread of its own for blocking work (a C decoder, file reads and writes, fsync), so that
/// Swift's cooperative pool, which has one thread per core, never waits on it. Jobs run one at a
/// time, in the order they were submitted; async callers await their results.
public final class WorkerThread: Sendable {
  private let queue: JobQueue

  /// Starts the thread. It ends once this value is gone and the jobs already submitted have run.
  public init(name: String) {
    let queue = JobQueue()
    let thread = Thread { queue.drain() }
    thread.name = name
    thread.start()
    self.queue = queue
  }

  deinit { queue.close() }

  /// Runs `body` on this thread after the jobs before it, and returns what it returned.
  public func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
      queue.submit { continuation.resume(with: Result { try body() }) }
    }
  }

  /// Runs `body` on this thread after the jobs before it, without waiting for it.
  public func submit(_ body: @escaping @Sendable () -> Void) {
    queue.submit(body)
  }

  /// Runs `body` once on a new thread of its own, and returns what it returned.
  public static func run<T: Sendable>(
    name: String, _ body: @escaping @Sendable () throws -> T
  ) async throws -> T {
    try await WorkerThread(name: name).run(body)
  }
}

/// The jobs waiting for a worker thread, and whether more may come.
private final class JobQueue: @unchecked Sendable {
  private let condition = NSCondition()
  private var jobs: [@Sendable () -> Void] = []
  private var isClosed = false

  func submit(_ job: @escaping @Sendable () -> Void) {
    condition.withLock {
      jobs.append(job)
      condition.signal()
    }
  }

  func close() {
    condition.withLock {
      isClosed = true
      condition.signal()
    }
  }

  /// The thread's whole life: runs jobs as they come until closed and empty.
  func drain() {
    while true {
      let next: [@Sendable () -> Void] = condition.withLock {
        while jobs.isEmpty && !isClosed { condition.wait() }
        defer { jobs.removeAll() }
        return jobs
      }
      if next.isEmpty { return }
      for job in next { job() }
    }
  }
}
