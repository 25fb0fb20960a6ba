import CustomDump
import Foundation
import Observation

/// The type-erased face of a root, for the change tracker and the registry.
class SharedRootBase: @unchecked Sendable {
  /// Guards everything in the root. Recursive: a `withLock` body may read the same reference.
  let lock = NSRecursiveLock()
  /// How messages name this reference: `Shared<Int>(.inMemory("count"))` or `Shared<Int>@File.swift:12`.
  let name: String
  /// The tracker this root was registered with, so mutations made outside its task-local scope
  /// (a detached task, another thread) are still recorded.
  weak var tracker: SharedChangeTracker?
  private var identityTokens: [AnyHashable: IdentityToken] = [:]

  init(name: String) { self.name = name }

  func withLock<R>(_ body: () throws -> R) rethrows -> R {
    lock.lock()
    defer { lock.unlock() }
    return try body()
  }

  /// One object per (root, path), so custom-dump can tell references apart by `ObjectIdentifier`.
  func identity(for path: AnyHashable) -> ObjectIdentifier {
    withLock {
      if let token = identityTokens[path] { return ObjectIdentifier(token) }
      let token = IdentityToken()
      identityTokens[path] = token
      return ObjectIdentifier(token)
    }
  }

  // Tracker hooks, overridden by `SharedRoot`.
  var hasSnapshot: Bool { false }
  var snapshotDiffersFromValue: Bool { false }
  func changeDescription() -> String? { nil }
  func dropSnapshot() {}
}

private final class IdentityToken {}

/// The one object behind every reference to a value: the value itself, the test snapshot, the
/// persistence key's connection, and the observers.
final class SharedRoot<Value>: SharedRootBase, Observable, @unchecked Sendable {
  var value: Value
  var snapshot: Value?
  var loadError: (any Error)?
  var saveError: (any Error)?
  /// Set for keyed references whose key can save (`SharedKey`). `element` is the id of the
  /// identified-array element the change went through (nil: the whole value may have changed).
  var saver: ((Value, _ immediately: Bool, _ element: AnyHashable?) throws -> Void)?
  var subscription: SharedSubscription?
  private var observers: [Int: (Value) -> Void] = [:]
  private var nextObserverID = 0
  let registrar = ObservationRegistrar()

  init(value: Value, name: String) {
    self.value = value
    super.init(name: name)
  }

  deinit { subscription?.cancel() }

  // MARK: Reading

  /// The current value, registering an Observation access.
  func currentValue() -> Value {
    registrar.access(self, keyPath: \.value)
    return withLock { value }
  }

  /// The value a test expects: the snapshot when there is one.
  func expectedValue() -> Value {
    withLock { snapshot ?? value }
  }

  // MARK: Writing

  /// Applies `body` to the value through `lens`, honouring the current test mode: in assertion
  /// mode it edits the snapshot only; while tracking it first records the snapshot.
  func modify<Part, R>(_ lens: Lens<Value, Part>, _ body: (inout Part) throws -> R) rethrows -> R {
    lock.lock()
    defer { lock.unlock() }
    if let tracker = SharedChangeTracker.assertingTracker {
      if snapshot == nil { snapshot = value }
      register(with: tracker)
      return try lens.modify(&snapshot!, body)
    }
    if let tracker = SharedChangeTracker.current ?? self.tracker {
      if snapshot == nil { snapshot = value }
      register(with: tracker)
    }
    // Also after a throwing body: what it changed before throwing is kept, so it is announced
    // and saved too.
    defer { didChange(persist: true, element: lens.rootElementID) }
    return try registrar.withMutation(of: self, keyPath: \.value) {
      try lens.modify(&value, body)
    }
  }

  /// A new value from the persistence key (another process edited the file): no save, no snapshot.
  func setFromStore(_ newValue: Value) {
    withLock {
      registrar.withMutation(of: self, keyPath: \.value) { value = newValue }
      didChange(persist: false)
    }
  }

  private func didChange(persist: Bool, element: AnyHashable? = nil) {
    let value = self.value
    for observer in observers.values { observer(value) }
    guard persist, let saver else { return }
    do {
      try saver(value, false, element)
    } catch {
      saveError = error
    }
  }

  /// Writes the current value now (file storage flushes its pending write).
  func save() throws {
    let (saver, value) = withLock { (self.saver, self.value) }
    do {
      try saver?(value, true, nil)
    } catch {
      withLock { saveError = error }
      throw error
    }
  }

  private func register(with tracker: SharedChangeTracker) {
    self.tracker = tracker
    tracker.register(self)
  }

  // MARK: Observers

  /// Calls `observer` with the current value now and after every change, under the root's lock:
  /// observers must be quick and must not block.
  func observe(_ observer: @escaping (Value) -> Void) -> SharedSubscription {
    withLock {
      let id = nextObserverID
      nextObserverID += 1
      observers[id] = observer
      observer(value)
      return SharedSubscription { [weak self] in
        self?.withLock { _ = self?.observers.removeValue(forKey: id) }
      }
    }
  }

  // MARK: Tracker hooks

  override var hasSnapshot: Bool { withLock { snapshot != nil } }

  override var snapshotDiffersFromValue: Bool {
    withLock {
      guard let snapshot else { return false }
      return !isEqualValue(snapshot, value)
    }
  }

  override func changeDescription() -> String? {
    withLock {
      guard let snapshot, !isEqualValue(snapshot, value) else { return nil }
      let difference =
        diff(snapshot, value, format: .proportional)
        ?? "  (no difference in dump)"
      return """
        Tracked changes to '\(name)' but failed to assert: …

        \(difference.indenting(by: 2))

        (Before: −, After: +)
        """
    }
  }

  override func dropSnapshot() { withLock { snapshot = nil } }
}

/// Equality for values that may or may not be Equatable: `==` when they are, otherwise their dumps.
func isEqualValue<T>(_ lhs: T, _ rhs: T) -> Bool {
  if let lhs = lhs as? any Equatable {
    func open<E: Equatable>(_ lhs: E) -> Bool { (rhs as? E).map { lhs == $0 } ?? false }
    return open(lhs)
  }
  return diff(lhs, rhs) == nil
}

extension String {
  func indenting(by count: Int) -> String {
    let indent = String(repeating: " ", count: count)
    return split(separator: "\n", omittingEmptySubsequences: false)
      .map { $0.isEmpty ? "" : indent + $0 }
      .joined(separator: "\n")
  }
}
