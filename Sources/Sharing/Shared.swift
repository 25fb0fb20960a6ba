import CustomDump
import Dependencies
import IdentifiedCollections

/// A reference to a value shared by many features. Copies of a `Shared` (and references derived
/// from it with `$value.member`, `$array[id:]`, `Shared($optional)`) all see the same value;
/// a write through any of them is seen by all at once and persisted by the root's key.
///
/// Read through `wrappedValue`; write only through `withLock`.
@dynamicMemberLookup
@propertyWrapper
public struct Shared<Value> {
  let reference: Reference<Value>

  init(reference: Reference<Value>) { self.reference = reference }

  /// A new, unkeyed shared value (`@Shared(value: 0) var count`, `Shared(value: .mock)`).
  /// Test failures name it by where it was created.
  public init(value: Value, fileID: StaticString = #fileID, line: UInt = #line) {
    let root = SharedRoot(value: value, name: "Shared<\(typeName(Value.self))>@\(fileID):\(line)")
    self.reference = PathReference(root: root, lens: IdentityLens())
  }

  /// The value shared under `key`; `value` is used only if nothing is shared or stored under it yet.
  public init(wrappedValue value: @autoclosure () -> Value, _ key: some SharedKey<Value>)
  where Value: Sendable {
    @Dependency(\.sharedRegistry) var registry
    let root = registry.root(for: key, default: value)
    self.reference = PathReference(root: root, lens: IdentityLens())
  }

  /// The value shared under a key that carries its default: `@Shared(.syncUps) var syncUps`.
  public init<Key: SharedKey<Value>>(_ key: SharedKeyDefault<Key>) where Value: Sendable {
    self.init(wrappedValue: key.defaultValue, key.base)
  }

  /// Overrides the key's default: `@Shared(.syncUps) var syncUps = [.mock]`.
  public init<Key: SharedKey<Value>>(
    wrappedValue value: @autoclosure () -> Value, _ key: SharedKeyDefault<Key>
  ) where Value: Sendable {
    self.init(wrappedValue: value(), key.base)
  }

  /// The non-nil value of a shared optional, or nil if it is nil now. If it becomes nil later
  /// (its element is removed from an identified array), reads return the last value it had and
  /// writes are no-ops.
  public init?(_ base: Shared<Value?>) {
    guard let value = base.reference.currentValue() else { return nil }
    self.reference = base.reference.appending(UnwrapLens(last: value))
  }

  /// Another reference to the same value (`self._count = $count` also works).
  public init(projectedValue: Shared<Value>) { self = projectedValue }

  public var wrappedValue: Value { reference.read() }

  public var projectedValue: Shared<Value> {
    get { self }
    set { self = newValue }
  }

  /// Mutates the value while holding its lock, so read-modify-write is one step even when many
  /// tasks write at once. Nested `withLock` on the same value from the body is allowed.
  @discardableResult
  public func withLock<R>(_ operation: (inout Value) throws -> R) rethrows -> R {
    try reference.modify(operation)
  }

  /// A reference to a part of the value: `$signUp.phoneNumber` is a `Shared<String>`.
  public subscript<Member>(dynamicMember keyPath: WritableKeyPath<Value, Member>) -> Shared<Member>
  {
    Shared<Member>(reference: reference.appending(KeyPathLens(keyPath)))
  }

  /// A read-only reference to a computed or read-only part of the value.
  public subscript<Member>(dynamicMember keyPath: KeyPath<Value, Member>) -> SharedReader<Member> {
    SharedReader(self)[dynamicMember: keyPath]
  }

  /// Why the stored value could not be loaded (the default is in use), if it could not.
  public var loadError: (any Error)? { reference.loadError }
  /// Why the last save failed (or a conflict that was resolved by keeping a copy), if any.
  public var saveError: (any Error)? { reference.saveError }

  /// Persists the current value now (file storage: writes a pending change and waits for it).
  public func save() throws { try reference.save() }
}

extension Shared: @unchecked Sendable where Value: Sendable {}

extension Shared where Value: Sendable {
  /// The current value, then every new value: for UIs and effects that follow the state.
  /// A derived reference emits whenever its root changes.
  public var values: AsyncStream<Value> {
    let reference = self.reference
    return AsyncStream { continuation in
      let subscription = reference.observe { continuation.yield($0) }
      continuation.onTermination = { _ in subscription.cancel() }
    }
  }
}

extension Shared {
  /// `$syncUps[id: id]`: a reference to one element, nil while it is absent. Writing nil removes it.
  public subscript<ID: Hashable, Element>(id id: ID) -> Shared<Element?>
  where Value == IdentifiedArray<ID, Element> {
    Shared<Element?>(reference: reference.appending(ElementLens<ID, Element>(id)))
  }
}

extension Array {
  /// `Array($syncUps)`: a reference for every element currently in the shared array.
  public init<ID: Hashable, E>(_ shared: Shared<IdentifiedArray<ID, E>>)
  where Element == Shared<E> {
    // compactMap: an element removed by another thread meanwhile is simply left out.
    self = shared.reference.currentValue().ids.compactMap { id in Shared(shared[id: id]) }
  }
}

// MARK: Equality and dumping for tests

extension Shared: Equatable where Value: Equatable {
  /// The same reference compares what a test expects (its root's snapshot, when the change
  /// tracker has one) with the current value; different references compare current values.
  public static func == (lhs: Self, rhs: Self) -> Bool {
    if lhs.reference.isSameReference(as: rhs.reference), lhs.reference.rootHasSnapshot {
      return lhs.reference.expectedValue() == rhs.reference.currentValue()
    }
    return lhs.reference.currentValue() == rhs.reference.currentValue()
  }
}

extension Shared: Hashable where Value: Hashable {
  public func hash(into hasher: inout Hasher) { hasher.combine(reference.currentValue()) }
}

extension Shared: _CustomDiffObject, CustomDumpRepresentable {
  public var _customDiffValues: (Any, Any) {
    (reference.expectedValue(), reference.currentValue())
  }
  public var _objectIdentifier: ObjectIdentifier { reference.identity }
  public var customDumpValue: Any { reference.currentValue() }
}

extension Shared: CustomStringConvertible {
  public var description: String { String(describing: reference.currentValue()) }
}
