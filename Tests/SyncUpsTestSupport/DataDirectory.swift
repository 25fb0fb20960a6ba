import Foundation
import SyncUpsFeatures
import TestSupport

/// A fresh data directory (for `SYNCUPS_HOME`) holding one sync-up in its database (written as
/// a `sync-ups.json` and imported, as a first run does): id
/// `11111111-2222-3333-4444-555555555555`, attendee ids ending in 1, 2, …
public func seededDataDirectory(
  title: String = "Morning Sync", attendees: [String] = ["Ana", "Ben"], seconds: Int = 300,
  theme: String = "orange"
) throws -> URL {
  let home = try TemporaryDirectory().url
  let people = attendees.enumerated().map { index, name in
    ["id": String(format: "11111111-2222-3333-4444-%012d", index + 1), "name": name]
  }
  let syncUp: [String: Any] = [
    "id": "11111111-2222-3333-4444-555555555555", "title": title, "duration": seconds,
    "theme": theme, "attendees": people, "meetings": [],
  ]
  let file: [String: Any] = ["formatVersion": 1, "syncUps": [syncUp]]
  try JSONSerialization.data(withJSONObject: file)
    .write(to: home.appendingPathComponent("sync-ups.json"))
  _ = try SyncUpsDatabase.open(DataDirectory(url: home))
  return home
}

/// The sync-ups the database in `home` holds, with their meetings and transcripts, as JSON
/// objects (the format-1 JSON `sync-ups.json` held).
public func savedSyncUps(_ home: URL) throws -> [[String: Any]] {
  let data = try SyncUpsDatabase.open(DataDirectory(url: home)).export()
  let file = try JSONSerialization.jsonObject(with: data) as? [String: Any]
  return file?["syncUps"] as? [[String: Any]] ?? []
}
