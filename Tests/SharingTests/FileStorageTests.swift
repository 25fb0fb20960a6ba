import Dependencies
import Foundation
import IdentifiedCollections
import Sharing
import TestSupport
import Testing

private let itemsURL = URL(fileURLWithPath: "/data/items.json")

extension SharedReaderKey where Self == FileStorageKey<IdentifiedArrayOf<Item>>.Default {
  fileprivate static var items: Self { Self[.fileStorage(itemsURL), default: []] }
}

private func json(_ value: some Encodable) throws -> Data { try JSONEncoder().encode(value) }

/// File storage on the in-memory file system tests get by default.
@Suite struct FileStorageTests {
  @Test func testsUseAnInMemoryFileSystemByDefault() {
    @Dependency(\.defaultFileStorage) var storage
    #expect(storage.fileSystem is InMemoryFileSystem)
    #expect(!storage.flushesOnTermination)
  }

  @Test func missingFileUsesDefaultThenSavesChanges() async throws {
    let fileSystem = InMemoryFileSystem()
    try await withDependencies {
      $0.defaultFileStorage = .inMemory(fileSystem)
    } operation: {
      @Shared(.items) var items
      #expect(items.isEmpty)
      #expect($items.loadError == nil)
      #expect(fileSystem.contents.isEmpty, "the default is not written until something changes")

      $items.withLock { $0.append(Item(id: 1, title: "A")) }
      let saved = await waitUntil {
        (try? fileSystem.read(itemsURL)).flatMap {
          try? JSONDecoder().decode([Item].self, from: $0)
        }
          == [Item(id: 1, title: "A")]
      }
      #expect(saved, "the first change is written promptly")

      // A second reference with the same key is the same value.
      @Shared(.items) var again
      #expect(again.ids == [1])
      let derived = try #require(Shared($again[id: 1]))
      derived.withLock { $0.title = "B" }
      try $items.save()
      let decoded = try JSONDecoder().decode(
        [Item].self, from: try #require(try fileSystem.read(itemsURL))
      )
      #expect(
        decoded == [Item(id: 1, title: "B")], "a derived write is persisted by the root's key")
    }
  }

  @Test func typedKeyInAFeatureState() throws {
    let fileSystem = InMemoryFileSystem(files: [itemsURL: try json([Item(id: 3, title: "C")])])
    try withDependencies {
      $0.defaultFileStorage = .inMemory(fileSystem)
    } operation: {
      struct ListFeature { @Shared(.items) var items: IdentifiedArrayOf<Item> }
      struct DetailFeature { @Shared var item: Item }
      let list = ListFeature()
      let detail = DetailFeature(item: try #require(Shared(list.$items[id: 3])))
      detail.$item.withLock { $0.tags.insert("new", at: 0) }
      #expect(list.items[id: 3]?.tags == ["new"])
      try list.$items.save()
      let saved = try JSONDecoder().decode(
        [Item].self, from: try #require(try fileSystem.read(itemsURL)))
      #expect(saved.first?.tags == ["new"])
    }
  }

  @Test func existingFileIsLoaded() throws {
    let fileSystem = InMemoryFileSystem(files: [itemsURL: try json([Item(id: 7, title: "Seven")])])
    withDependencies {
      $0.defaultFileStorage = .inMemory(fileSystem)
    } operation: {
      @Shared(.fileStorage(itemsURL)) var items: IdentifiedArrayOf<Item> = []
      #expect(items.map(\.title) == ["Seven"])
    }
  }

  @Test func corruptFileIsKeptAndReported() throws {
    let garbage = Data("{ not json".utf8)
    let fileSystem = InMemoryFileSystem(files: [itemsURL: garbage])
    try withDependencies {
      $0.defaultFileStorage = .inMemory(fileSystem)
    } operation: {
      @Shared(.items) var items
      #expect(items.isEmpty, "the default is used")
      let error = try #require($items.loadError as? SharedFileError)
      guard case .corrupt(let url, let preserved, _) = error else {
        Issue.record("expected .corrupt, got \(error)")
        return
      }
      #expect(url == itemsURL)
      #expect(preserved.lastPathComponent.hasPrefix("items.json.corrupt-"))
      #expect(preserved.deletingLastPathComponent() == itemsURL.deletingLastPathComponent())
      #expect(try fileSystem.read(preserved) == garbage)
      #expect("\(error)".contains("corrupt items.json"))
      #expect("\(error)".contains(preserved.path))

      $items.withLock { $0.append(Item(id: 1, title: "New")) }
      try $items.save()
      #expect(try fileSystem.read(preserved) == garbage, "still byte-identical after writing")
      #expect(try fileSystem.read(itemsURL) != nil)
    }
  }

  @Test func outsideChangeReachesDerivedReferences() async throws {
    let fileSystem = InMemoryFileSystem(files: [itemsURL: try json([Item(id: 1, title: "A")])])
    try await withDependencies {
      $0.defaultFileStorage = .inMemory(fileSystem)
    } operation: {
      @Shared(.items) var items
      let element = try #require(Shared($items[id: 1]))
      let title = element.title
      fileSystem.write(try json([Item(id: 1, title: "Edited elsewhere")]), to: itemsURL)
      #expect(await waitUntil { title.wrappedValue == "Edited elsewhere" })
      #expect(items[id: 1]?.title == "Edited elsewhere")
    }
  }

  @Test func undecodableOutsideChangeIsPreservedAndValueKept() async throws {
    let fileSystem = InMemoryFileSystem(files: [itemsURL: try json([Item(id: 1, title: "A")])])
    try await withDependencies {
      $0.defaultFileStorage = .inMemory(fileSystem)
    } operation: {
      @Shared(.items) var items
      fileSystem.write(Data("garbage".utf8), to: itemsURL)
      #expect(await waitUntil { $items.loadError != nil })
      let error = try #require($items.loadError as? SharedFileError)
      #expect(try fileSystem.read(try #require(error.preservedURL)) == Data("garbage".utf8))
      #expect(items.map(\.title) == ["A"], "the value in memory is kept")
    }
  }

  @Test func outsideChangeWhileUnsavedIsKeptAsConflict() async throws {
    let fileSystem = InMemoryFileSystem(files: [itemsURL: try json([Item(id: 1, title: "A")])])
    try await withDependencies {
      $0.defaultFileStorage = FileStorage(
        fileSystem: fileSystem, saveInterval: .seconds(3600), flushesOnTermination: false
      )
    } operation: {
      @Shared(.items) var items
      $items.withLock { $0[id: 1]?.title = "Ours 1" }
      try $items.save()
      $items.withLock { $0[id: 1]?.title = "Ours 2" }  // pending for an hour

      let theirs = try json([Item(id: 1, title: "Theirs")])
      fileSystem.write(theirs, to: itemsURL)
      try await Task.sleep(for: .milliseconds(100))
      #expect(items[id: 1]?.title == "Ours 2", "unsaved local changes are not overwritten")

      try $items.save()
      let error = try #require($items.saveError as? SharedFileError)
      guard case .conflict(_, let preserved) = error else {
        Issue.record("expected .conflict, got \(error)")
        return
      }
      #expect(preserved.lastPathComponent.hasPrefix("items.json.conflict-"))
      #expect(try fileSystem.read(preserved) == theirs, "their version is kept byte for byte")
      let saved = try JSONDecoder().decode(
        [Item].self, from: try #require(try fileSystem.read(itemsURL)))
      #expect(saved.first?.title == "Ours 2")
    }
  }

  @Test func garbageFoundWhenSavingIsPreservedAsCorrupt() throws {
    let memory = InMemoryFileSystem(files: [itemsURL: try json([Item(id: 1, title: "A")])])
    try withDependencies {
      $0.defaultFileStorage = FileStorage(
        fileSystem: CountingFileSystem(memory, reportsChanges: false),
        saveInterval: .seconds(3600),
        flushesOnTermination: false
      )
    } operation: {
      @Shared(.items) var items
      memory.write(Data("half-written garbage".utf8), to: itemsURL)
      $items.withLock { $0[id: 1]?.title = "Ours" }
      try $items.save()
      let error = try #require($items.saveError as? SharedFileError)
      guard case .corrupt(_, let preserved, _) = error else {
        Issue.record("expected .corrupt, got \(error)")
        return
      }
      #expect(try memory.read(preserved) == Data("half-written garbage".utf8))
      let saved = try JSONDecoder().decode(
        [Item].self, from: try #require(try memory.read(itemsURL)))
      #expect(saved.first?.title == "Ours")
    }
  }

  @Test func burstOfMutationsIsCoalesced() async throws {
    let fileSystem = CountingFileSystem(InMemoryFileSystem())
    let url = URL(fileURLWithPath: "/data/count.json")
    await withDependencies {
      $0.defaultFileStorage = FileStorage(fileSystem: fileSystem, flushesOnTermination: false)
    } operation: {
      @Shared(.fileStorage(url)) var count = 0
      for _ in 1...1000 { $count.withLock { $0 += 1 } }
      let written = await waitUntil {
        (try? fileSystem.read(url)).map { String(decoding: $0, as: UTF8.self) } == "1000"
      }
      #expect(written, "the last value is always written")
      #expect(fileSystem.writes < 5, "\(fileSystem.writes) writes")
      #expect(fileSystem.writes >= 1)
    }
  }

  // (`FileStorage.flushAll()`, which flushes every value in the process, is exercised by the
  // probe's termination tests: here it would also flush other tests' pending writes.)
  @Test func flushWritesPendingChanges() async throws {
    let fileSystem = InMemoryFileSystem()
    let url = URL(fileURLWithPath: "/data/flush.json")
    let storage = FileStorage(
      fileSystem: fileSystem, saveInterval: .seconds(3600), flushesOnTermination: false
    )
    try withDependencies {
      $0.defaultFileStorage = storage
    } operation: {
      @Shared(.fileStorage(url)) var text = ""
      $text.withLock { $0 = "first" }
      try $text.save()
      $text.withLock { $0 = "second" }  // pending for an hour
      try storage.flush()
      #expect(try fileSystem.read(url) == Data("\"second\"".utf8))
    }
  }

  @Test func fileStorageTakesCustomCoders() throws {
    let fileSystem = InMemoryFileSystem()
    let url = URL(fileURLWithPath: "/data/plain.txt")
    try withDependencies {
      $0.defaultFileStorage = .inMemory(fileSystem)
    } operation: {
      @Shared(
        .fileStorage(
          url,
          decode: { @Sendable data in String(decoding: data, as: UTF8.self) },
          encode: { @Sendable text in Data(text.utf8) }
        )
      ) var text = "hello"
      $text.withLock { $0 += " world" }
      try $text.save()
      #expect(try fileSystem.read(url) == Data("hello world".utf8))
    }
  }
}
