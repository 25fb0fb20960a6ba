import CustomDump
import Dependencies
import IdentifiedCollections

/// A read-only reference to shared state: sees every change, cannot write.
@dynamicMemberLookup
@propertyWrapper
public struct SharedReader<Value> {
  let reference: Reference<Value>

  init(reference: Reference<Value>) { self.reference = reference }

  /// A read-only view of `shared` (and of every change made through it).
  public init(_ shared: Shared<Value>) { self.reference = shared.reference }

  /// A constant.
  public init(value: Value, fileID: StaticString = #fileID, line: UInt = #line) {
    self.init(Shared(value: value, fileID: fileID, line: line))
  }

  public init(wrappedValue value: @autoclosure () -> Value, _ key: some SharedReaderKey<Value>)
  where Value: Sendable {
    @Dependency(\.sharedRegistry) var registry
    let root = registry.root(for: key, default: value)
    self.reference = PathReference(root: root, lens: IdentityLens())
  }

  public init<Key: SharedReaderKey<Value>>(_ key: SharedKeyDefault<Key>) where Value: Sendable {
    self.init(wrappedValue: key.defaultValue, key.base)
  }

  public init?(_ base: SharedReader<Value?>) {
    guard let value = base.reference.currentValue() else { return nil }
    self.reference = base.reference.appending(UnwrapLens(last: value))
  }

  public var wrappedValue: Value { reference.read() }

  public var projectedValue: SharedReader<Value> {
    get { self }
    set { self = newValue }
  }

  public subscript<Member>(dynamicMember keyPath: KeyPath<Value, Member>) -> SharedReader<Member> {
    SharedReader<Member>(reference: reference.appending(ReadOnlyLens(keyPath)))
  }

  public var loadError: (any Error)? { reference.loadError }
}

extension SharedReader: @unchecked Sendable where Value: Sendable {}

extension SharedReader where Value: Sendable {
  /// The current value, then every new value.
  public var values: AsyncStream<Value> { Shared(reference: reference).values }
}

extension SharedReader {
  public subscript<ID: Hashable, Element>(id id: ID) -> SharedReader<Element?>
  where Value == IdentifiedArray<ID, Element> {
    SharedReader<Element?>(reference: reference.appending(ElementLens<ID, Element>(id)))
  }
}

extension SharedReader: Equatable where Value: Equatable {
  public static func == (lhs: Self, rhs: Self) -> Bool {
    Shared(reference: lhs.reference) == Shared(reference: rhs.reference)
  }
}

extension SharedReader: Hashable where Value: Hashable {
  public func hash(into hasher: inout Hasher) { hasher.combine(reference.currentValue()) }
}

extension SharedReader: _CustomDiffObject, CustomDumpRepresentable {
  public var _customDiffValues: (Any, Any) {
    (reference.expectedValue(), reference.currentValue())
  }
  public var _objectIdentifier: ObjectIdentifier { reference.identity }
  public var customDumpValue: Any { reference.currentValue() }
}

extension SharedReader: CustomStringConvertible {
  public var description: String { String(describing: reference.currentValue()) }
}
