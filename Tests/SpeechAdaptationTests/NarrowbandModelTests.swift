import Foundation
import SpeechAdaptation
import TestSupport
import Testing

/// Where `syncups` looks for the narrowband channel transform.
struct NarrowbandModelTests {
  @Test("The transform is found beside the stand-up model's folder, unless told otherwise")
  func foundBesideTheStandupModel() throws {
    let prefix = try TemporaryDirectory()
    defer { prefix.remove() }
    let standup = prefix.file("share/syncups/standup")
    let narrowband = prefix.file("share/syncups/narrowband")
    for folder in [standup, narrowband] {
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }
    try Data("model".utf8).write(to: standup.appendingPathComponent("standup.lm.bin"))
    let transform = narrowband.appendingPathComponent(NarrowbandModel.fileName)
    try Data("1\n".utf8).write(to: transform)
    #expect(
      NarrowbandModel.find(standupModelDirectory: standup.path, environment: [:])
        == transform.path)
    // `none`, empty or a missing file: no transform, wherever it is said.
    for off in ["none", "", prefix.file("missing.mllr").path] {
      #expect(
        NarrowbandModel.find(explicit: off, standupModelDirectory: standup.path, environment: [:])
          == nil)
      #expect(
        NarrowbandModel.find(
          standupModelDirectory: standup.path,
          environment: [NarrowbandModel.environmentVariable: off]) == nil)
    }
    // A file named explicitly or by the environment is used as it is.
    let other = prefix.file("other.mllr")
    try Data("1\n".utf8).write(to: other)
    #expect(NarrowbandModel.find(explicit: other.path, environment: [:]) == other.path)
    #expect(
      NarrowbandModel.find(environment: [NarrowbandModel.environmentVariable: other.path])
        == other.path)
    // With no stand-up folder beside it, nothing.
    #expect(
      NarrowbandModel.find(standupModelDirectory: prefix.file("nowhere").path, environment: [:])
        == nil)
  }
}
