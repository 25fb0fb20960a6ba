import Foundation
import Testing

/// For the few tests that block the thread they run on (a decoder run in-process): each test
/// runs on a thread of its own, at most two such tests at a time, so the two threads of the
/// cooperative pool stay free for the tests that wait on a clock, a terminal or a microphone.
/// Without it, two long blocking tests held both pool threads and a recording driven through
/// tmux was never looked at until its pane had closed. A test that runs a program does not need
/// it: `ChildProcess` awaits the exit.
public struct OwnThread: SuiteTrait, TestTrait, TestScoping {
  public var isRecursive: Bool { true }

  public func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
    testCase == nil ? nil : self
  }

  public func provideScope(
    for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
  ) async throws {
    await Self.slots.acquire()
    let executor = ThreadExecutor()
    var failure: (any Error)?
    do {
      try await withTaskExecutorPreference(executor) { try await function() }
    } catch {
      failure = error
    }
    executor.stop()
    await Self.slots.release()
    if let failure { throw failure }
  }

  /// As many blocking tests at once as the pool had threads before: the machine's cores.
  static let slots = Slots(ProcessInfo.processInfo.activeProcessorCount)
}

/// The name of the thread running this (at most 15 characters, as Linux keeps them).
public func currentThreadName() -> String {
  let name = try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)
  return name?.trimmingCharacters(in: .newlines) ?? ""
}

/// True on a thread of `.ownThread`.
public var isOnOwnTestThread: Bool {
  currentThreadName() == String(ThreadExecutor.threadName.prefix(15))
}

extension Trait where Self == OwnThread {
  /// Each test on a thread of its own (see `OwnThread`).
  public static var ownThread: Self { OwnThread() }
}

/// A counting semaphore whose waiters suspend rather than block.
actor Slots {
  private var free: Int
  private var waiting: [CheckedContinuation<Void, Never>] = []

  init(_ count: Int) { free = max(1, count) }

  func acquire() async {
    if free > 0 {
      free -= 1
      return
    }
    await withCheckedContinuation { waiting.append($0) }
  }

  func release() {
    if waiting.isEmpty {
      free += 1
    } else {
      waiting.removeFirst().resume()
    }
  }
}

/// A task executor with one thread of its own. After `stop`, jobs still sent to it (a task
/// that outlived its test) go to the global executor.
final class ThreadExecutor: TaskExecutor, @unchecked Sendable {
  private let condition = NSCondition()
  private var jobs: [UnownedJob] = []
  private var stopped = false

  /// Its threads are named this (what `pthread_getname_np` reads).
  static let threadName = "own test thread"

  init() {
    Thread { [self] in
      try? Self.threadName.prefix(15).write(
        toFile: "/proc/thread-self/comm", atomically: false, encoding: .utf8)
      run()
    }.start()
  }

  func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    let accepted = condition.withLock {
      guard !stopped else { return false }
      jobs.append(job)
      condition.signal()
      return true
    }
    if !accepted { globalConcurrentExecutor.enqueue(job) }
  }

  func stop() {
    condition.withLock {
      stopped = true
      condition.signal()
    }
  }

  private func run() {
    while true {
      let next: UnownedJob? = condition.withLock {
        while jobs.isEmpty, !stopped { condition.wait() }
        return jobs.isEmpty ? nil : jobs.removeFirst()
      }
      guard let next else { return }
      next.runSynchronously(on: asUnownedTaskExecutor())
    }
  }
}
