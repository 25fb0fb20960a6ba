import Foundation
import SyncUpsFeatures

/// The sync-ups as the commands that edit them see them: the process's database
/// (`CommandDatabase`) with every sync-up loaded into `@Shared(.syncUps)`, so an edit goes
/// through the shared list (and `record` saves its meeting through a reference derived from
/// it). Commands that only read use `CommandDatabase` alone.
public struct EditableSyncUps: Sendable {
  public let syncUps: Shared<IdentifiedArrayOf<SyncUp>>
  public let data: CommandDatabase
  public var database: SyncUpsDatabase { data.database }

  /// Opens the data: meetings whose recording died are finished first, each said in one line.
  public static func open() async throws(CLIError) -> EditableSyncUps {
    try load(try await CommandDatabase.open())
  }

  /// Opens the data without looking for unfinished meetings (`open` does both).
  public static func load() throws(CLIError) -> EditableSyncUps {
    try load(try CommandDatabase.openWithoutRecovery())
  }

  private static func load(_ data: CommandDatabase) throws(CLIError) -> EditableSyncUps {
    data.observed()
    @Shared(.syncUps) var syncUps
    if let error = $syncUps.loadError {
      throw CLIError(
        "cannot read your sync-ups: "
          + "\(SyncUpsDatabaseError(error, url: data.database.directory?.databaseFile))")
    }
    return EditableSyncUps(syncUps: $syncUps, data: data)
  }

  /// Writes what is pending now; says why when it cannot (nothing is claimed saved then).
  public func save() throws(CLIError) {
    do {
      try syncUps.save()
    } catch {
      throw CLIError(
        "cannot save your sync-ups: "
          + "\(SyncUpsDatabaseError(error, url: database.directory?.databaseFile))")
    }
  }

  /// Refuses a change before it is made when the database can only be read.
  public func checkWritable() throws(CLIError) { try data.checkWritable() }

  /// The sync-up `reference` names (see `SyncUpName.resolve`), as a reference into the list.
  public func resolve(_ reference: String) throws(CLIError) -> Shared<SyncUp> {
    let match = try SyncUpName.resolve(reference, in: syncUps.wrappedValue.map(\.name))
    guard let shared = Shared(syncUps[id: match.id]) else {
      throw CLIError("\(match.label) was deleted meanwhile")
    }
    return shared
  }
}
