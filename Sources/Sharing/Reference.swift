import Foundation

/// What a `Shared` or `SharedReader` holds: a root and a path into it. Type-erased over the
/// root's type so `Shared<Member>` does not need to know the root it was derived from.
class Reference<Value>: @unchecked Sendable {
  var root: SharedRootBase { fatalError("abstract") }
  /// Identifies the path from the root; with the root, identifies the reference.
  var pathID: AnyHashable { fatalError("abstract") }
  /// The current value (the snapshot while a tracker asserts).
  func read() -> Value { fatalError("abstract") }
  /// The current value, ignoring any test mode.
  func currentValue() -> Value { fatalError("abstract") }
  /// The value a test expects: derived from the root's snapshot when there is one.
  func expectedValue() -> Value { fatalError("abstract") }
  var rootHasSnapshot: Bool { fatalError("abstract") }
  func modify<R>(_ body: (inout Value) throws -> R) rethrows -> R { fatalError("abstract") }
  func appending<Member>(_ lens: Lens<Value, Member>) -> Reference<Member> {
    fatalError("abstract")
  }
  func observe(_ observer: @escaping (Value) -> Void) -> SharedSubscription {
    fatalError("abstract")
  }
  var loadError: (any Error)? { fatalError("abstract") }
  var saveError: (any Error)? { fatalError("abstract") }
  func save() throws { fatalError("abstract") }

  var identity: ObjectIdentifier { root.identity(for: pathID) }
  func isSameReference(as other: Reference<Value>) -> Bool {
    root === other.root && pathID == other.pathID
  }
}

final class PathReference<RootValue, Value>: Reference<Value>, @unchecked Sendable {
  let base: SharedRoot<RootValue>
  let lens: Lens<RootValue, Value>

  init(root: SharedRoot<RootValue>, lens: Lens<RootValue, Value>) {
    self.base = root
    self.lens = lens
  }

  override var root: SharedRootBase { base }
  override var pathID: AnyHashable { lens.id }

  override func read() -> Value {
    if SharedChangeTracker.assertingTracker != nil {
      return base.withLock { lens.get(base.snapshot ?? base.value) }
    }
    return currentValue()
  }

  override func currentValue() -> Value {
    base.registrar.access(base, keyPath: \.value)
    return base.withLock { lens.get(base.value) }
  }

  override func expectedValue() -> Value {
    base.withLock { lens.get(base.snapshot ?? base.value) }
  }

  override var rootHasSnapshot: Bool { base.hasSnapshot }

  override func modify<R>(_ body: (inout Value) throws -> R) rethrows -> R {
    try base.modify(lens, body)
  }

  override func appending<Member>(_ next: Lens<Value, Member>) -> Reference<Member> {
    PathReference<RootValue, Member>(root: base, lens: compose(lens, next))
  }

  override func observe(_ observer: @escaping (Value) -> Void) -> SharedSubscription {
    let lens = self.lens
    return base.observe { observer(lens.get($0)) }
  }

  override var loadError: (any Error)? { base.withLock { base.loadError } }
  override var saveError: (any Error)? { base.withLock { base.saveError } }
  override func save() throws { try base.save() }
}
