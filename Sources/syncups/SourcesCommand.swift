import ArgumentParser
import AudioCaptureClient
import Foundation
import SyncUpsCLI
import SyncUpsFeatures

struct SourcesCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "sources",
    abstract: "List the PulseAudio sources to record from; * marks the default."
  )

  @MainActor func run() async throws {
    @Dependency(\.audioCapture) var audioCapture
    let sources: [AudioSource]
    do {
      sources = try await audioCapture.sources()
    } catch {
      throw CLIError("\(error)")
    }
    guard !sources.isEmpty else {
      try Console.out("PulseAudio has no sources.\n")
      return
    }
    let width = sources.map(\.name.count).max() ?? 0
    try Console.out(
      sources.map { source in
        (source.isDefault ? "* " : "  ") + source.name
          + String(repeating: " ", count: width - source.name.count) + "  " + source.description
          + "\n"
      }.joined())
  }
}
