import GRDB

/// A query whose result a `@SharedReader(.fetch(request))` holds and keeps up to date.
///
/// Equal requests share one value (per database), so make the request's properties the query's
/// parameters: `MeetingTranscript(meetingID: id)`.
public protocol FetchKeyRequest<Value>: Hashable, Sendable {
  associatedtype Value: Sendable & Equatable
  /// Reads the value (in a read transaction, or in the write transaction of a save).
  func fetch(_ db: Database) throws -> Value
}

/// A value that lives in the database and is written back when a `@Shared(.database(request))`
/// changes.
///
/// The strategy calls `save(from:to:changed:in:)` in one write transaction with the value as it
/// was last loaded or saved and the new one, so the request writes only what changed, never what
/// another process changed meanwhile.
public protocol DatabaseValueRequest<Value>: FetchKeyRequest {
  /// Writes the difference between `old` and `new`. `changed` holds the ids of the elements
  /// every change since `old` went through, when the value is an identified array written
  /// through `$array[id: id]` (or references derived from it): only they can differ. nil: any
  /// part may differ.
  func save(from old: Value, to new: Value, changed: Set<AnyHashable>?, in db: Database) throws
  /// The value as stored once `saved` is written, read in the same transaction: by default
  /// `fetch(db)`. A request whose value is a collection can read back the `changed` elements
  /// only.
  func fetch(afterSaving saved: Value, changed: Set<AnyHashable>?, _ db: Database) throws -> Value
  /// `value` as `fetch` reads it back once it is saved; by default `value` itself. A request
  /// that keeps part of the value out of memory (transcripts) strips it here, so reading back
  /// our own save is not mistaken for another writer's change.
  func stored(_ value: Value) -> Value
}

extension DatabaseValueRequest {
  public func stored(_ value: Value) -> Value { value }

  public func fetch(
    afterSaving saved: Value, changed: Set<AnyHashable>?, _ db: Database
  ) throws -> Value {
    try fetch(db)
  }
}
