import Foundation
import SyncUpsFeatures
import SyncUpsTestSupport
import TestSupport
import Testing

/// Runs `syncups` to completion.
func syncups(
  _ arguments: [String], home: URL, environment: [String: String] = [:]
) async throws -> (status: Int32?, stdout: String, stderr: String) {
  let process = try RunningSyncups(arguments, home: home, environment: environment)
  let status = await process.finish()
  return (status, process.stdout, process.stderr)
}

/// A fresh data directory with one sync-up in its database (a `sync-ups.json` imported, as on
/// a first run).
func dataDirectory(
  title: String = "Morning Sync", attendees: [String] = ["Ana", "Ben", "Cleo"], seconds: Int = 36
) throws -> URL {
  let home = try TemporaryDirectory().url
  let people = attendees.enumerated().map { index, name in
    ["id": "11111111-2222-3333-4444-00000000000\(index)", "name": name]
  }
  let file: [String: Any] = [
    "formatVersion": 1,
    "syncUps": [
      [
        "id": syncUpID, "title": title, "duration": seconds, "theme": "orange",
        "attendees": people, "meetings": [],
      ]
    ],
  ]
  try JSONSerialization.data(withJSONObject: file).write(
    to: home.appendingPathComponent("sync-ups.json"))
  _ = try SyncUpsDatabase.open(DataDirectory(url: home))
  return home
}

/// Replaces the database of `home` by `bytes` (a damaged file).
func damageDatabase(_ home: URL, with bytes: Data) throws {
  for suffix in ["", "-wal", "-shm"] {
    try? FileManager.default.removeItem(at: home.appendingPathComponent("syncups.sqlite" + suffix))
  }
  try bytes.write(to: home.appendingPathComponent("syncups.sqlite"))
}

let syncUpID = "11111111-2222-3333-4444-555555555555"

/// The meetings the database holds for the sync-up titled `title`, newest first.
func savedMeetings(_ home: URL, title: String = "Morning Sync") throws -> [[String: Any]] {
  let syncUps = try savedSyncUps(home)
  return syncUps.first { $0["title"] as? String == title }?["meetings"] as? [[String: Any]] ?? []
}

func segments(_ meeting: [String: Any]) -> [(speaker: String, text: String)] {
  (meeting["segments"] as? [[String: Any]] ?? []).map {
    ($0["speaker"] as? String ?? "", $0["text"] as? String ?? "")
  }
}

/// Lines that are final utterances ("[mm:ss] Name: text"), as the record command prints them.
func utteranceLines(_ output: String) -> [String] {
  output.split(separator: "\n").map(String.init).filter {
    $0.hasPrefix("[") && !$0.contains("] Speaker ")
  }
}

/// Waits until no whole-sentence pass is left to do: a second pass that had not caught up when
/// the recording ended finishes in the background (`syncups sentences`).
func waitForSentencePasses(_ home: URL) async throws {
  #expect(await waitForBackgroundLearning(home))
  let database = try SyncUpsDatabase.open(DataDirectory(url: home))
  #expect(try database.pendingSentencePasses().isEmpty)
}
