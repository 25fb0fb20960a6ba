import Foundation
import GRDB
import SharingGRDB

/// An attendee's acoustic adaptation: PocketSphinx's `-mllr` transform file, estimated from
/// `seconds` of their confirmed speech.
public struct SpeakerAdaptation: Equatable, Sendable {
  public var seconds: Double
  public var transform: Data

  public init(seconds: Double, transform: Data) {
    self.seconds = seconds
    self.transform = transform
  }
}

/// Attendees' acoustic adaptations: read by the second pass once who spoke is known.
extension SyncUpsDatabase {
  /// The adaptations of a sync-up's attendees.
  public func speakerAdaptations(_ syncUpID: SyncUp.ID) throws -> [Attendee.ID: SpeakerAdaptation] {
    try read { db in
      let rows = try Row.fetchAll(
        db,
        sql: """
          SELECT speakerAdaptation.attendeeId, speakerAdaptation.seconds,
            speakerAdaptation.transform
          FROM speakerAdaptation JOIN attendee ON attendee.id = speakerAdaptation.attendeeId
          WHERE attendee.syncUpId = ?
          """, arguments: [syncUpID])
      var found: [Attendee.ID: SpeakerAdaptation] = [:]
      for row in rows {
        found[row["attendeeId"]] = SpeakerAdaptation(
          seconds: row["seconds"], transform: row["transform"])
      }
      return found
    }
  }

  /// Keeps new adaptations, in one transaction; those of attendees removed meanwhile go.
  public func saveSpeakerAdaptations(_ adaptations: [Attendee.ID: SpeakerAdaptation]) throws {
    guard !adaptations.isEmpty else { return }
    try writable()
    try write { db in
      for (id, adaptation) in adaptations {
        guard try AttendeeRecord.exists(db, id: id) else { continue }
        try db.execute(
          sql: """
            INSERT INTO speakerAdaptation (attendeeId, seconds, transform) VALUES (?, ?, ?)
            ON CONFLICT (attendeeId) DO UPDATE SET
              seconds = excluded.seconds, transform = excluded.transform
            """, arguments: [id, adaptation.seconds, adaptation.transform])
      }
    }
  }
}
