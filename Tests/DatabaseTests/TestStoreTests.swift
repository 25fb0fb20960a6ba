import Architecture
import Foundation
import SharingGRDB
import SyncUpsFeatures
import Testing

/// A counter kept in app storage (a database-backed key): the reducer changes it, an effect
/// changes it later.
private struct StoredCounter: Reducer {
  struct State: Equatable {
    @Shared var count: Int
  }

  enum Action: Equatable, Sendable {
    case incrementButtonTapped
    case incrementLaterButtonTapped
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .incrementButtonTapped:
      state.$count.withLock { $0 += 1 }
      return .none
    case .incrementLaterButtonTapped:
      return .run { [count = state.$count] _ in count.withLock { $0 += 1 } }
    }
  }
}

@MainActor
@Suite
struct DatabaseTestStoreTests {
  @Test func changesToDatabaseBackedStateAreAssertedExhaustively() async throws {
    let storage = AppStorage.inMemory()
    let store = TestStore(initialState: StoredCounter.State(count: Shared(.appStorage("count")))) {
      StoredCounter()
    } withDependencies: {
      $0.defaultAppStorage = storage
    }
    await store.send(.incrementButtonTapped) { $0.$count.withLock { $0 = 1 } }
    await store.send(.incrementLaterButtonTapped)
    await store.finish()
    store.assert { $0.$count.withLock { $0 = 2 } }
    try store.state.$count.save()
    let stored = try await storage.database.read { db in
      try Int.fetchOne(db, sql: "SELECT value FROM setting WHERE key = 'count'")
    }
    #expect(stored == 2)
  }

  @Test func anUnassertedChangeFails() async {
    await withKnownIssue {
      let store = TestStore(initialState: StoredCounter.State(count: Shared(.appStorage("count"))))
      {
        StoredCounter()
      }
      await store.send(.incrementButtonTapped)
    } matching: { issue in
      issue.description.contains("State was not expected to change")
    }
  }
}

extension Shared where Value == Int {
  /// `Shared(.appStorage("count"))` starting at 0.
  fileprivate init(_ name: AppStorageKeyName) {
    self.init(wrappedValue: 0, name)
  }
}
