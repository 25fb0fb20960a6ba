import Foundation
import GRDB

/// What an import added.
public struct ImportSummary: Equatable, Sendable {
  public var syncUps = 0
  public var meetings = 0
  public init(syncUps: Int = 0, meetings: Int = 0) {
    self.syncUps = syncUps
    self.meetings = meetings
  }
}

extension SyncUpsDatabase {
  /// Merges a format-1 `sync-ups.json` (as the first run does, and `syncups import`) in one
  /// transaction: sync-ups the database does not have are added whole; for the others, meetings
  /// it does not have are added (with their segments), and what the database holds is kept.
  /// Importing the same file twice adds nothing. Every sync-up must pass the rules `add`
  /// applies (`SyncUp.validated()`), every meeting `Meeting.validated()`; an id another item
  /// here has is refused. A file that is not format 1 or breaks a rule changes nothing (the
  /// transaction is rolled back), and the error names the file, the item and the rule. A
  /// meeting's `audioFile` is never used as a path (see `adoptedAudio`). The file is read a
  /// meeting at a time (`SyncUpsFileReader`): memory does not grow with it.
  @discardableResult
  public func importFile(_ url: URL) throws -> ImportSummary {
    let directory = self.directory
    return try write { db in
      // A sync-up's meetings come before the rest of it in the file: its row is checked at
      // the commit.
      try db.execute(sql: "PRAGMA defer_foreign_keys = ON")
      var summary = ImportSummary()
      let reader = SyncUpsFileReader(
        meeting: { meeting, syncUpID, place in
          var meeting = try Self.checked(meeting, at: place, in: url)
          if let stored = try MeetingRecord.fetchOne(db, id: meeting.id) {
            guard stored.syncUpId == syncUpID else {
              throw SyncUpsDatabaseError.importFailed(
                url: url,
                reason: "sync-up \(place.syncUp + 1), meeting \(place.meeting + 1) has the id "
                  + "\(meeting.id.rawValue.lowercasedString) of a meeting of another sync-up "
                  + "here already: give it a new id")
            }
            return
          }
          meeting.audioFile = directory?.adoptedAudio(
            of: meeting.id, claimed: meeting.audioFile, moving: false)
          try Self.addMeeting(meeting, to: syncUpID, db)
          summary.meetings += 1
        },
        syncUp: { syncUp, index in
          let syncUp = try Self.checked(syncUp, at: index, in: url)
          guard try !SyncUpRecord.exists(db, id: syncUp.id) else { return }
          try Self.refuseClashes(syncUp, at: index, in: url, db)
          try Self.add(syncUp, db)
          summary.syncUps += 1
        })
      try Self.reading(url) { try reader.read(url) }
      return summary
    }
  }

  /// `syncups import`: `importFile`.
  public func importChecked(_ url: URL) throws -> ImportSummary {
    try importFile(url)
  }

  /// How an item of a file is named in a message: `sync-up 2 of the file ('Weekly')`.
  static func label(_ syncUp: SyncUp, at index: Int) -> String {
    let title = syncUp.title.count > 40 ? syncUp.title.prefix(40) + "…" : syncUp.title
    return "sync-up \(index + 1) of the file" + (title.isEmpty ? "" : " ('\(title)')")
  }

  /// The sync-up as `add` would save it, or `importFailed` naming it and the rule.
  static func checked(_ syncUp: SyncUp, at index: Int, in url: URL) throws -> SyncUp {
    do {
      return try syncUp.validated()
    } catch {
      throw SyncUpsDatabaseError.importFailed(
        url: url, reason: "\(label(syncUp, at: index)): \(error)")
    }
  }

  static func checked(
    _ meeting: Meeting, at place: (syncUp: Int, meeting: Int), in url: URL
  ) throws -> Meeting {
    do {
      return try meeting.validated()
    } catch {
      throw SyncUpsDatabaseError.importFailed(
        url: url,
        reason: "sync-up \(place.syncUp + 1), meeting \(place.meeting + 1) of the file: \(error)")
    }
  }

