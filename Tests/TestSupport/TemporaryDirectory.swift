import Foundation

/// A fresh directory for one test under the system's temporary directory; `remove()` deletes it
/// with what it holds.
public struct TemporaryDirectory: Sendable {
  public let url: URL

  public init() throws {
    url = FileManager.default.temporaryDirectory
      .appendingPathComponent("syncups-tests-\(UUID().uuidString.prefix(8))", isDirectory: true)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }

  public var path: String { url.path }

  /// A file (or folder) named `name` in it.
  public func file(_ name: String) -> URL { url.appendingPathComponent(name) }

  /// The names of what it holds, sorted.
  public func contents() throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: url.path).sorted()
  }

  public func remove() { try? FileManager.default.removeItem(at: url) }
}
