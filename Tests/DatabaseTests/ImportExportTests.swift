import Foundation
import SyncUpsFeatures
import TestSupport
import Testing

@Suite
struct ImportExportTests {
  func format1(_ syncUps: [SyncUp]) throws -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    encoder.dateEncodingStrategy = .iso8601
    return try encoder.encode(Format1(syncUps: syncUps))
  }

  let syncUps: [SyncUp] = {
    var first = makeSyncUp(
      "Morning Sync",
      meetings: [
        makeMeeting(date: Date(timeIntervalSince1970: 1_790_100_000)),
        makeMeeting(date: Date(timeIntervalSince1970: 1_790_000_000), count: 5),
      ])
    // A transcript that is not the segments' texts joined (older files) survives too.
    first.meetings[1].transcript = "edited by hand"
    first.meetings[0].audioFile =
      "audio/\(first.meetings[0].id.rawValue.uuidString.lowercased()).flac"
    return [first, makeSyncUp("Platform"), makeSyncUp("Empty", meetings: [])]
  }()

  @Test func theFirstOpenImportsSyncUpsJSONAndKeepsItByteForByte() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let bytes = try format1(syncUps)
    try bytes.write(to: directory.dataDirectory.syncUpsFile)
    // The meeting's audio is in the data directory, at the name its id gives: it stays its own.
    let audio = directory.url.appendingPathComponent(try #require(syncUps[0].meetings[0].audioFile))
    try FileManager.default.createDirectory(
      at: audio.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data("flac".utf8).write(to: audio)
    let database = try SyncUpsDatabase.open(directory.dataDirectory)
    #expect(try database.exportedSyncUps() == IdentifiedArray(uniqueElements: syncUps))
    #expect(!FileManager.default.fileExists(atPath: directory.dataDirectory.syncUpsFile.path))
    #expect(try Data(contentsOf: directory.file("sync-ups.json.imported")) == bytes)
    // The next open imports nothing again.
    _ = try SyncUpsDatabase.open(directory.dataDirectory)
    #expect(try count("syncUp", in: database) == 3)
  }

  @Test func exportThenImportIntoAnEmptyStoreRoundTrips() throws {
    let database = try SyncUpsDatabase.inMemory()
    try insert(syncUps, into: database)
    let exported = try database.export()
    let file = FileManager.default.temporaryDirectory.appendingPathComponent(
      "export-\(UUID()).json")
    defer { try? FileManager.default.removeItem(at: file) }
    try exported.write(to: file)
    let copy = try SyncUpsDatabase.inMemory()
    #expect(try copy.importFile(file) == ImportSummary(syncUps: 3, meetings: 2))
    // Audio is not in an export: an imported meeting has none (its `audioFile` names no file).
    var withoutAudio = syncUps
    withoutAudio[0].meetings[0].audioFile = nil
    let expected = try SyncUpsDatabase.inMemory()
    try insert(withoutAudio, into: expected)
    #expect(try copy.export() == (try expected.export()))
    #expect(try copy.exportedSyncUps() == IdentifiedArray(uniqueElements: withoutAudio))
  }

  /// The file is read a meeting at a time: a sync-up whose id comes after its meetings (keys
  /// in another order than syncups writes them) imports the same; a sync-up that breaks a
  /// rule after its meetings were read rolls everything back.
  @Test func aFileReadAPieceAtATimeImportsInAnyKeyOrderAndAllOrNothing() throws {
    let sorted = try format1(syncUps)
    var object = try #require(try JSONSerialization.jsonObject(with: sorted) as? [String: Any])
    let syncUpObjects = try #require(object["syncUps"] as? [[String: Any]])
    // JSONSerialization writes keys in no set order; put "id" last by hand.
    let reordered = try syncUpObjects.map { syncUp -> String in
      let rest = syncUp.filter { $0.key != "id" }
      let restText = String(
        decoding: try JSONSerialization.data(withJSONObject: rest), as: UTF8.self)
      return restText.dropLast() + #","id":"# + "\"\(syncUp["id"] as? String ?? "")\"}"
    }
    object["syncUps"] = nil
    let text = #"{"formatVersion":1,"syncUps":["# + reordered.joined(separator: ",") + "]}"
    let file = FileManager.default.temporaryDirectory.appendingPathComponent(
      "reordered-\(UUID()).json")
    defer { try? FileManager.default.removeItem(at: file) }
    try Data(text.utf8).write(to: file)
    let database = try SyncUpsDatabase.inMemory()
    #expect(try database.importChecked(file) == ImportSummary(syncUps: 3, meetings: 2))
    // An import brings no audio (the file names none that is in this store).
    var withoutAudio = syncUps
    withoutAudio[0].meetings[0].audioFile = nil
    #expect(try database.exportedSyncUps() == IdentifiedArray(uniqueElements: withoutAudio))

    var broken = syncUps
    broken[0] = makeSyncUp("Broken", meetings: [makeMeeting()])
    broken[0].attendees = []
    try format1(broken.reversed()).write(to: file)
    let empty = try SyncUpsDatabase.inMemory()
    #expect(throws: SyncUpsDatabaseError.self) { try empty.importChecked(file) }
    #expect(try count("syncUp", in: empty) == 0)
    #expect(try count("meeting", in: empty) == 0)
  }

  @Test func mergeImportAddsWhatIsMissingAndKeepsWhatIsStored() throws {
    let database = try SyncUpsDatabase.inMemory()
    var syncUps = self.syncUps
    try insert([syncUps[0]], into: database)
    try writeSync(database) { db in try db.execute(sql: "UPDATE syncUp SET title = 'Renamed here'")
    }
    let extra = makeMeeting(date: Date(timeIntervalSince1970: 1_791_000_000))
    syncUps[0].meetings.insert(extra, at: 0)
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("merge-\(UUID()).json")
    defer { try? FileManager.default.removeItem(at: file) }
    try format1(syncUps).write(to: file)
    #expect(try database.importFile(file) == ImportSummary(syncUps: 2, meetings: 1))
    #expect(try database.importFile(file) == ImportSummary())
    let stored = try database.exportedSyncUps()
    #expect(stored.map(\.title) == ["Renamed here", "Platform", "Empty"])
    #expect(stored[0].meetings.ids == syncUps[0].meetings.ids)
  }

  @Test func aFileFromANewerFormatIsNotImportedAndLeftUntouched() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let bytes = Data(#"{"formatVersion": 2, "syncUps": []}"#.utf8)
    try bytes.write(to: directory.dataDirectory.syncUpsFile)
    #expect {
      try SyncUpsDatabase.open(directory.dataDirectory)
    } throws: { error in
      "\(error)".contains("left untouched") && "\(error)".contains("newer")
    }
    #expect(try Data(contentsOf: directory.dataDirectory.syncUpsFile) == bytes)
  }
}
