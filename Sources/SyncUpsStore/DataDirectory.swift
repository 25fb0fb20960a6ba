import Dependencies
import Foundation
import Tagged

/// Where SyncUps keeps its data: `$SYNCUPS_HOME`, else `$XDG_DATA_HOME/syncups`, else
/// `~/.local/share/syncups`. A dependency, so tests choose their own (temporary) directory.
public struct DataDirectory: Sendable, Equatable {
  public var url: URL

  public init(url: URL) { self.url = url }

  /// Where sync-ups were kept before the database: imported on the first run, then renamed
  /// `sync-ups.json.imported`.
  public var syncUpsFile: URL { url.appendingPathComponent("sync-ups.json") }
  /// Recorded meeting audio, one FLAC file per meeting.
  public var audioDirectory: URL { url.appendingPathComponent("audio", isDirectory: true) }

  /// A saved meeting's audio, relative to the data directory (as `Meeting.audioFile` holds it).
  public static func audioFile(of meeting: Meeting.ID) -> String {
    "audio/\(meeting.rawValue.lowercasedString).flac"
  }

  /// A sync-up's own language model (derived from its transcripts, rebuilt from the store),
  /// relative to the data directory.
  public static func teamWordsFile(of syncUp: SyncUp.ID) -> String {
    "words/\(syncUp.rawValue.lowercasedString).lm"
  }

  /// Resolves the directory from the environment, as the app does.
  public static func resolve(
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> DataDirectory {
    if let home = environment["SYNCUPS_HOME"], !home.isEmpty {
      return DataDirectory(url: URL(fileURLWithPath: home, isDirectory: true))
    }
    if let xdg = environment["XDG_DATA_HOME"], !xdg.isEmpty {
      return DataDirectory(
        url: URL(fileURLWithPath: xdg, isDirectory: true).appendingPathComponent("syncups"))
    }
    let home =
      environment["HOME"].map { URL(fileURLWithPath: $0, isDirectory: true) }
      ?? FileManager.default.homeDirectoryForCurrentUser
    return DataDirectory(
      url: home.appendingPathComponent(".local/share/syncups", isDirectory: true))
  }
}

extension DataDirectory: DependencyKey {
  public static var liveValue: DataDirectory { .resolve() }
  /// Tests use an in-memory database unless they ask for a real one, so this path is never
  /// written to by accident.
  public static var testValue: DataDirectory {
    DataDirectory(url: URL(fileURLWithPath: "/syncups-tests", isDirectory: true))
  }
}

extension DependencyValues {
  public var dataDirectory: DataDirectory {
    get { self[DataDirectory.self] }
    set { self[DataDirectory.self] = newValue }
  }
}
