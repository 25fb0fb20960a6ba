import CustomDump
import Dependencies
import Foundation
import IdentifiedCollections
import Sharing
import Testing

/// The flows a TestStore runs with `SharedChangeTracker`, written with the tracker alone.
@Suite struct ChangeTrackerTests {
  struct State: Equatable {
    @Shared var count: Int
    var other = 0
  }

  @Test func reducerMutationAssertedCorrectly() {
    let tracker = SharedChangeTracker()
    let actual = State(count: Shared(value: 0))
    let before = actual
    tracker.track { actual.$count.withLock { $0 = 1 } }
    #expect(tracker.hasChanges)

    let expected = before
    tracker.assert { expected.$count.withLock { $0 = 1 } }
    #expect(expected == actual)
    #expect(diff(expected, actual) == nil)
    #expect(actual.count == 1, "asserting never touches the real value")

    tracker.reset()
    #expect(!tracker.hasChanges)
    #expect(tracker.changeDescriptions().isEmpty)
    #expect(expected == actual)
  }

  @Test func reducerMutationAssertedWrongly() throws {
    let tracker = SharedChangeTracker()
    let actual = State(count: Shared(value: 0))
    tracker.track { actual.$count.withLock { $0 = 1 } }

    var expected = actual
    tracker.assert { expected.$count.withLock { $0 = 2 } }
    expected.other = 0
    #expect(expected != actual)
    let difference = try #require(diff(expected, actual))
    #expect(difference.contains("-   _count: 2,"), "\(difference)")
    #expect(difference.contains("+   _count: 1,"), "\(difference)")
    let lines = difference.split(separator: "\n").map(String.init)
    #expect(lines.contains { $0.hasPrefix("-") && $0.contains("2") }, "\(difference)")
    #expect(lines.contains { $0.hasPrefix("+") && $0.contains("1") }, "\(difference)")
    #expect(actual.count == 1)
  }

  @Test func unassertedChangeMakesStatesDiffer() throws {
    let tracker = SharedChangeTracker()
    let actual = State(count: Shared(value: 0))
    let expected = actual
    tracker.track { actual.$count.withLock { $0 = 1 } }
    #expect(expected != actual, "snapshot 0 (expected) vs current 1 (actual)")
    let difference = try #require(diff(expected, actual))
    #expect(difference.contains("0") && difference.contains("1"))
    tracker.reset()
    #expect(expected == actual)
  }

  @Test func readingInAssertModeReturnsTheSnapshot() {
    let tracker = SharedChangeTracker()
    let count = Shared(value: 10)
    tracker.track { count.withLock { $0 += 5 } }
    tracker.assert {
      #expect(count.wrappedValue == 10)
      count.withLock { $0 += 5 }
      #expect(count.wrappedValue == 15)
    }
    #expect(count.wrappedValue == 15)
    #expect(!tracker.hasChanges)
  }

  @Test func effectMutationInsideTaskIsRecordedAndNamed() async throws {
    let tracker = SharedChangeTracker()
    @Shared(.inMemory("count")) var count = 0
    let (unkeyed, line) = (Shared(value: 0), #line)  // the reference is named by this line
    await tracker.track {
      let task = Task { [shared = $count] in
        shared.withLock { $0 += 1 }
        unkeyed.withLock { $0 += 2 }
      }
      await task.value
    }
    #expect(tracker.hasChanges)
    let descriptions = tracker.changeDescriptions()
    #expect(descriptions.count == 2)
    let keyed = try #require(descriptions.first { $0.contains(".inMemory") })
    #expect(keyed.contains("Shared<Int>(.inMemory(\"count\"))"), "\(keyed)")
    #expect(keyed.contains("− 0") && keyed.contains("+ 1"), "\(keyed)")
    let other = try #require(descriptions.first { !$0.contains(".inMemory") })
    #expect(other.contains("Shared<Int>@SharingTests/ChangeTrackerTests.swift:\(line)"), "\(other)")

    tracker.assert {
      $count.withLock { $0 = 1 }
      unkeyed.withLock { $0 = 2 }
    }
    #expect(!tracker.hasChanges)
  }

  @Test func registeredRootKeepsRecordingOutsideTrack() async {
    let tracker = SharedChangeTracker()
    let count = Shared(value: 0)
    tracker.track { count.withLock { $0 = 1 } }
    tracker.reset()
    // A detached task does not inherit the task-local, but the root knows its tracker.
    await Task.detached { count.withLock { $0 = 2 } }.value
    #expect(tracker.hasChanges)
    #expect(tracker.changeDescriptions().first?.contains("+ 2") == true)
  }

  @Test func untrackedMutationsTakeNoSnapshot() {
    let count = Shared(value: 0)
    let copy = count
    count.withLock { $0 = 1 }
    #expect(copy == count)
  }

  struct Parent: Equatable {
    @Shared var items: IdentifiedArrayOf<Item>
    var child: Child?
  }
  struct Child: Equatable {
    @Shared var item: Item
  }

  @Test func derivedReferencesCompareThroughTheRootSnapshot() throws {
    let tracker = SharedChangeTracker()
    let items = Shared(value: IdentifiedArray(uniqueElements: [Item(id: 1, title: "A")]))
    var actual = Parent(items: items)
    actual.child = Child(item: try #require(Shared(items[id: 1])))
    let expectedBefore = actual

    tracker.track { actual.child?.$item.title.withLock { $0 = "B" } }
    #expect(expectedBefore != actual)

    // Assert through the root: the derived reference in the child sees it too.
    let expected = expectedBefore
    tracker.assert { expected.$items.withLock { $0[id: 1]?.title = "B" } }
    #expect(expected == actual)

    // Or through the derived reference.
    tracker.reset()
    tracker.track { actual.$items.withLock { $0[id: 1]?.title = "C" } }
    let expected2 = actual
    tracker.assert { expected2.child?.$item.withLock { $0.title = "C" } }
    #expect(expected2 == actual)
  }

  @Test func dumpPrintsThePlainValue() {
    let state = State(count: Shared(value: 5))
    var dump = ""
    customDump(state, to: &dump)
    #expect(dump.contains("_count: 5"), "\(dump)")
    #expect(!dump.contains("reference"), "\(dump)")
  }

  @Test func sharedDeclaredInATestIsTheFeaturesState() {
    @Shared(.inMemory("count")) var count = 42
    struct Feature { @Shared(.inMemory("count")) var count = 0 }
    let feature = Feature()
    #expect(feature.count == 42)
    feature.$count.withLock { $0 += 1 }
    #expect(count == 43)
  }

  @Test func assertModeNeverPersists() throws {
    let fileSystem = InMemoryFileSystem()
    let url = URL(fileURLWithPath: "/tmp/assert.json")
    try withDependencies {
      $0.defaultFileStorage = .inMemory(fileSystem)
    } operation: {
      let tracker = SharedChangeTracker()
      @Shared(.fileStorage(url)) var value = 0
      tracker.track { $value.withLock { $0 = 1 } }
      try $value.save()
      tracker.assert { $value.withLock { $0 = 99 } }
      try $value.save()
      #expect(String(decoding: try #require(fileSystem.contents[url.path]), as: UTF8.self) == "1")
      #expect(value == 1)
    }
  }
}
