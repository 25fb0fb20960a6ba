import ArgumentParser
import Foundation
import SyncUpsCLI
import SyncUpsFeatures
import WorkerThreads

struct ImportCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "import",
    abstract: "Add the sync-ups and meetings of an exported file (or a sync-ups.json).",
    discussion: """
      A merge: sync-ups and meetings that are not here are added; those already here (the same \
      id) are kept as they are. A file that cannot be read changes nothing.
      """
  )

  @Argument(help: "The JSON file, as 'syncups export' writes it.")
  var file: String

  @MainActor func run() async throws {
    let url = URL(fileURLWithPath: file)
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
      throw CLIError("cannot import \(file.visible): there is no such file")
    }
    if isDirectory.boolValue {
      throw CLIError("cannot import \(file.visible): it is a folder; give the exported file")
    }
    let data = try await CommandDatabase.open()
    try data.checkWritable()
    let database = data.database
    let summary: ImportSummary
    do {
      summary = try await WorkerThread.run(name: "import") { try database.importChecked(url) }
    } catch {
      throw CLIError("\(error)")
    }
    guard summary.syncUps + summary.meetings > 0 else {
      try Console.out(
        "Nothing new in \(file.visible): its sync-ups and meetings are all here already.\n")
      return
    }
    try Console.out(
      "Imported \(file.visible): added \(Format.count(summary.syncUps, "sync-up")) and "
        + "\(Format.count(summary.meetings, "meeting")); what was here already is kept.\n",
      saved: "the import of \(file.visible)")
  }
}
