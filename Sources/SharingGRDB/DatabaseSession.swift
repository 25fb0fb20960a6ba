import Foundation
import GRDB
import Sharing

/// The state behind one database-backed shared value: what the database holds as far as we
/// know, the change not yet written, and the observations that bring other writers' changes.
///
/// Every database access after the first load runs on `queue` (a thread of its own, never the
/// cooperative pool), one at a time, so a write and the observation of its own commit are seen
/// in order. Locks: the value's lock (through the context) may be taken before `lock`, never
/// after it.
final class DatabaseSession<Request: FetchKeyRequest>: @unchecked Sendable {
  typealias Value = Request.Value
  let request: Request
  let database: any DatabaseWriter
  weak var context: SharedKeyContext<Value>?
  let queue: DispatchQueue

  private let lock = NSLock()
  /// What the request last read (or would read) from the database.
  private var lastFetched: Value?
  /// The in-memory value the database reflects: the base of the next save's difference.
  private var base: Value?
  /// A change not yet written.
  private var pending: Value?
  /// The elements the changes not yet written went through (nil: the whole value).
  private var changed: Set<AnyHashable>? = []
  /// The value in memory as of the last change or update this session saw: what an explicit
  /// save writes (the value it is handed may be older than an update that came meanwhile).
  private var current: Value?

  init(request: Request, database: any DatabaseWriter, context: SharedKeyContext<Value>) {
    self.request = request
    self.database = database
    self.context = context
    self.queue = DispatchQueue(label: "SharingGRDB \(Request.self)")
  }

  func load() throws -> Value {
    let value = try database.read { db in try request.fetch(db) }
    lock.withLock {
      lastFetched = value
      base = value
      current = value
    }
    return value
  }

  /// In-process commits through GRDB observation; other processes' commits by polling.
  func subscribe() -> SharedSubscription {
    let observation = ValueObservation.tracking { [request] db in try request.fetch(db) }
      .removeDuplicates()
    let cancellable = observation.start(
      in: database, scheduling: .async(onQueue: queue),
      onError: { [weak self] error in self?.context?.reportLoadError(error) },
      onChange: { [weak self] value in self?.observed(value) }
    )
    let stopPolling = ExternalChanges.monitor(for: database)?.listen { [weak self] in
      guard let self else { return }
      queue.async { [weak self] in self?.refetch() }
    }
    // What another process committed between the load and the polling's baseline.
    if stopPolling != nil { queue.async { [weak self] in self?.refetch() } }
    return SharedSubscription {
      cancellable.cancel()
      stopPolling?()
    }
  }

  /// A value GRDB observation read after a commit. With concurrent readers it may have been
  /// read before a later save of ours: when it is news, read again here, after that save.
  private func observed(_ value: Value) {
    guard lock.withLock({ lastFetched != value }) else { return }
    refetch()
  }

  private func refetch() {
    do {
      received(try database.read { db in try request.fetch(db) })
    } catch {
      context?.reportLoadError(error)
    }
  }

  /// A value read from the database: adopted unless it is what we already know or our own
  /// unsaved change is waiting (the save that follows reads the database back).
  private func received(_ value: Value) {
    guard lock.withLock({ lastFetched != value }) else { return }
    guard let context else { return }
    context.withValueLock {
      lock.withLock { lastFetched = value }
      guard lock.withLock({ pending == nil }) else { return }
      context.update(value)
      lock.withLock {
        base = value
        current = value
      }
    }
  }
}

extension DatabaseSession where Request: DatabaseValueRequest {
  func save(_ value: Value, immediately: Bool, element: AnyHashable?) throws {
    if immediately {
      // After the writes queued before it, writes the latest value unless the database has it
      // already (`value` may be older than an update merged meanwhile: writing it would undo
      // another process's change). A write that failed before is tried again, its error thrown.
      try queue.sync {
        lock.withLock {
          guard pending == nil, current != base else { return }
          pending = current
          if changed?.isEmpty == true { changed = nil }
        }
        try flush()
      }
    } else {
      lock.withLock {
        pending = value
        current = value
        if let element { changed?.insert(element) } else { changed = nil }
      }
      queue.async { [self] in try? flush() }
    }
  }

  /// Writes the pending change, if any, in one transaction, and reads the value back: when it
  /// differs from ours (another process wrote meanwhile), every reference gets the merged value.
  func flush() throws {
    let job = lock.withLock { () -> (old: Value, new: Value, changed: Set<AnyHashable>?)? in
      guard let new = pending, let old = base else { return nil }
      pending = nil
      defer { changed = [] }
      return (old, new, changed)
    }
    guard let (old, new, elements) = job else { return }
    guard old != new else { return }
    let stored: Value
    do {
      stored = try database.write { db in
        try request.save(from: old, to: new, changed: elements, in: db)
        return try request.fetch(afterSaving: new, changed: elements, db)
      }
    } catch {
      // Rolled back: `base` stays, so the next save writes this change again.
      lock.withLock {
        if let elements, changed != nil { changed?.formUnion(elements) } else { changed = nil }
      }
      context?.reportSaveError(error)
      throw error
    }
    context?.reportSaveError(nil)
    guard let context else { return }
    context.withValueLock {
      lock.withLock {
        lastFetched = stored
        base = new
      }
      guard stored != request.stored(new), lock.withLock({ pending == nil }) else { return }
      context.update(stored)
      lock.withLock {
        base = stored
        current = stored
      }
    }
  }
}
