import IdentifiedCollections

/// A path from a root value to a part of it: how a derived reference reads and writes its part.
///
/// Lenses are classes so their generic `modify` can be overridden and stay `rethrows`; each one
/// has an `id` so two references built along the same path compare as the same reference.
class Lens<Root, Value>: @unchecked Sendable {
  var id: AnyHashable { fatalError("abstract") }
  /// The id of the identified-array element this path starts with, if it starts with one: a
  /// write along it changes that element of the root and nothing else.
  var rootElementID: AnyHashable? { nil }
  func get(_ root: Root) -> Value { fatalError("abstract") }
  func modify<R>(_ root: inout Root, _ body: (inout Value) throws -> R) rethrows -> R {
    fatalError("abstract")
  }
}

final class IdentityLens<Value>: Lens<Value, Value>, @unchecked Sendable {
  override var id: AnyHashable { "self" }
  override func get(_ root: Value) -> Value { root }
  override func modify<R>(_ root: inout Value, _ body: (inout Value) throws -> R) rethrows -> R {
    try body(&root)
  }
}

/// `$value.member`: a writable key path. Key paths are immutable, so sharing them is safe.
final class KeyPathLens<Root, Value>: Lens<Root, Value>, @unchecked Sendable {
  let keyPath: WritableKeyPath<Root, Value>
  init(_ keyPath: WritableKeyPath<Root, Value>) { self.keyPath = keyPath }
  override var id: AnyHashable { keyPath }
  override func get(_ root: Root) -> Value { root[keyPath: keyPath] }
  override func modify<R>(_ root: inout Root, _ body: (inout Value) throws -> R) rethrows -> R {
    try body(&root[keyPath: keyPath])
  }
}

/// `$array[id: id]`: an element of an identified array, `nil` when absent. Writing `nil` removes
/// the element, writing a value when absent appends it (IdentifiedArray's own subscript rules).
final class ElementLens<ID: Hashable, Element>: Lens<IdentifiedArray<ID, Element>, Element?>,
  @unchecked Sendable
{
  let elementID: ID
  init(_ id: ID) { self.elementID = id }
  override var id: AnyHashable { ElementPathID(id: AnyHashable(elementID)) }
  override var rootElementID: AnyHashable? { AnyHashable(elementID) }
  override func get(_ root: IdentifiedArray<ID, Element>) -> Element? { root[id: elementID] }
  override func modify<R>(
    _ root: inout IdentifiedArray<ID, Element>, _ body: (inout Element?) throws -> R
  ) rethrows -> R {
    // In place: no copy of the element (or of the arrays inside it) per write.
    try body(&root[id: elementID])
  }
}

struct ElementPathID: Hashable { let id: AnyHashable }
struct UnwrapPathID: Hashable {}

/// `Shared($optional)`: the wrapped value of an optional that was non-nil when the reference was
/// made. When the value later becomes nil (e.g. the element was removed from its array), reads
/// return the last value seen and writes change only a throwaway copy: they are no-ops.
///
/// `last` is only touched under the root's lock (every read and write of a root holds it).
final class UnwrapLens<Value>: Lens<Value?, Value>, @unchecked Sendable {
  private var last: Value
  init(last: Value) { self.last = last }
  override var id: AnyHashable { UnwrapPathID() }
  override func get(_ root: Value?) -> Value {
    if let root { last = root }
    return last
  }
  override func modify<R>(_ root: inout Value?, _ body: (inout Value) throws -> R) rethrows -> R {
    guard var value = root else {
      var copy = last
      return try body(&copy)
    }
    let result = try body(&value)
    root = value
    last = value
    return result
  }
}

/// A path followed by another: derived-of-derived references.
final class ComposedLens<Root, Middle, Value>: Lens<Root, Value>, @unchecked Sendable {
  let first: Lens<Root, Middle>
  let second: Lens<Middle, Value>
  init(_ first: Lens<Root, Middle>, _ second: Lens<Middle, Value>) {
    self.first = first
    self.second = second
  }
  override var id: AnyHashable { [first.id, second.id] }
  override var rootElementID: AnyHashable? { first.rootElementID }
  override func get(_ root: Root) -> Value { second.get(first.get(root)) }
  override func modify<R>(_ root: inout Root, _ body: (inout Value) throws -> R) rethrows -> R {
    try first.modify(&root) { middle in try second.modify(&middle, body) }
  }
}

/// Appends `next` to `lens`, keeping paths flat for identity: root → a → b has the same id
/// whichever way it was built.
func compose<Root, Middle, Value>(
  _ lens: Lens<Root, Middle>, _ next: Lens<Middle, Value>
) -> Lens<Root, Value> {
  if lens is IdentityLens<Root>, let next = next as? Lens<Root, Value> { return next }
  return ComposedLens(lens, next)
}

/// A read-only key path, for `SharedReader`. Writes never reach it: readers cannot write.
final class ReadOnlyLens<Root, Value>: Lens<Root, Value>, @unchecked Sendable {
  let keyPath: KeyPath<Root, Value>
  init(_ keyPath: KeyPath<Root, Value>) { self.keyPath = keyPath }
  override var id: AnyHashable { keyPath }
  override func get(_ root: Root) -> Value { root[keyPath: keyPath] }
  override func modify<R>(_ root: inout Root, _ body: (inout Value) throws -> R) rethrows -> R {
    var copy = root[keyPath: keyPath]
    return try body(&copy)
  }
}
