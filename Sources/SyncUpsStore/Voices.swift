import Foundation
import GRDB
import SharingGRDB
import VoiceProfiles

/// How much of an attendee's voice is known (what `show` says).
public struct VoiceSummary: Equatable, Sendable {
  public var meetings: Int
  public var seconds: Double

  public init(meetings: Int, seconds: Double) {
    self.meetings = meetings
    self.seconds = seconds
  }
}

/// Attendees' voice profiles: read at the end of a meeting to tell who spoke, refined by it.
extension SyncUpsDatabase {
  /// The profiles of a sync-up's attendees; one that cannot be read is as if never learned.
  public func voiceProfiles(_ syncUpID: SyncUp.ID) throws -> [Attendee.ID: VoiceProfile] {
    try read { db in
      let rows = try Row.fetchAll(
        db,
        sql: """
          SELECT voiceProfile.attendeeId, voiceProfile.model FROM voiceProfile
          JOIN attendee ON attendee.id = voiceProfile.attendeeId WHERE attendee.syncUpId = ?
          """, arguments: [syncUpID])
      var profiles: [Attendee.ID: VoiceProfile] = [:]
      for row in rows {
        let id: Attendee.ID = row["attendeeId"]
        let data: Data = row["model"]
        profiles[id] = try? VoiceProfile.decoded(data)
      }
      return profiles
    }
  }

  /// How much of each attendee's voice of a sync-up is known.
  public func voiceSummaries(_ syncUpID: SyncUp.ID) throws -> [Attendee.ID: VoiceSummary] {
    try read { db in try Self.voiceSummaries(syncUpID, db) }
  }

  static func voiceSummaries(_ syncUpID: SyncUp.ID, _ db: Database) throws
    -> [Attendee.ID: VoiceSummary]
  {
    let rows = try Row.fetchAll(
      db,
      sql: """
        SELECT voiceProfile.attendeeId, voiceProfile.meetings, voiceProfile.seconds
        FROM voiceProfile JOIN attendee ON attendee.id = voiceProfile.attendeeId
        WHERE attendee.syncUpId = ?
        """, arguments: [syncUpID])
    var summaries: [Attendee.ID: VoiceSummary] = [:]
    for row in rows {
      summaries[row["attendeeId"]] = VoiceSummary(
        meetings: row["meetings"], seconds: row["seconds"])
    }
    return summaries
  }

  /// Keeps refined profiles, in one transaction; those of attendees removed meanwhile go.
  public func learnVoices(_ profiles: [Attendee.ID: VoiceProfile]) throws {
    guard !profiles.isEmpty else { return }
    let encoded = try profiles.mapValues { try $0.encoded() }
    try writable()
    try write { db in
      for (id, profile) in profiles {
        guard try AttendeeRecord.exists(db, id: id), let model = encoded[id] else { continue }
        try db.execute(
          sql: """
            INSERT INTO voiceProfile (attendeeId, meetings, seconds, model) VALUES (?, ?, ?, ?)
            ON CONFLICT (attendeeId) DO UPDATE SET
              meetings = excluded.meetings, seconds = excluded.seconds, model = excluded.model
            """, arguments: [id, profile.meetings, profile.seconds, model])
      }
    }
  }
}

/// How much of each attendee's voice of a sync-up is known (`show`).
public struct VoiceSummariesRequest: FetchKeyRequest {
  public var syncUpID: SyncUp.ID
  public init(syncUpID: SyncUp.ID) { self.syncUpID = syncUpID }

  public func fetch(_ db: Database) throws -> [Attendee.ID: VoiceSummary] {
    try SyncUpsDatabase.voiceSummaries(syncUpID, db)
  }
}
