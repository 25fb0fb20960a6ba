import Foundation
import GRDB
import SyncUpsWire

/// What to look for across every meeting's transcript.
public struct TranscriptSearch: Equatable, Sendable {
  /// Words (all must occur), prefixes (`migr*`) and phrases (`"staging server"`).
  public var text: String
  public var syncUpID: SyncUp.ID?
  /// Case-insensitive, the whole name.
  public var speaker: String?
  /// Meetings on or after this instant.
  public var since: Date?
  /// Meetings before this instant.
  public var until: Date?
  public var limit: Int

  public init(
    _ text: String, syncUpID: SyncUp.ID? = nil, speaker: String? = nil, since: Date? = nil,
    until: Date? = nil, limit: Int = 100
  ) {
    self.text = text
    self.syncUpID = syncUpID
    self.speaker = speaker
    self.since = since
    self.until = until
    self.limit = limit
  }

  /// The text as an FTS5 query in which every word and phrase is quoted, so no input is a
  /// syntax error; a `*` right after a word or phrase makes its last word a prefix. Nil when
  /// there is nothing to look for. The text is read by `SearchQuery`, as the team server reads
  /// it, so both stores are asked the same thing.
  var matchExpression: String? {
    let terms = SearchQuery(text).terms.map { "\"\($0.text)\"" + ($0.prefix ? "*" : "") }
    return terms.isEmpty ? nil : terms.joined(separator: " ")
  }

  /// False when the text holds no word to look for (blank, or only punctuation).
  public var hasTerms: Bool { matchExpression != nil }
}

/// One segment that matches, best matches first.
public struct TranscriptSearchHit: Equatable, Sendable {
  public var syncUpID: SyncUp.ID
  public var syncUpTitle: String
  public var meetingID: Meeting.ID
  public var date: Date
  /// The segment's index in its meeting's `segments`.
  public var segment: Int
  public var speaker: String
  public var start: Double
  public var end: Double
  /// The segment's text with each match between the marks.
  public var text: String

  public init(
    syncUpID: SyncUp.ID, syncUpTitle: String, meetingID: Meeting.ID, date: Date, segment: Int,
    speaker: String, start: Double, end: Double, text: String
  ) {
    self.syncUpID = syncUpID
    self.syncUpTitle = syncUpTitle
    self.meetingID = meetingID
    self.date = date
    self.segment = segment
    self.speaker = speaker
    self.start = start
    self.end = end
    self.text = text
  }
}

extension SyncUpsDatabase {
  /// Searches every finished meeting's segments (FTS5), best matches first by BM25; among
  /// equally good matches the most recently recorded first.
  ///
  /// The best `limit` are chosen first, in the search index alone when nothing but the text
  /// is asked (joined with meetings only for a sync-up, speaker or date), and only those are
  /// read in full and marked: a word said in every meeting of a year costs about what it costs
  /// in a week (`make bench-store`).
  public func search(
    _ query: TranscriptSearch, marks: (open: String, close: String) = ("[", "]")
  ) throws -> [TranscriptSearchHit] {
    guard let match = query.matchExpression else { return [] }
    var filters = ["segmentSearch MATCH ?"]
    var arguments: StatementArguments = [match]
    if let syncUpID = query.syncUpID {
      filters.append("meeting.syncUpId = ?")
      arguments += [syncUpID]
    }
    if let speaker = query.speaker {
      filters.append("segment.speaker = ? COLLATE NOCASE")
      arguments += [speaker]
    }
    if let since = query.since {
      filters.append("meeting.date >= ?")
      arguments += [since.timeIntervalSince1970]
    }
    if let until = query.until {
      filters.append("meeting.date < ?")
      arguments += [until.timeIntervalSince1970]
    }
    let candidates: String
    if filters.count == 1 {
      candidates = """
        segmentSearch WHERE segmentSearch MATCH ? AND segmentSearch.rowid NOT IN (
          SELECT segment.id FROM meeting JOIN segment ON segment.meetingId = meeting.id
          WHERE meeting.isFinished = 0)
        """
    } else {
      candidates = """
        segmentSearch JOIN segment ON segment.id = segmentSearch.rowid
          JOIN meeting ON meeting.id = segment.meetingId
        WHERE \(filters.joined(separator: " AND ")) AND meeting.isFinished = 1
        """
    }
    arguments += [query.limit]
    let sql = """
      SELECT meeting.syncUpId, syncUp.title, segment.id, segment.meetingId, meeting.date,
        segment.ordinal, segment.speaker, segment.startTime, segment.endTime, segment.text
      FROM (
        SELECT segmentSearch.rowid AS id, bm25(segmentSearch) AS score FROM \(candidates)
        ORDER BY score, segmentSearch.rowid DESC LIMIT ?
      ) AS best
      JOIN segment ON segment.id = best.id
      JOIN meeting ON meeting.id = segment.meetingId
      JOIN syncUp ON syncUp.id = meeting.syncUpId
      ORDER BY best.score, meeting.date DESC, segment.ordinal
      """
    return try read { db in
      let rows = try Row.fetchAll(db, sql: sql, arguments: arguments)
      guard !rows.isEmpty else { return [] }
      let ids: [Int64] = rows.map { $0["id"] }
      let marked = try Dictionary(
        Row.fetchAll(
          db,
          sql: """
            SELECT rowid, highlight(segmentSearch, 0, ?, ?) AS marked FROM segmentSearch
            WHERE segmentSearch MATCH ? AND rowid IN (\(ids.map { _ in "?" }.joined(separator: ",")))
            """,
          arguments: StatementArguments(
            [marks.open, marks.close, match] as [any DatabaseValueConvertible] + ids)
        ).map { row -> (Int64, String) in (row["rowid"], row["marked"]) },
        uniquingKeysWith: { first, _ in first })
      return rows.map { row in
        TranscriptSearchHit(
          syncUpID: row["syncUpId"],
          syncUpTitle: row["title"],
          meetingID: row["meetingId"],
          date: Date(timeIntervalSince1970: row["date"]),
          segment: row["ordinal"],
          speaker: row["speaker"],
          start: row["startTime"],
          end: row["endTime"],
          text: marked[row["id"]] ?? row["text"]
        )
      }
    }
  }
}
