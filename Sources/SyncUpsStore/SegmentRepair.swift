import Foundation
import GRDB
import SyncUpsWire

/// Corrections saved before a correction was held to the push rules (`SegmentCorrection
/// .checked`): a text with direction marks or other control characters, or a word longer than
/// a spoken word, which the server refuses in every push of its meeting, so the laptop never
/// synced it again. The migration repairs each such corrected segment by the rules
/// (`SegmentCorrection.repaired`: control characters dropped, over-long words cut), through
/// the named write a correction takes (`setSegment`), so its meeting is stamped and queued as
/// any correction is; a text of which nothing is left puts back what was recognised. A push
/// stored with the old text is dropped (its changes stay in the outbox).
enum SegmentRepair {
  static func migrate(_ db: Database) throws {
    var repaired = 0
    for record in try SegmentRecord.filter(sql: "originalText IS NOT NULL").fetchAll(db) {
      // One an older version left unreadable is left as it is: a migration that fails would
      // keep the whole database from opening.
      guard let segment = try? record.segment() else { continue }
      let number = record.ordinal + 1
      guard (try? segment.document.check(number: number)) == nil else { continue }
      var fixed = segment.recognised
      let text = SegmentCorrection.repaired(segment.text)
      if !text.isEmpty {
        fixed = segment.corrected(SegmentChange(text: text))
      }
      if (try? fixed.document.check(number: number)) == nil {
        // Even the repaired text breaks a rule (its speaker): what was recognised.
        fixed = segment.recognised
      }
      guard fixed != segment else { continue }
      try SyncUpsDatabase.setSegment(fixed, ordinal: record.ordinal, of: record.meetingId, db)
      repaired += 1
    }
    guard repaired > 0 else { return }
    try db.execute(sql: "DELETE FROM syncPendingPush")
    try WordCounts.catchUp(db)
  }
}
