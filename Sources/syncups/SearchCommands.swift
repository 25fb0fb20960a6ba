import ArgumentParser
import Foundation
import Glibc
import SyncUpsCLI
import SyncUpsFeatures
import WorkerThreads

struct SearchCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "search",
    abstract: "Find what was said in any meeting, best matches first.",
    discussion: """
      TEXT is words (all must occur, any order), prefixes (migr*) and phrases in quotes \
      ('"staging server"'). Each match prints the sync-up, the meeting's date, the time in the \
      meeting, the speaker and what was said, the match in bold on a terminal, else in [ ].

      Exit status, as grep's: 0 when something matched, 1 when nothing did (stdout stays \
      empty), 2 on an error (a bad query, an unknown sync-up, a bad date).
      """
  )

  @Argument(help: "What to look for (several arguments are joined with spaces).")
  var text: [String]

  @Option(name: .customLong("sync-up"), help: "Only this sync-up (the start of its id or title).")
  var syncUp: String?

  @Option(help: "Only what this attendee said (the whole name, any case).")
  var speaker: String?

  @Option(help: "Only meetings from this day on (YYYY-MM-DD), or this far back (7d, 2w).")
  var since: String?

  @Option(parsing: .unconditional, help: "At most this many matches.")
  var limit = 50

  @Flag(help: "One JSON object a line: {syncUp, meeting, date, speaker, start, end, text}.")
  var json = false

  @MainActor func run() async throws {
    let hits: [TranscriptSearchHit]
    do {
      hits = try await search()
    } catch {
      printError("syncups: " + error.message)
      throw ExitCode(2)
    }
    guard !hits.isEmpty else {
      if !json { printError("syncups: nothing said matches '\(query.visible)'") }
      throw ExitCode(1)
    }
    let bold = isatty(STDOUT_FILENO) == 1
    output(hits.map { json ? SearchOutput.json($0) : SearchOutput.line($0, bold: bold) }.joined())
    if hits.count == limit, !json {
      printError("syncups: showing the best \(limit) matches; --limit shows more")
    }
  }

  private var query: String { text.joined(separator: " ") }

  @MainActor private func search() async throws(CLIError) -> [TranscriptSearchHit] {
    if let problem = TranscriptSearch.problem(in: query) {
      throw CLIError("cannot search for '\(query.visible)': \(problem)")
    }
    let limit = try Parse.limit(limit)
    let since = try since.map { text throws(CLIError) in try Parse.since(text) }
    let store = try await SyncUpsStore.open()
    let syncUpID = try syncUp.map { ref throws(CLIError) in try store.resolve(ref).wrappedValue.id }
    let speaker = speaker?.trimmingCharacters(in: .whitespaces)
    @Dependency(\.transcriptSearch) var transcriptSearch
    do {
      return try await transcriptSearch.search(
        TranscriptSearch(
          query, syncUpID: syncUpID, speaker: speaker, since: since, limit: limit))
    } catch {
      throw CLIError("cannot search: \(error)")
    }
  }
}

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
    let database = try await SyncUpsStore.open().database
    guard let target, let outputFile else {
      _ = try await ExportFile.toStandardOutput { write in try database.export(to: write) }
      return
    }
    let counts = try await ExportFile.write(to: target, replacing: force) { write in
      try database.export(to: write)
    }
    output(
      "Exported \(Format.count(counts.syncUps, "sync-up")) and "
        + "\(Format.count(counts.meetings, "meeting")) to \(outputFile.visible).\n")
  }
}

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
    let store = try await SyncUpsStore.open()
    try store.checkWritable()
    let database = store.database
    let summary: ImportSummary
    do {
      summary = try await WorkerThread.run(name: "import") { try database.importChecked(url) }
    } catch {
      throw CLIError("\(error)")
    }
    guard summary.syncUps + summary.meetings > 0 else {
      output(
        "Nothing new in \(file.visible): its sync-ups and meetings are all here already.\n")
      return
    }
    output(
      "Imported \(file.visible): added \(Format.count(summary.syncUps, "sync-up")) and "
        + "\(Format.count(summary.meetings, "meeting")); what was here already is kept.\n")
  }
}
