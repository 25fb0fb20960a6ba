import Foundation
import GRDB

// A meeting's audio is `audio/<meeting id>.flac` in the data directory, a name the program
// derives from the id (`DataDirectory.audioFile(of:)`); the `audioFile` column only says whether
// the meeting has audio, and always holds that name. No path that came from outside (an import,
// a database written by an older syncups, later a sync) is ever opened, moved or removed.

extension DataDirectory {
  /// True for a name `audioFile(of:)` gives: `audio/<lower-case uuid>.flac`, nothing else.
  public static func isAudioFileName(_ name: String) -> Bool {
    let parts = name.split(separator: "/", omittingEmptySubsequences: false)
    guard parts.count == 2, parts[0] == "audio", parts[1].hasSuffix(".flac"),
      let id = UUID(uuidString: String(parts[1].dropLast(5)))
    else { return false }
    return name == audioFile(of: Meeting.ID(id))
  }

  /// The audio a meeting from elsewhere brings, by the derived rule: its derived name when that
  /// file is in the data directory. `claimed` (the path an older store or file gave) is used
  /// only when `moving` and it is this meeting's own name under `audio/` in another case
  /// (`audio/<UPPER-CASE ID>.flac`, as early versions wrote it): that file is renamed to the
  /// derived name. Anything else claimed is ignored: nil, no audio.
  func adoptedAudio(of id: Meeting.ID, claimed: String?, moving: Bool) -> String? {
    guard let claimed else { return nil }
    let derived = DataDirectory.audioFile(of: id)
    let target = url.appendingPathComponent(derived)
    if FileManager.default.fileExists(atPath: target.path) { return derived }
    guard moving, claimed.lowercased() == derived, claimed.hasPrefix("audio/"),
      !claimed.dropFirst(6).contains("/")
    else { return nil }
    let source = url.appendingPathComponent(claimed)
    guard (try? FileManager.default.moveItem(at: source, to: target)) != nil else { return nil }
    return derived
  }
}

extension DataDirectory {
  /// How much audio a killed recording left in `audio` (a name `audioFile(of:)` gives): the
  /// time from the meeting's start to the file's last write. Its header does not say: the
  /// recorder writes the length when it closes the file, which a killed recording never did.
  func secondsOfAudio(_ audio: String, startedAt start: Date) -> TimeInterval {
    let path = url.appendingPathComponent(audio).path
    guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
      let written = attributes[.modificationDate] as? Date
    else { return 0 }
    return written.timeIntervalSince(start)
  }
}

extension Schema {
  /// v3: every stored `audioFile` becomes the derived name (an older file's audio under its own
  /// id in another case is renamed to it), or nil when no such file is there. A recording that
  /// still runs keeps its row until it finishes or is recovered (`recoverUnfinished` applies the
  /// same rule).
  static func deriveAudioNames(_ db: Database, directory: DataDirectory?) throws {
    let rows = try Row.fetchAll(
      db, sql: "SELECT id, audioFile, isFinished FROM meeting WHERE audioFile IS NOT NULL")
    for row in rows {
      let id: Meeting.ID = row["id"]
      let claimed: String = row["audioFile"]
      guard claimed != DataDirectory.audioFile(of: id) else { continue }
      let adopted = directory?.adoptedAudio(of: id, claimed: claimed, moving: true)
      if adopted == nil, row["isFinished"] == false { continue }
      try db.execute(
        sql: "UPDATE meeting SET audioFile = ? WHERE id = ?", arguments: [adopted, id])
    }
  }
}
