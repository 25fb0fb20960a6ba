/// Shares a value by name for the life of the registry (the process, or one test); nothing is
/// written anywhere.
public struct InMemoryKey<Value: Sendable>: SharedKey {
  public let name: String
  public init(_ name: String) { self.name = name }
  public var id: String { name }
  public var description: String { ".inMemory(\(String(reflecting: name)))" }
  public func load(context: SharedKeyContext<Value>) throws -> Value? { nil }
  public func subscribe(context: SharedKeyContext<Value>) -> SharedSubscription {
    SharedSubscription {}
  }
  public func save(_ value: Value, context: SharedKeyContext<Value>, immediately: Bool) {}
}

extension SharedReaderKey {
  /// `@Shared(.inMemory("count")) var count = 0`
  public static func inMemory<Value>(_ name: String) -> Self where Self == InMemoryKey<Value> {
    InMemoryKey(name)
  }
}
