import Foundation

/// A fresh data directory (for `SYNCUPS_HOME`) holding one sync-up, written as the app writes
/// `sync-ups.json`: id `11111111-2222-3333-4444-555555555555`, attendee ids ending in 1, 2, …
public func seededDataDirectory(
  title: String = "Morning Sync", attendees: [String] = ["Ana", "Ben"], seconds: Int = 300,
  theme: String = "orange"
) throws -> URL {
  let home = try temporaryFolder()
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
  return home
}

/// The sync-ups the data directory `home` holds, as JSON objects: what `syncups export` prints
/// (the format `sync-ups.json` had).
public func savedSyncUps(_ home: URL) throws -> [[String: Any]] {
  let run = try runSyncups(["export"], environment: ["SYNCUPS_HOME": home.path])
  guard run.status == 0 else { throw FixtureError("syncups export failed: \(run)") }
  let file = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any]
  return file?["syncUps"] as? [[String: Any]] ?? []
}
