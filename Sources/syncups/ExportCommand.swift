import ArgumentParser
import Foundation
import SyncUpsCLI
import SyncUpsFeatures

struct ExportCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "export",
    abstract: "Write every sync-up and meeting (with transcripts) as one JSON file.",
    discussion: """
      The format is sync-ups.json's (format 1, on one line): 'syncups import' reads it back. \
      Audio files are not included.
      """
  )

  @Option(
    name: [.short, .customLong("output")], help: "The file to write (default: standard output).")
  var outputFile: String?

  @Flag(help: "Replace the --output file if it exists.")
  var force = false

  @MainActor func run() async throws {
    let target = outputFile.map { URL(fileURLWithPath: $0) }
    if let target { try ExportFile.checkTarget(target, replacing: force) }
    let database = try await CommandDatabase.open().database
    guard let target, let outputFile else {
      _ = try await ExportFile.toStandardOutput { write in try database.export(to: write) }
      return
    }
    let counts = try await ExportFile.write(to: target, replacing: force) { write in
      try database.export(to: write)
    }
    try Console.out(
      "Exported \(Format.count(counts.syncUps, "sync-up")) and "
        + "\(Format.count(counts.meetings, "meeting")) to \(outputFile.visible).\n")
  }
}
