import Dependencies
import Foundation
import IdentifiedCollections
import Observation
import Sharing
import Testing

struct Item: Codable, Equatable, Identifiable, Sendable {
  var id: Int
  var title: String
  var tags: [String] = []
}

struct Profile: Codable, Equatable, Sendable {
  struct Address: Codable, Equatable, Sendable {
    var city = "Paris"
    var street = "Rue A"
  }
  var name = "Blob"
  var address = Address()
  var initials: String { String(name.prefix(1)) }
}

extension SharedReaderKey where Self == InMemoryKey<Int>.Default {
  static var counter: Self { Self[.inMemory("counter"), default: 7] }
}

@Suite struct SharedTests {
  @Test func aSharedValueIsReadAndChangedUnderItsLock() {
    @Shared(value: 1) var count: Int
    #expect(count == 1)
    let result = $count.withLock { value -> String in
      value += 41
      return "done"
    }
    #expect(count == 42)
    #expect(result == "done")
    let copy = $count
    copy.withLock { $0 = 0 }
    #expect(count == 0, "a copy of a Shared is the same reference")
  }

  @Test func throwingWithLockKeepsWhatItChanged() async throws {
    struct Failure: Error {}
    let shared = Shared(value: [Int]())
    var iterator = shared.values.makeAsyncIterator()
    #expect(await iterator.next() == [])
    #expect(throws: Failure.self) {
      try shared.withLock {
        $0.append(1)
        throw Failure()
      }
    }
    #expect(shared.wrappedValue == [1])
    #expect(await iterator.next() == [1], "the change is announced")
  }

  @Test func aSharedValueCanBeMadeFromAPlainValue() {
    let shared = Shared(value: [1, 2])
    shared.withLock { $0.append(3) }
    #expect(shared.wrappedValue == [1, 2, 3])
  }

  @Test func derivedMemberWritesReachRootAndSiblings() {
    @Shared(value: Profile()) var profile
    let name = $profile.name
    let city = $profile.address.city  // derived of derived
    let address = $profile.address
    name.withLock { $0 = "Blobby" }
    city.withLock { $0 = "Lyon" }
    #expect(profile.name == "Blobby")
    #expect(profile.address.city == "Lyon")
    #expect(address.wrappedValue.city == "Lyon")
    address.city.withLock { $0 = "Nice" }  // derived of derived of derived
    #expect(city.wrappedValue == "Nice")
    $profile.withLock { $0.address.street = "Rue B" }
    #expect(address.street.wrappedValue == "Rue B")
    // Read-only members come out as readers.
    let initials: SharedReader<String> = $profile.initials
    #expect(initials.wrappedValue == "B")
  }

  @Test func identifiedArrayElements() throws {
    @Shared(
      value: IdentifiedArray(uniqueElements: [Item(id: 1, title: "A"), Item(id: 2, title: "B")]))
    var items: IdentifiedArrayOf<Item>

    let optional: Shared<Item?> = $items[id: 2]
    #expect(optional.wrappedValue?.title == "B")
    #expect($items[id: 3].wrappedValue == nil)
    #expect(Shared($items[id: 3]) == nil, "absent elements do not unwrap")

    let second = try #require(Shared($items[id: 2]))
    second.withLock { $0.title = "Bee" }
    #expect(items[id: 2]?.title == "Bee")
    #expect(optional.wrappedValue?.title == "Bee")

    // Derived of derived through the element.
    let tags = second.tags
    tags.withLock { $0.append("x") }
    #expect(items[id: 2]?.tags == ["x"])

    // Root writes reach the element reference.
    $items.withLock { $0[id: 2]?.title = "Bumble" }
    #expect(second.wrappedValue.title == "Bumble")
    #expect(second.title.wrappedValue == "Bumble")

    // Writing nil through the optional reference removes the element.
    $items[id: 1].withLock { $0 = nil }
    #expect(items.ids == [2])
  }

  @Test func removedElementReadsLastValueAndIgnoresWrites() throws {
    @Shared(
      value: IdentifiedArray(uniqueElements: [Item(id: 1, title: "A"), Item(id: 2, title: "B")]))
    var items: IdentifiedArrayOf<Item>
    let first = try #require(Shared($items[id: 1]))
    let title = first.title
    first.withLock { $0.title = "Last" }

    $items.withLock { _ = $0.remove(id: 1) }

    // Documented behaviour: reads return the last value the element had...
    #expect(first.wrappedValue == Item(id: 1, title: "Last"))
    #expect(title.wrappedValue == "Last")
    // ...and writes are no-ops: nothing is re-inserted, nothing crashes.
    first.withLock { $0.title = "Ghost" }
    title.withLock { $0 = "Ghost" }
    #expect(items.ids == [2])
    #expect(first.wrappedValue.title == "Last")
    #expect($items[id: 1].wrappedValue == nil)

    // If an element with that id comes back, the reference follows it again.
    $items.withLock { $0.append(Item(id: 1, title: "Back")) }
    #expect(first.wrappedValue.title == "Back")
  }

  @Test func eachElementOfASharedArrayIsASharedReferenceToIt() {
    @Shared(value: IdentifiedArray(uniqueElements: (1...3).map { Item(id: $0, title: "\($0)") }))
    var items: IdentifiedArrayOf<Item>
    let elements = Array($items)
    #expect(elements.map(\.wrappedValue.id) == [1, 2, 3])
    for element in elements { element.withLock { $0.title += "!" } }
    #expect(items.map(\.title) == ["1!", "2!", "3!"])
  }

  @Test func sameKeySharesOneValue() {
    @Shared(.inMemory("count")) var first = 1
    @Shared(.inMemory("count")) var second = 99
    #expect(second == 1, "the second reference ignores its default: the value exists")
    $second.withLock { $0 += 1 }
    #expect(first == 2)
    // Different names, and different types under one name, are different values.
    @Shared(.inMemory("other")) var other = 0
    @Shared(.inMemory("count")) var text = "text"
    #expect(other == 0)
    #expect(text == "text")
  }

  @Test func aKeyWithADefaultSharesOneValue() {
    @Shared(.counter) var counter
    #expect(counter == 7)
    $counter.withLock { $0 += 1 }
    @Shared(.inMemory("counter")) var same = 0
    #expect(same == 8)
    let shared = Shared(.counter)
    #expect(shared.wrappedValue == 8)
  }

  @Test func keyedPropertiesInAFeatureState() {
    struct Feature {
      @Shared(.counter) var counter
      @Shared(.counter) var annotated: Int
      @Shared(.inMemory("name")) var name = "Blob"
      @SharedReader(.counter) var readOnlyCounter
    }
    let feature = Feature()
    feature.$counter.withLock { $0 = 100 }
    #expect(feature.readOnlyCounter == 100)
    #expect(feature.annotated == 100)
    #expect(Feature().counter == 100)
    #expect(feature.name == "Blob")
  }

  @Test func aReaderOfAnElementFollowsTheArray() throws {
    @Shared(value: IdentifiedArray(uniqueElements: [Item(id: 1, title: "A")])) var items:
      IdentifiedArrayOf<Item>
    let reader = SharedReader($items)
    let element = try #require(SharedReader(reader[id: 1]))
    $items.withLock { $0[id: 1]?.title = "B" }
    #expect(element.title.wrappedValue == "B")
    #expect(reader[id: 2].wrappedValue == nil)
  }

  @Test func sharedStateIsScopedPerTestA() async {
    @Shared(.inMemory("isolation")) var value = 0
    #expect(value == 0)
    $value.withLock { $0 = 1 }
    try? await Task.sleep(for: .milliseconds(50))
    #expect(value == 1)
  }

  @Test func sharedStateIsScopedPerTestB() async {
    @Shared(.inMemory("isolation")) var value = 0
    #expect(value == 0)
    $value.withLock { $0 = 2 }
    try? await Task.sleep(for: .milliseconds(50))
    #expect(value == 2)
  }

  @Test func concurrentWithLockLosesNoIncrements() async {
    @Shared(value: Profile()) var profile
    let counter = Shared(value: 0)
    let derived = $profile.address.street
    await withTaskGroup(of: Void.self) { group in
      for _ in 0..<1000 {
        group.addTask {
          counter.withLock { $0 += 1 }
          derived.withLock { $0 += "." }
        }
      }
    }
    #expect(counter.wrappedValue == 1000)
    #expect(profile.address.street.count == "Rue A".count + 1000)
  }

  @Test func aReaderFollowsTheValueItReads() {
    @Shared(value: Profile()) var profile
    let reader = SharedReader($profile)
    let city = reader.address.city
    $profile.address.city.withLock { $0 = "Lille" }
    #expect(reader.wrappedValue.address.city == "Lille")
    #expect(city.wrappedValue == "Lille")

    @SharedReader(.inMemory("flag")) var flag = false
    @Shared(.inMemory("flag")) var writableFlag = true
    $writableFlag.withLock { $0 = true }
    #expect(flag == true)

    @SharedReader(value: 3) var constant: Int
    #expect(constant == 3)
  }

  @Test func aSharedValuesStreamAnnouncesEachChange() async {
    let shared = Shared(value: Profile())
    let city = shared.address.city
    var iterator = city.values.makeAsyncIterator()
    #expect(await iterator.next() == "Paris")
    shared.withLock { $0.address.city = "Lyon" }
    #expect(await iterator.next() == "Lyon")
    city.withLock { $0 = "Nice" }
    #expect(await iterator.next() == "Nice")
  }

  @Test func observationSeesASharedValueChange() {
    let shared = Shared(value: 0)
    let changed = LockedFlag()
    withObservationTracking {
      _ = shared.wrappedValue
    } onChange: {
      changed.set()
    }
    #expect(!changed.value)
    shared.withLock { $0 += 1 }
    #expect(changed.value)
  }

  @Test func equalityAndHashingOutsideTests() {
    let a = Shared(value: 1)
    let b = Shared(value: 1)
    #expect(a == b, "no snapshot: plain value equality")
    b.withLock { $0 = 2 }
    #expect(a != b)
    #expect(Set([a, a]).count == 1)
  }
}

final class LockedFlag: @unchecked Sendable {
  private let lock = NSLock()
  private var _value = false
  var value: Bool { lock.withLock { _value } }
  func set() { lock.withLock { _value = true } }
}
