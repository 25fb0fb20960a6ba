import Foundation
import SpeechAdaptation
import TestSupport
import Testing

/// Where `syncups` looks for the stand-up model when no folder is named.
struct StandupModelTests {
  @Test("A package unpacked anywhere finds the model in share/syncups beside its bin folder")
  func foundBesideTheExecutable() throws {
    let prefix = try TemporaryDirectory()
    defer { prefix.remove() }
    let folder = prefix.file("usr/share/syncups/standup")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    try Data("model".utf8).write(to: folder.appendingPathComponent("standup.lm.bin"))
    try Data("words".utf8).write(to: folder.appendingPathComponent("standup.dict"))
    let empty = try TemporaryDirectory()
    defer { empty.remove() }
    let model = StandupModel.find(
      environment: [:], currentDirectory: empty.path,
      executable: prefix.file("usr/bin/syncups").path)
    #expect(model?.languageModel == folder.appendingPathComponent("standup.lm.bin").path)
    #expect(model?.dictionary == folder.appendingPathComponent("standup.dict").path)
    // A folder named by the environment wins, even when it holds no model.
    let named = StandupModel.find(
      environment: [StandupModel.environmentVariable: empty.path],
      currentDirectory: empty.path, executable: prefix.file("usr/bin/syncups").path)
    #expect(named == nil)
  }

  @Test("With nothing beside the executable, the Debian package's folder is the last place looked")
  func theSystemFolderIsLast() throws {
    let empty = try TemporaryDirectory()
    defer { empty.remove() }
    let model = StandupModel.find(
      environment: [:], currentDirectory: empty.path, executable: empty.file("bin/syncups").path)
    let installed = FileManager.default.isReadableFile(
      atPath: StandupModel.systemFolder + "/standup.lm.bin")
    #expect(
      model?.languageModel == (installed ? StandupModel.systemFolder + "/standup.lm.bin" : nil))
    #expect(StandupModel.systemFolder == "/usr/share/syncups/standup")
  }
}
