import Architecture
import Dependencies
import Foundation
import WorkerThreads

/// What deleting sync-ups needs beyond removing them from `@Shared(.syncUps)` (whose save
/// deletes their rows, meetings and segments in one transaction, through
/// `SyncUpsDatabase.deleteSyncUps`): refusing while one of them is being recorded, and deleting
/// their meetings' audio files once the rows are gone.
public struct SyncUpDeletion: Sendable {
  /// Checks that none of the sync-ups is being recorded (in any process) and returns their
  /// meetings' audio files, relative to the data directory. Throws `SyncUpBeingRecorded`.
  public var prepare: @Sendable (_ ids: [SyncUp.ID]) async throws -> [String] = unimplemented(
    "SyncUpDeletion.prepare")
  /// Deletes those audio files (one already gone is fine).
  public var deleteAudio: @Sendable (_ files: [String]) async -> Void = unimplemented(
    "SyncUpDeletion.deleteAudio")

  public init(
    prepare: @escaping @Sendable (_ ids: [SyncUp.ID]) async throws -> [String],
    deleteAudio: @escaping @Sendable (_ files: [String]) async -> Void
  ) {
    self.prepare = prepare
    self.deleteAudio = deleteAudio
  }

  /// Every endpoint unimplemented: calling one reports an issue (and throws, or returns a
  /// placeholder). The test value.
  public init() {}
}

extension SyncUpDeletion: DependencyKey {
  public static var liveValue: SyncUpDeletion {
    @Dependency(\.syncUpsDatabase) var database
    @Dependency(\.dataDirectory) var directory
    return .database(database, removingFilesIn: directory)
  }

  /// Checks the test database; files are never touched.
  public static var testValue: SyncUpDeletion {
    @Dependency(\.syncUpsDatabase) var database
    return SyncUpDeletion(
      prepare: { ids in try database.deletionAudioFiles(ids) },
      deleteAudio: { _ in }
    )
  }

  public static func database(
    _ database: SyncUpsDatabase, removingFilesIn directory: DataDirectory
  ) -> SyncUpDeletion {
    SyncUpDeletion(
      prepare: { ids in
        try await WorkerThread.run(name: "syncups-delete") {
          try database.deletionAudioFiles(ids)
        }
      },
      deleteAudio: { files in
        guard !files.isEmpty else { return }
        _ = try? await WorkerThread.run(name: "syncups-delete") {
          // Only names the program derives (`audio/<meeting id>.flac`): never a path from
          // outside the data directory.
          for file in files where DataDirectory.isAudioFileName(file) {
            try? FileManager.default.removeItem(at: directory.url.appendingPathComponent(file))
          }
        }
      }
    )
  }
}

extension SyncUpDeletion {
  /// What follows every deletion once its rows are gone, whichever front end deleted (the list,
  /// a sync-up's screen, `syncups delete`): the meetings' audio files go, then each sync-up's
  /// words are learned again from what is left (a deleted sync-up's model is removed). Nil, or
  /// one line saying what was not learned (derived data: the next change rebuilds it).
  public func finish(
    _ syncUpIDs: [SyncUp.ID], audioFiles: [String], learning: TeamLearning
  ) async -> String? {
    await deleteAudio(audioFiles)
    var problem: String?
    for id in syncUpIDs {
      if let line = await learning.relearnWords(id) { problem = line }
    }
    return problem
  }
}

extension DependencyValues {
  public var syncUpDeletion: SyncUpDeletion {
    get { self[SyncUpDeletion.self] }
    set { self[SyncUpDeletion.self] = newValue }
  }
}
