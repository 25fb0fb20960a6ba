import Foundation
import GRDB

/// Tells listeners when another process committed to a database file, by polling
/// `PRAGMA data_version` on the writer connection (it changes only when another connection
/// commits). Changes made in this process reach observers through GRDB observation instead.
final class ExternalChanges: @unchecked Sendable {
  /// How often the file is polled: other processes' commits arrive within this.
  static let interval: DispatchTimeInterval = .milliseconds(250)

  private static let lock = NSLock()
  nonisolated(unsafe) private static var monitors: [ObjectIdentifier: Weak] = [:]  // under `lock`
  private final class Weak {
    weak var monitor: ExternalChanges?
    init(_ m: ExternalChanges) { monitor = m }
  }

  /// The monitor of `database`, started with its first listener; nil for in-memory databases.
  static func monitor(for database: any DatabaseWriter) -> ExternalChanges? {
    guard !database.path.isEmpty, database.path != ":memory:",
      !database.path.hasPrefix("file::memory:")
    else { return nil }
    return lock.withLock {
      let id = ObjectIdentifier(database)
      if let monitor = monitors[id]?.monitor { return monitor }
      let monitor = ExternalChanges(database: database)
      monitors[id] = Weak(monitor)
      return monitor
    }
  }

  private weak var database: (any DatabaseWriter)?
  private let queue = DispatchQueue(label: "SharingGRDB.ExternalChanges")
  private let lock = NSLock()
  private var listeners: [Int: @Sendable () -> Void] = [:]
  private var nextID = 0
  private var timer: (any DispatchSourceTimer)?
  private var lastVersion: Int?

  private init(database: any DatabaseWriter) { self.database = database }

  deinit { timer?.cancel() }

  /// Calls `listener` (on a queue of the monitor's) after each outside commit, until the
  /// returned closure is called. The monitor lives as long as that closure.
  func listen(_ listener: @escaping @Sendable () -> Void) -> @Sendable () -> Void {
    let id = lock.withLock {
      defer { nextID += 1 }
      listeners[nextID] = listener
      if timer == nil { start() }
      return nextID
    }
    return { [self] in lock.withLock { _ = listeners.removeValue(forKey: id) } }
  }

  private func start() {
    // The baseline, now: a commit after this is a change even if it comes before the first tick.
    lastVersion = version()
    let timer = DispatchSource.makeTimerSource(queue: queue)
    timer.schedule(deadline: .now() + Self.interval, repeating: Self.interval)
    timer.setEventHandler { [weak self] in self?.poll() }
    timer.resume()
    self.timer = timer
  }

  private func version() -> Int? {
    guard let database else { return nil }
    return try? database.writeWithoutTransaction { db in
      try Int.fetchOne(db, sql: "PRAGMA data_version")
    }
  }

  private func poll() {
    guard let version = version() else { return }
    let changed = lock.withLock {
      defer { lastVersion = version }
      return lastVersion != nil && lastVersion != version
    }
    guard changed else { return }
    for listener in lock.withLock({ Array(listeners.values) }) { listener() }
  }
}
