import Foundation

/// A persistence strategy that can load a value and report changes made outside the app.
///
/// The registry calls `load` and then `subscribe` once, synchronously, when the first reference
/// with this key's `id` is created (so a key may read dependencies there), and keeps the value
/// for every later reference with the same `id` and value type.
public protocol SharedReaderKey<Value>: Sendable, CustomStringConvertible {
  associatedtype Value: Sendable
  associatedtype ID: Hashable & Sendable
  /// Two keys with equal ids (and the same value type) share one value.
  var id: ID { get }
  /// The stored value, or nil when nothing is stored (the reference then uses its default).
  /// Throwing means something is stored but unusable: the reference keeps its default and
  /// exposes the error as `loadError`.
  func load(context: SharedKeyContext<Value>) throws -> Value?
  /// Starts reporting outside changes through `context.update(...)`/`context.reportLoadError`.
  func subscribe(context: SharedKeyContext<Value>) -> SharedSubscription
}

/// A persistence strategy that can also save.
public protocol SharedKey<Value>: SharedReaderKey {
  /// Called after every change. `immediately == false` lets the key coalesce writes; `true`
  /// (an explicit `save()`/flush) must have written the value when it returns.
  func save(_ value: Value, context: SharedKeyContext<Value>, immediately: Bool) throws
}

/// What a key gets to talk back to the one value it persists.
public final class SharedKeyContext<Value: Sendable>: @unchecked Sendable {
  /// The default the reference was created with.
  public let initialValue: Value
  weak var root: SharedRoot<Value>?
  private let lock = NSLock()
  private var _storage: (any Sendable)?

  init(root: SharedRoot<Value>, initialValue: Value) {
    self.root = root
    self.initialValue = initialValue
  }

  /// The id of the identified-array element the change being saved went through (a write
  /// through `$array[id: id]` or a reference derived from it), or nil when any part of the
  /// value may have changed: a key can then write that element alone. Read it in `save`.
  public internal(set) var changedElementID: AnyHashable? {
    get { lock.withLock { _changedElementID } }
    set { lock.withLock { _changedElementID = newValue } }
  }
  private var _changedElementID: AnyHashable?

  /// State the key keeps for this value (e.g. the file storage's pending write). Set it in `load`.
  public var storage: (any Sendable)? {
    get { lock.withLock { _storage } }
    set { lock.withLock { _storage = newValue } }
  }

  /// Runs `body` holding the value's lock: mutations wait, so a key can check "no unsaved
  /// changes" and `update` atomically. Reentrant.
  public func withValueLock<R>(_ body: () throws -> R) rethrows -> R {
    guard let root else { return try body() }
    return try root.withLock(body)
  }

  /// Replaces the value with one that changed in storage; every reference sees it.
  public func update(_ value: Value) {
    root?.withLock {
      root?.setFromStore(value)
      root?.loadError = nil
    }
  }

  public func reportLoadError(_ error: (any Error)?) {
    root?.withLock { root?.loadError = error }
  }

  public func reportSaveError(_ error: (any Error)?) {
    root?.withLock { root?.saveError = error }
  }
}

/// Cancels something when asked (or when the value that held it goes away).
public final class SharedSubscription: @unchecked Sendable {
  private let lock = NSLock()
  private var onCancel: (@Sendable () -> Void)?

  public init(_ onCancel: @escaping @Sendable () -> Void) { self.onCancel = onCancel }

  public func cancel() {
    let onCancel = lock.withLock {
      defer { self.onCancel = nil }
      return self.onCancel
    }
    onCancel?()
  }

  deinit { onCancel?() }
}

// MARK: - Keys that carry their default

extension SharedReaderKey {
  /// A key with a default value baked in, so `@Shared(.items) var items` needs no initial value:
  ///
  ///     extension SharedReaderKey where Self == FileStorageKey<[Item]>.Default {
  ///       static var items: Self { Self[.fileStorage(url), default: []] }
  ///     }
  public typealias Default = SharedKeyDefault<Self>
}

public struct SharedKeyDefault<Base: SharedReaderKey>: Sendable {
  public let base: Base
  let makeDefault: @Sendable () -> Base.Value

  public var defaultValue: Base.Value { makeDefault() }

  public static subscript(
    _ key: Base, default value: @autoclosure @escaping @Sendable () -> Base.Value
  ) -> Self {
    Self(base: key, makeDefault: value)
  }
}

// The wrapper is itself a key (so `Self == ....Default` constraints type-check) that forwards
// everything to its base; references built from it use the base key's identity.
/// Lets the registry file a defaulted key under its base key's type.
protocol DefaultedKey { var baseKeyType: Any.Type { get } }
extension SharedKeyDefault: DefaultedKey { var baseKeyType: Any.Type { Base.self } }

extension SharedKeyDefault: SharedReaderKey {
  public typealias Value = Base.Value
  public var id: Base.ID { base.id }
  public var description: String { base.description }
  public func load(context: SharedKeyContext<Value>) throws -> Value? {
    try base.load(context: context)
  }
  public func subscribe(context: SharedKeyContext<Value>) -> SharedSubscription {
    base.subscribe(context: context)
  }
}

extension SharedKeyDefault: SharedKey where Base: SharedKey {
  public func save(_ value: Value, context: SharedKeyContext<Value>, immediately: Bool) throws {
    try base.save(value, context: context, immediately: immediately)
  }
}
