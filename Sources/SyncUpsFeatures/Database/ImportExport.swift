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
  /// Merges a format-1 `sync-ups.json` (as the first run does) in one transaction: sync-ups
  /// the database does not have are added whole; for the others, meetings it does not have are
  /// added (with their segments), and what the database holds is kept. Importing the same file
  /// twice adds nothing. The file is read a meeting at a time (`SyncUpsFileReader`): memory does
  /// not grow with it.
  @discardableResult
  public func importFile(_ url: URL) throws -> ImportSummary {
    try merge(url, checked: false)
  }

  /// `syncups import`: merges `url` as `importFile` does; every sync-up in it must also pass the
  /// rules `add` applies (`SyncUp.validated()`). A file that is not format 1 or breaks a rule
  /// changes nothing (the transaction is rolled back), and the error says where it is wrong.
  public func importChecked(_ url: URL) throws -> ImportSummary {
    try merge(url, checked: true)
  }

  private func merge(_ url: URL, checked: Bool) throws -> ImportSummary {
    try write { db in
      // A sync-up's meetings come before the rest of it in the file: its row is checked at
      // the commit.
      try db.execute(sql: "PRAGMA defer_foreign_keys = ON")
      var summary = ImportSummary()
      let reader = SyncUpsFileReader(
        meeting: { meeting, syncUpID in
          guard try !MeetingRecord.exists(db, id: meeting.id) else { return }
          try Self.addMeeting(meeting, to: syncUpID, db)
          summary.meetings += 1
        },
        syncUp: { syncUp, index in
          var syncUp = syncUp
          if checked {
            do {
              syncUp = try syncUp.validated()
            } catch {
              throw SyncUpsDatabaseError.importFailed(
                url: url, reason: "sync-up \(index + 1) of the file: \(error)")
            }
          }
          guard try !SyncUpRecord.exists(db, id: syncUp.id) else { return }
          try Self.add(syncUp, db)
          summary.syncUps += 1
        })
      try Self.reading(url) { try reader.read(url) }
      return summary
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

  /// Throws `importFailed` unless `url` is a `sync-ups.json` this version can import.
  static func checkImportable(_ url: URL) throws {
    try reading(url) { try SyncUpsFileReader(meeting: { _, _ in }, syncUp: { _, _ in }).read(url) }
  }
}

/// A `sync-ups.json` imported on the first run, and where it was kept (byte for byte).
public struct FirstRunImport: Equatable, Sendable {
  public var summary: ImportSummary
  public var file: URL
  public var keptAs: URL
}
