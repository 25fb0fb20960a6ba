import Foundation
import SyncClient
import SyncClientLive
import SyncUpsCLI
import SyncUpsFeatures
import SyncUpsWire
import TeamSync

extension SearchCommand {
  /// `syncups search --team`: the same query and filters, asked of the team server
  /// (`GET /api/v1/search`), printed as `syncups search` prints. `--sync-up` is found here, as
  /// for a local search (synced laptops have the same sync-ups).
  @MainActor func teamSearch() async throws(CLIError) -> [TranscriptSearchHit] {
    if let problem = TranscriptSearch.problem(in: query) {
      throw CLIError("cannot search for '\(query.visible)': \(problem)")
    }
    let limit = try Parse.limit(limit)
    let since = try since.map { text throws(CLIError) in try Parse.since(text) }
    let team = try TeamFile.joined()
    var syncUpID: SyncUp.ID?
    if let syncUp {
      syncUpID = try await CommandDatabase.open().syncUpName(syncUp).id
    }
    @Dependency(\.syncClient) var client
    let hits: [SearchHit]
    do {
      hits = try await client.search(
        team.team,
        TeamSearchQuery(
          text: query, syncUpID: syncUpID?.rawValue,
          speaker: speaker?.trimmingCharacters(in: .whitespaces), since: since, limit: limit))
    } catch {
      throw CLIError("cannot search the team's meetings: \(error)")
    }
    // The server's matches name no sync-up id, and are not marked (printed as they are).
    let nobody = UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
    return hits.map { hit in
      TranscriptSearchHit(
        syncUpID: SyncUp.ID(nobody), syncUpTitle: hit.syncUp,
        meetingID: Meeting.ID(UUID(uuidString: hit.meeting) ?? nobody),
        date: hit.date, segment: 0, speaker: hit.speaker, start: hit.start, end: hit.end,
        text: hit.text)
    }
  }
}
