import Foundation

/// A thread of its own for blocking work (a C decoder, file reads and writes, fsync), so that
/// Swift's cooperative pool, which has one thread per core, never waits on it. Jobs run one at a
/// time, in the order they were submitted; async callers await their results.
public final class WorkerThread: Sendable {
  private let queue: JobQueue

  /// Starts the thread. It ends once this value is gone and the jobs already submitted have run.
  /// `stackSize` (bytes) gives deep C code room (a speech decoder wants 8 MB); 0: the default.
  public init(name: String, stackSize: Int = 0) {
    let queue = JobQueue()
    let thread = Thread { queue.drain() }
    thread.name = name
    if stackSize > 0 { thread.stackSize = stackSize }
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

  /// Runs `body` on this thread after the jobs before it, and returns what it returned; a long
  /// job polls `stop.isSet` and returns early once the awaiting task is cancelled.
  public func run<T: Sendable>(
    cancellable body: @escaping @Sendable (_ stop: StopFlag) throws -> T
  ) async throws -> T {
    let stop = StopFlag()
    return try await withTaskCancellationHandler {
      try await run { try body(stop) }
    } onCancel: {
      stop.set()
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

/// Set once, from any thread, to ask a job to stop; the job polls it.
public final class StopFlag: @unchecked Sendable {
  private let lock = NSLock()
  private var value = false

  public init() {}

  public var isSet: Bool { lock.withLock { value } }

  public func set() { lock.withLock { value = true } }
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

/// A value that is not thread-safe (a C decoder, an open file), used only by jobs of one
/// worker thread: the jobs run one at a time, so handing the box across is safe.
public final class ThreadConfined<Value>: @unchecked Sendable {
  public var value: Value

  public init(_ value: Value) { self.value = value }
}
