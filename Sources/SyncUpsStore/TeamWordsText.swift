import Foundation
import GRDB

/// One segment's text, as a sync-up's own language model learns from it.
public struct LearnedText: Equatable, Sendable {
  public var text: String
  /// Someone corrected it (its text is a person's, not the recogniser's).
  public var corrected: Bool
  /// The meeting it was said in (nil: not known).
  public var meetingID: Meeting.ID?

  public init(text: String, corrected: Bool, meetingID: Meeting.ID? = nil) {
    self.text = text
    self.corrected = corrected
    self.meetingID = meetingID
  }
}

extension SyncUpsDatabase {
  /// What a sync-up's own language model learns from: the segments of its finished meetings,
  /// oldest first, but not those of a meeting whose whole-sentence pass is still to run (its
  /// text is not final, and that pass must not hear its own live transcript). The one place
  /// that says which meetings a sync-up's words are learned from.
  public func textToLearn(_ syncUpID: SyncUp.ID) throws -> [LearnedText] {
    try read { db in try Self.textToLearn(syncUpID, db) }
  }

  /// The same, in a read; meetings that began before the sync-up's words were forgotten
  /// (`syncups forget`) are left out too.
  static func textToLearn(_ syncUpID: SyncUp.ID, _ db: Database) throws -> [LearnedText] {
    let since = try wordsForgotten(syncUpID, db)?.timeIntervalSince1970 ?? -Double.infinity
    let rows = try Row.fetchCursor(
      db,
      sql: """
        SELECT segment.text, segment.originalText IS NOT NULL AS corrected, meeting.id
        FROM meeting JOIN segment ON segment.meetingId = meeting.id
        WHERE meeting.syncUpId = ? AND meeting.isFinished AND meeting.date >= ?
          AND meeting.id NOT IN (SELECT meetingId FROM sentencePass)
        ORDER BY meeting.date, meeting.id, segment.ordinal
        """, arguments: [syncUpID, since])
    var texts: [LearnedText] = []
    while let row = try rows.next() {
      texts.append(LearnedText(text: row[0], corrected: row[1], meetingID: row[2]))
    }
    return texts
  }

  /// The ids of every sync-up (to find models left of sync-ups that are gone).
  public func syncUpIDs() throws -> [SyncUp.ID] {
    try read { db in try SyncUp.ID.fetchAll(db, sql: "SELECT id FROM syncUp") }
  }

  /// The sync-ups these meetings belong to (whose words their sentences change).
  public func syncUpIDs(ofMeetings meetingIDs: [Meeting.ID]) throws -> Set<SyncUp.ID> {
    try read { db in
      var ids: Set<SyncUp.ID> = []
      for meetingID in meetingIDs {
        let id = try SyncUp.ID.fetchOne(
          db, sql: "SELECT syncUpId FROM meeting WHERE id = ?", arguments: [meetingID])
        if let id { ids.insert(id) }
      }
      return ids
    }
  }
}