  /// A new sync-up's attendees must not have ids that attendees here have.
  static func refuseClashes(_ syncUp: SyncUp, at index: Int, in url: URL, _ db: Database) throws {
    for attendee in syncUp.attendees {
      guard let other = try AttendeeRecord.fetchOne(db, id: attendee.id) else { continue }
      let owner = try SyncUpRecord.fetchOne(db, id: other.syncUpId)?.title ?? ""
      throw SyncUpsDatabaseError.importFailed(
        url: url,
        reason: "\(label(syncUp, at: index)): its attendee '\(attendee.name)' has "
          + "the id \(attendee.id.rawValue.lowercasedString), which attendee '\(other.name)' of "
          + "'\(owner)' here has already: give it a new id")
    }
  }

  /// Runs `read` over `url`, its errors (the file's) as `importFailed`, naming the place.
  static func reading(_ url: URL, _ read: () throws -> Void) throws {
    do {
      try read()
    } catch let error as DecodingError {
      throw SyncUpsDatabaseError.importFailed(url: url, reason: explain(error))
    } catch let error as SyncUpsFile.UnsupportedFormatVersion {
      throw SyncUpsDatabaseError.importFailed(url: url, reason: describe(error))
    } catch let error as SyncUpsFileReader.NotAFile {
      throw SyncUpsDatabaseError.importFailed(url: url, reason: error.description)
    } catch let error as CocoaError {
      throw SyncUpsDatabaseError.importFailed(url: url, reason: describe(error))
    }
  }

  /// Every sync-up with every finished meeting and its transcript, as they would be in a
  /// format-1 `sync-ups.json`.
  public func exportedSyncUps() throws -> IdentifiedArrayOf<SyncUp> {
    try read { db in
      var syncUps = try SyncUpsRequest().fetch(db)
      for syncUp in syncUps {
        for meeting in syncUp.meetings {
          let full = try MeetingTranscriptRequest(meetingID: meeting.id).fetch(db)
          syncUps[id: syncUp.id]?.meetings[id: meeting.id] = full
        }
      }
      return syncUps
    }
  }

  /// The whole store as format-1 JSON (what `sync-ups.json` held).
  public func export() throws -> Data {
    try SyncUpsFile.encode(try exportedSyncUps())
  }

  /// On the first open of a data directory that still has a `sync-ups.json`: imports it in one
  /// transaction, then renames it, byte for byte, to `sync-ups.json.imported` (or `.imported-2`
  /// ...). A crash between the two imports nothing twice: the next open merges the same file,
  /// which adds nothing, and renames it.
  func importFileOnFirstOpen() throws -> FirstRunImport? {
    guard let directory, !isReadOnly else { return nil }
    let file = directory.syncUpsFile
    guard FileManager.default.fileExists(atPath: file.path) else { return nil }
    let summary = try importFile(file)
    var target = file.appendingPathExtension("imported")
    var counter = 2
    while FileManager.default.fileExists(atPath: target.path) {
      target = file.appendingPathExtension("imported-\(counter)")
      counter += 1
    }
    do {
      try FileManager.default.moveItem(at: file, to: target)
    } catch {
      throw SyncUpsDatabaseError.importFailed(url: file, reason: describe(error))
    }
    return FirstRunImport(summary: summary, file: file, keptAs: target)
  }

  /// Throws `importFailed` unless `url` is a `sync-ups.json` this version can import, every
  /// item passing the rules (clashes with the database are found by the import).
  static func checkImportable(_ url: URL) throws {
    let reader = SyncUpsFileReader(
      meeting: { meeting, _, place in _ = try checked(meeting, at: place, in: url) },
      syncUp: { syncUp, index in _ = try checked(syncUp, at: index, in: url) })
    try reading(url) { try reader.read(url) }
  }
}

/// A `sync-ups.json` imported on the first run, and where it was kept (byte for byte).
public struct FirstRunImport: Equatable, Sendable {
  public var summary: ImportSummary
  public var file: URL
  public var keptAs: URL
}
