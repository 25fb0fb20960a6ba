import Foundation
import Testing
import WorkerThreads

@Suite struct WorkerThreadTests {
  @Test func jobsRunInOrderOnTheirOwnThread() async throws {
    let worker = WorkerThread(name: "test-worker")
    let first = try await worker.run { ThreadID.current }
    let second = try await worker.run { ThreadID.current }
    let other = try await WorkerThread.run(name: "other") { ThreadID.current }
    #expect(first == second)
    #expect(first != other)
    let order = Order()
    for index in 0..<100 { worker.submit { order.append(index) } }
    let seen = try await worker.run { order.values }
    #expect(seen == Array(0..<100))
  }

  @Test func errorsReachTheCaller() async {
    struct Failure: Error, Equatable {}
    await #expect(throws: Failure.self) {
      try await WorkerThread.run(name: "failing") { throw Failure() }
    }
  }

  /// More blocked jobs than the cooperative pool has threads: on the pool this would deadlock,
  /// because the task that releases them could never run.
  @Test func blockedJobsLeaveThePoolFree() async throws {
    let count = ProcessInfo.processInfo.activeProcessorCount + 2
    let gate = DispatchSemaphore(value: 0)
    let started = AsyncStream<Void>.makeStream()
    let results = Task {
      try await withThrowingTaskGroup(of: Int.self) { group in
        for index in 0..<count {
          group.addTask {
            try await WorkerThread.run(name: "blocked-\(index)") {
              started.continuation.yield()
              gate.wait()
              return index
            }
          }
        }
        return try await group.reduce(0, +)
      }
    }
    var seen = 0
    for await _ in started.stream {
      seen += 1
      if seen == count { break }
    }
    for _ in 0..<count { gate.signal() }
    #expect(try await results.value == (0..<count).reduce(0, +))
  }
}

private final class Order: @unchecked Sendable {
  private let lock = NSLock()
  private var stored: [Int] = []
  func append(_ value: Int) { lock.withLock { stored.append(value) } }
  var values: [Int] { lock.withLock { stored } }
}

/// Which thread this is.
private struct ThreadID: Equatable, Sendable {
  let raw: UInt
  static var current: ThreadID { ThreadID(raw: UInt(pthread_self())) }
}
