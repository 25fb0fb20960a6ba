import Dependencies
import Foundation
import GRDB
import Sharing

/// Which database and which query: two keys share a value when both are equal.
public struct DatabaseKeyID<Request: Hashable & Sendable>: Hashable, Sendable {
  let database: ObjectIdentifier
  let request: Request
}

/// `@SharedReader(.fetch(request))`: the request's result, read when the first reference is
/// created and kept up to date with every commit, in this process or another.
public struct FetchKey<Request: FetchKeyRequest>: SharedReaderKey {
  public typealias Value = Request.Value
  public let request: Request
  let database: any DatabaseWriter

  /// Uses `database`, else the `defaultDatabase` dependency in effect here.
  public init(_ request: Request, database: (any DatabaseWriter)? = nil) {
    @Dependency(\.defaultDatabase) var defaultDatabase
    self.request = request
    self.database = database ?? defaultDatabase
  }

  public var id: DatabaseKeyID<Request> {
    DatabaseKeyID(database: ObjectIdentifier(database), request: request)
  }
  public var description: String { ".fetch(\(request))" }

  public func load(context: SharedKeyContext<Value>) throws -> Value? {
    let session = DatabaseSession(request: request, database: database, context: context)
    context.storage = session
    return try session.load()
  }

  public func subscribe(context: SharedKeyContext<Value>) -> SharedSubscription {
    (context.storage as? DatabaseSession<Request>)?.subscribe() ?? SharedSubscription {}
  }
}

/// `@Shared(.database(request))`: like `.fetch`, and each change is written back (what changed
/// only, one transaction, on a thread of its own; `save()` waits for it). A failed write is
/// rolled back and reported as `saveError`; the next save writes the change again.
public struct DatabaseKey<Request: DatabaseValueRequest>: SharedKey {
  public typealias Value = Request.Value
  let fetch: FetchKey<Request>

  public init(_ request: Request, database: (any DatabaseWriter)? = nil) {
    fetch = FetchKey(request, database: database)
  }

  public var request: Request { fetch.request }
  public var id: DatabaseKeyID<Request> { fetch.id }
  public var description: String { ".database(\(request))" }

  public func load(context: SharedKeyContext<Value>) throws -> Value? {
    try fetch.load(context: context)
  }

  public func subscribe(context: SharedKeyContext<Value>) -> SharedSubscription {
    fetch.subscribe(context: context)
  }

  public func save(_ value: Value, context: SharedKeyContext<Value>, immediately: Bool) throws {
    try (context.storage as? DatabaseSession<Request>)?.save(
      value, immediately: immediately, element: context.changedElementID)
  }
}

extension SharedReaderKey {
  public static func fetch<Request: FetchKeyRequest>(
    _ request: Request, database: (any DatabaseWriter)? = nil
  ) -> Self where Self == FetchKey<Request> {
    FetchKey(request, database: database)
  }

  public static func database<Request: DatabaseValueRequest>(
    _ request: Request, database: (any DatabaseWriter)? = nil
  ) -> Self where Self == DatabaseKey<Request> {
    DatabaseKey(request, database: database)
  }
}
