import Foundation

/// A fresh temporary folder for one test.
public func temporaryFolder() throws -> URL {
  let url = FileManager.default.temporaryDirectory
    .appendingPathComponent("syncups-tests-\(UUID().uuidString.prefix(8))")
  try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  return url
}

/// Runs sox (a real converter) to make a variant of a sample.
public func sox(_ arguments: [String]) throws {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
  process.arguments = ["sox"] + arguments
  process.standardError = FileHandle.nullDevice
  try process.run()
  process.waitUntilExit()
  if process.terminationStatus != 0 {
    throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: "sox \(arguments) failed"])
  }
}
