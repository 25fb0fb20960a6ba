import ArgumentParser
import Foundation
import Glibc
import SyncUpsCLI
import SyncUpsFeatures

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

  @Option(
    parsing: .unconditional,
    help: "Only meetings from this day on (YYYY-MM-DD), or this far back (7d, 2w).")
  var since: String?

  @Option(parsing: .unconditional, help: "At most this many matches.")
  var limit = 50

  @Flag(help: "One JSON object a line: {syncUp, meeting, date, speaker, start, end, text}.")
  var json = false

  @Flag(help: "Ask the team server: everyone's meetings ('syncups team join' first).")
  var team = false

  @MainActor func run() async throws {
    let hits: [TranscriptSearchHit]
    do {
      hits = try await team ? teamSearch() : search()
    } catch {
      Console.error(error.message)
      throw ExitCode(2)
    }
    guard !hits.isEmpty else {
      if !json { Console.error("nothing said matches '\(query.visible)'") }
      throw ExitCode(1)
    }
    let bold = isatty(STDOUT_FILENO) == 1
    do throws(CLIError) {
      try Console.out(
        hits.map { json ? SearchOutput.json($0) : SearchOutput.line($0, bold: bold) }.joined())
    } catch {
      Console.error(error.message)
      throw ExitCode(2)
    }
    if hits.count == limit, !json {
      Console.error("showing the best \(limit) matches; --limit shows more")
    }
  }

  var query: String { text.joined(separator: " ") }

  @MainActor private func search() async throws(CLIError) -> [TranscriptSearchHit] {
    if let problem = TranscriptSearch.problem(in: query) {
      throw CLIError("cannot search for '\(query.visible)': \(problem)")
    }
    let limit = try Parse.limit(limit)
    let since = try since.map { text throws(CLIError) in try Parse.since(text) }
    let data = try await CommandDatabase.open()
    let syncUpID = try syncUp.map { ref throws(CLIError) in try data.syncUpName(ref).id }
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
