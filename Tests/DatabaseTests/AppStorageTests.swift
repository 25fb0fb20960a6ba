import Dependencies
import Foundation
import Sharing
import SharingGRDB
import Testing

@Suite
struct AppStorageTests {
  @Test func simpleValuesAreKeptUnderTheirKeys() throws {
    let storage = AppStorage.inMemory()
    try withDependencies {
      $0.defaultAppStorage = storage
    } operation: {
      @Shared(.appStorage("source")) var source = "default"
      @Shared(.appStorage("volume")) var volume = 0.5
      @Shared(.appStorage("count")) var count = 0
      @Shared(.appStorage("enabled")) var enabled = false
      @Shared(.appStorage("home")) var home = URL(fileURLWithPath: "/tmp")
      @Shared(.appStorage("blob")) var blob = Data()
      #expect(source == "default")
      $source.withLock { $0 = "virtmic" }
      $volume.withLock { $0 = 0.75 }
      $count.withLock { $0 += 2 }
      $enabled.withLock { $0 = true }
      $home.withLock { $0 = URL(fileURLWithPath: "/home/ana") }
      $blob.withLock { $0 = Data([1, 2, 3]) }
      for save in [$source.save, $volume.save, $count.save, $enabled.save, $home.save, $blob.save] {
        try save()
      }
    }
    // A fresh registry (as a new process) reads them back.
    try withDependencies {
      $0.defaultAppStorage = storage
      $0.sharedRegistry = SharedRegistry()
    } operation: {
      @Shared(.appStorage("source")) var source = "default"
      @Shared(.appStorage("volume")) var volume = 0.5
      @Shared(.appStorage("count")) var count = 0
      @Shared(.appStorage("enabled")) var enabled = false
      @Shared(.appStorage("home")) var home = URL(fileURLWithPath: "/tmp")
      @Shared(.appStorage("blob")) var blob = Data()
      #expect(source == "virtmic")
      #expect(volume == 0.75)
      #expect(count == 2)
      #expect(enabled)
      #expect(home.path == "/home/ana")
      #expect(blob == Data([1, 2, 3]))
      _ = try #require(Optional(storage))
    }
  }

  @Test func twoReferencesToOneKeyShareTheValue() {
    withDependencies {
      $0.defaultAppStorage = .inMemory()
    } operation: {
      @Shared(.appStorage("name")) var first = "a"
      @Shared(.appStorage("name")) var second = "b"
      $first.withLock { $0 = "c" }
      #expect(second == "c")
    }
  }

  @Test func testsGetAnEmptyInMemoryStorage() {
    @Shared(.appStorage("anything")) var value = 7
    #expect(value == 7)
  }
}
