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
  /// Merges a format-1 `sync-ups.json` in one transaction: sync-ups the database does not have
  /// are added whole; for the others, meetings it does not have are added (with their
  /// segments), and what the database holds is kept. Importing the same file twice adds nothing.
  @discardableResult
  public func importFile(_ url: URL) throws -> ImportSummary {
    let syncUps: IdentifiedArrayOf<SyncUp>
    do {
      syncUps = try SyncUpsFile.decode(try Data(contentsOf: url))
    } catch {
      throw SyncUpsDatabaseError.importFailed(url: url, reason: describe(error))
    }
    return try write { db in try Self.merge(syncUps, db) }
  }

  static func merge(_ syncUps: IdentifiedArrayOf<SyncUp>, _ db: Database) throws -> ImportSummary {
    var summary = ImportSummary()
    var position =
      try Int.fetchOne(db, sql: "SELECT coalesce(max(position) + 1, 0) FROM syncUp") ?? 0
    for syncUp in syncUps {
      let exists = try SyncUpRecord.exists(db, key: syncUp.id.rawValue.lowercasedString)
      if !exists {
        var bare = syncUp
        bare.meetings = []
        try SyncUpsRequest.saveSyncUp(bare, before: nil, position: position, db)
        position += 1
        summary.syncUps += 1
      }
      for meeting in syncUp.meetings
      where try !MeetingRecord.exists(db, key: meeting.id.rawValue.lowercasedString) {
        try SyncUpsRequest.saveMeeting(meeting, before: nil, syncUpID: syncUp.id, db)
        summary.meetings += 1
      }
    }
    return summary
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
    do {
      _ = try SyncUpsFile.decode(try Data(contentsOf: url))
    } catch {
      throw SyncUpsDatabaseError.importFailed(url: url, reason: describe(error))
    }
  }
}

/// A `sync-ups.json` imported on the first run, and where it was kept (byte for byte).
public struct FirstRunImport: Equatable, Sendable {
  public var summary: ImportSummary
  public var file: URL
  public var keptAs: URL
}
