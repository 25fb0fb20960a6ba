import Foundation

/// A search of the team's meetings: `syncups search --team` asks it, `GET /api/v1/search` and the
/// search page answer it. The same query language and filters as `syncups search`.
public struct TeamSearchQuery: Sendable, Equatable {
  public var text: String
  public var syncUpID: UUID?
  /// The whole name, any case.
  public var speaker: String?
  public var since: Date?
  public var limit: Int

  public init(
    text: String, syncUpID: UUID? = nil, speaker: String? = nil, since: Date? = nil,
    limit: Int = 50
  ) {
    self.text = text
    self.syncUpID = syncUpID
    self.speaker = speaker
    self.since = since
    self.limit = limit
  }

  /// The text read as the query language.
  public var query: SearchQuery { SearchQuery(text) }
}
