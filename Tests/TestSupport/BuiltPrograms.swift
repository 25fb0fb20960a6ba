import Foundation

/// A program of this package's build (`syncups`, `syncups-server`, the probes the tests spawn).
/// SwiftPM puts executables in the same products folder as the test bundle, whatever the triple,
/// configuration or `--build-path`: it is looked for beside the running test program first, then
/// in `.build/debug`. An `override` path (from an environment variable) wins when given. The
/// server people install is the one built beside the optimized `syncups` (`SYNCUPS_BINARY`, as
/// `make test` sets it), so every test that runs `syncups-server` runs that one when it is there.
public enum BuiltProgram {
  public static func find(_ name: String, override: String? = nil) -> Result<URL, BinaryNotFound> {
    let fileManager = FileManager.default
    if let override, !override.isEmpty {
      return fileManager.isExecutableFile(atPath: override)
        ? .success(URL(fileURLWithPath: override))
        : .failure(BinaryNotFound(name: name, searched: [override]))
    }
    var folders = folders
    if name == "syncups-server",
      let syncups = ProcessInfo.processInfo.environment["SYNCUPS_BINARY"], !syncups.isEmpty
    {
      folders.insert(URL(fileURLWithPath: syncups).deletingLastPathComponent(), at: 0)
    }
    let candidates = folders.map { $0.appendingPathComponent(name).standardizedFileURL }
    let found = candidates.first { url in
      var isDirectory: ObjCBool = false
      return fileManager.fileExists(atPath: url.path, isDirectory: &isDirectory)
        && !isDirectory.boolValue && fileManager.isExecutableFile(atPath: url.path)
    }
    return found.map { .success($0) }
      ?? .failure(BinaryNotFound(name: name, searched: candidates.map(\.path)))
  }

  /// The program's path, or nil when it was not built.
  public static func url(_ name: String) -> URL? { try? find(name).get() }

  /// Where the build's products are, most likely first.
  static var folders: [URL] {
    var folders: [URL] = []
    if let executable = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
    {
      folders.append(URL(fileURLWithPath: executable).deletingLastPathComponent())
    }
    folders.append(Bundle.main.bundleURL)
    folders.append(Bundle.main.bundleURL.deletingLastPathComponent())
    if let first = CommandLine.arguments.first {
      folders.append(URL(fileURLWithPath: first).standardizedFileURL.deletingLastPathComponent())
    }
    // A test bundle folder (`X.xctest/...`) sits inside the products folder.
    folders += folders.compactMap { folder in
      var url = folder
      while url.path != "/" {
        if url.pathExtension == "xctest" { return url.deletingLastPathComponent() }
        url = url.deletingLastPathComponent()
      }
      return nil
    }
    // <package>/Tests/TestSupport/BuiltPrograms.swift → <package>/.build/debug
    let package = URL(fileURLWithPath: #filePath)
      .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    folders.append(package.appendingPathComponent(".build/debug"))
    return folders
  }
}

/// A program the tests need was not built.
public struct BinaryNotFound: Error, CustomStringConvertible {
  public var name: String
  public var searched: [String]
  public var description: String {
    "the \(name) binary was not built (looked in \(searched.joined(separator: ", "))); "
      + "run swift build"
  }
}
