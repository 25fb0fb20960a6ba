import Dependencies
import Foundation

/// Where keyed references live, so two `@Shared(.inMemory("count"))` share one value. It also
/// is the in-memory storage: values stay here for the life of the registry.
///
/// Reached through the `sharedRegistry` dependency: the live app has one for the process; each
/// test gets its own (swift-dependencies caches test values per swift-testing test), so tests
/// running in parallel never see each other's shared values.
public final class SharedRegistry: @unchecked Sendable {
  private let lock = NSRecursiveLock()
  private var roots: [Entry: SharedRootBase] = [:]

  public init() {}

  struct Entry: Hashable {
    let keyType: ObjectIdentifier
    let valueType: ObjectIdentifier
    let id: AnyHashable
  }

  /// The root for `key`, created (loaded from the key's storage, else `defaultValue`) if new.
  func root<Key: SharedReaderKey>(
    for key: Key, default defaultValue: () -> Key.Value
  ) -> SharedRoot<Key.Value> {
    let keyType = (key as? any DefaultedKey)?.baseKeyType ?? Key.self
    let entry = Entry(
      keyType: ObjectIdentifier(keyType),
      valueType: ObjectIdentifier(Key.Value.self),
      id: AnyHashable(key.id)
    )
    lock.lock()
    defer { lock.unlock() }
    if let root = roots[entry] as? SharedRoot<Key.Value> { return root }

    let initialValue = defaultValue()
    let root = SharedRoot(
      value: initialValue,
      name: "Shared<\(typeName(Key.Value.self))>(\(key.description))"
    )
    let context = SharedKeyContext(root: root, initialValue: initialValue)
    do {
      if let loaded = try key.load(context: context) { root.value = loaded }
    } catch {
      root.loadError = error
    }
    if let key = key as? any SharedKey<Key.Value> {
      root.saver = { value, immediately, element in
        context.changedElementID = element
        try key.save(value, context: context, immediately: immediately)
      }
    }
    root.subscription = key.subscribe(context: context)
    roots[entry] = root
    return root
  }
}

private enum SharedRegistryKey: DependencyKey {
  static var liveValue: SharedRegistry { SharedRegistry.live }
  static var testValue: SharedRegistry { SharedRegistry() }
}

extension SharedRegistry {
  static let live = SharedRegistry()
}

extension DependencyValues {
  /// The registry of keyed shared values (and the in-memory storage). See `SharedRegistry`.
  public var sharedRegistry: SharedRegistry {
    get { self[SharedRegistryKey.self] }
    set { self[SharedRegistryKey.self] = newValue }
  }
}

func typeName(_ type: Any.Type) -> String {
  var name = _typeName(type, qualified: false)
  // IdentifiedArray<UUID, Item> reads better as IdentifiedArrayOf<Item>.
  if name.hasPrefix("IdentifiedArray<"), let comma = name.firstIndex(of: ",") {
    name = "IdentifiedArrayOf<" + name[name.index(after: comma)...].drop(while: { $0 == " " })
  }
  return name
}
