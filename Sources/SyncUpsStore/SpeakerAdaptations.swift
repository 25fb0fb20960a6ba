import AudioCore
import Foundation
import GRDB
import SharingGRDB

/// An attendee's acoustic adaptation: PocketSphinx's `-mllr` transform file, estimated from
/// `seconds` of their confirmed speech; an empty one when the transform estimated then was not
/// kept (it did not lower the errors of their held-out sentences), so that it is tried again
/// only once their speech has grown.
public struct SpeakerAdaptation: Equatable, Sendable {
  public var seconds: Double
  public var transform: Data

  public init(seconds: Double, transform: Data) {
    self.seconds = seconds
    self.transform = transform
  }

  /// Tried on `seconds` of speech and not kept.
  public static func notKept(seconds: Double) -> Self { Self(seconds: seconds, transform: Data()) }

  public var isUsed: Bool { !transform.isEmpty }
}

/// Attendees' acoustic adaptations: read by the second pass once who spoke is known.
extension SyncUpsDatabase {
  /// The adaptations of a sync-up's attendees that are used (not those tried and not kept).
  public func speakerAdaptations(_ syncUpID: SyncUp.ID) throws -> [Attendee.ID: SpeakerAdaptation] {
    try read { db in
      let rows = try Row.fetchAll(
        db,
        sql: """
          SELECT speakerAdaptation.attendeeId, speakerAdaptation.seconds,
            speakerAdaptation.transform
          FROM speakerAdaptation JOIN attendee ON attendee.id = speakerAdaptation.attendeeId
          WHERE attendee.syncUpId = ? AND length(speakerAdaptation.transform) > 0
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

/// An attendee's confirmed speech: the segments of finished meetings with kept audio that bear
/// their name (labelled so and never corrected away, or corrected to them), newest first. With
/// no attendee, the whole team's: every attendee's of the sync-up together.
public struct ConfirmedSpeech: Equatable, Sendable {
  /// Nil: the team's.
  public var attendeeID: Attendee.ID?
  public var syncUpID: SyncUp.ID
  /// Seconds of all of it (`spans` may hold less).
  public var seconds: Double
  /// The seconds of confirmed speech their adaptation was estimated from; nil: none yet.
  public var adaptedSeconds: Double?
  /// The newest of it, by meeting audio file (relative to the data folder).
  public var recordings: [(audioFile: String, spans: [SpokenSpan])]

  public static func == (left: Self, right: Self) -> Bool {
    left.attendeeID == right.attendeeID && left.syncUpID == right.syncUpID
      && left.seconds == right.seconds
      && left.adaptedSeconds == right.adaptedSeconds
      && left.recordings.map(\.audioFile) == right.recordings.map(\.audioFile)
      && left.recordings.map(\.spans) == right.recordings.map(\.spans)
  }
}

extension SyncUpsDatabase {
  /// A sync-up as the decoder needs it (attendees, vocabulary); nil when it is gone.
  public func syncUp(_ id: SyncUp.ID) throws -> SyncUp? {
    try read { db in try SyncUpRequest(syncUpID: id).fetch(db) }
  }

  /// Every attendee's confirmed speech (`team`: every team's instead), each with at most
  /// `limit` seconds of spans (the newest), from meetings since what was learned of its people
  /// was last forgotten (`syncups forget`).
  public func confirmedSpeech(limit: Double, team: Bool = false) throws -> [ConfirmedSpeech] {
    let key = team ? "NULL" : "attendee.id"
    let adapted =
      team
      ? "LEFT JOIN teamAdaptation AS adaptation ON adaptation.syncUpId = meeting.syncUpId"
      : "LEFT JOIN speakerAdaptation AS adaptation ON adaptation.attendeeId = attendee.id"
    return try read { db in
      let rows = try Row.fetchCursor(
        db,
        sql: """
          SELECT \(key) AS attendeeId, attendee.syncUpId, meeting.audioFile, segment.startTime,
            segment.endTime, segment.text, adaptation.seconds AS adapted
          FROM segment JOIN meeting ON meeting.id = segment.meetingId
          JOIN attendee ON attendee.syncUpId = meeting.syncUpId AND attendee.name = segment.speaker
          \(adapted)
          LEFT JOIN attendeeForgotten ON attendeeForgotten.attendeeId = attendee.id
          WHERE meeting.isFinished AND meeting.audioFile IS NOT NULL
            AND meeting.id NOT IN (SELECT meetingId FROM sentencePass)
            AND (attendeeForgotten.forgottenAt IS NULL
              OR meeting.date >= attendeeForgotten.forgottenAt)
          ORDER BY \(team ? "" : "attendee.id, ")meeting.syncUpId, meeting.date DESC,
            segment.ordinal
          """)
      var found: [ConfirmedSpeech] = []
      var used = 0.0
      while let row = try rows.next() {
        let id: Attendee.ID? = row["attendeeId"]
        let syncUpID: SyncUp.ID = row["syncUpId"]
        let file: String = row["audioFile"]
        let span = SpokenSpan(start: row["startTime"], end: row["endTime"], text: row["text"])
        let length = max(0, span.end - span.start)
        if found.last.map({ $0.attendeeID != id || $0.syncUpID != syncUpID }) ?? true {
          found.append(
            ConfirmedSpeech(
              attendeeID: id, syncUpID: syncUpID, seconds: 0, adaptedSeconds: row["adapted"],
              recordings: []))
          used = 0
        }
        found[found.count - 1].seconds += length
        guard used + length <= limit else { continue }
        used += length
        if found[found.count - 1].recordings.last?.audioFile == file {
          found[found.count - 1].recordings[found[found.count - 1].recordings.count - 1].spans
            .append(span)
        } else {
          found[found.count - 1].recordings.append((file, [span]))
        }
      }
      return found
    }
  }
}

/// The team's acoustic adaptation: one transform from the confirmed speech of all a sync-up's
/// attendees together (their room, their microphone, their voices on average), for the
/// sentences of attendees without one of their own. Derived on each laptop from the meetings
/// whose audio it keeps, so never synced.
extension SyncUpsDatabase {
  /// The team's adaptation, used or not (`SpeakerAdaptation.isUsed`); nil when none was tried.
  public func teamAdaptation(_ syncUpID: SyncUp.ID) throws -> SpeakerAdaptation? {
    try read { db in try Self.teamAdaptation(syncUpID, db) }
  }

  static func teamAdaptation(_ syncUpID: SyncUp.ID, _ db: Database) throws -> SpeakerAdaptation? {
    try Row.fetchOne(
      db, sql: "SELECT seconds, transform FROM teamAdaptation WHERE syncUpId = ?",
      arguments: [syncUpID]
    ).map { SpeakerAdaptation(seconds: $0["seconds"], transform: $0["transform"]) }
  }

  /// Keeps the team's new adaptation; nothing when the sync-up is gone meanwhile.
  public func saveTeamAdaptation(_ syncUpID: SyncUp.ID, _ adaptation: SpeakerAdaptation) throws {
    try writable()
    try write { db in
      guard try SyncUpRecord.exists(db, id: syncUpID) else { return }
      try db.execute(
        sql: """
          INSERT INTO teamAdaptation (syncUpId, seconds, transform) VALUES (?, ?, ?)
          ON CONFLICT (syncUpId) DO UPDATE SET
            seconds = excluded.seconds, transform = excluded.transform
          """, arguments: [syncUpID, adaptation.seconds, adaptation.transform])
    }
  }
}
