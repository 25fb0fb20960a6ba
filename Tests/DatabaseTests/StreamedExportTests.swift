import Foundation
import SyncUpsFeatures
import Testing

/// `syncups export` writes the store a meeting at a time: the pieces make the same sync-ups as
/// the whole-store export, for any title.
@Suite
struct StreamedExportTests {
  struct File: Decodable {
    var formatVersion: Int
    var syncUps: IdentifiedArrayOf<SyncUp>
  }

  @Test func thePiecesMakeTheWholeStore() throws {
    let database = try SyncUpsDatabase.inMemory()
    let tricky = makeSyncUp(
      #"Titles with "meetings":[] and \ in them"#,
      meetings: [
        makeMeeting(count: 3), makeMeeting(date: Date(timeIntervalSince1970: 1_800_000_000)),
      ])
    let plain = makeSyncUp("Platform", meetings: [makeMeeting(count: 1)])
    let empty = makeSyncUp("Nothing yet")
    try insert([tricky, plain, empty], into: database)

    var pieces: [Data] = []
    let counts = try database.export { pieces.append($0) }
    #expect(counts.syncUps == 3)
    #expect(counts.meetings == 3)
    // At least one piece per meeting: no piece holds the whole store.
    #expect(pieces.count > counts.meetings)
    let data = pieces.reduce(Data(), +)
    #expect(data.last == UInt8(ascii: "\n"))
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .iso8601
    let file = try decoder.decode(File.self, from: data)
    #expect(file.formatVersion == 1)
    #expect(file.syncUps == (try database.exportedSyncUps()))
    #expect(file.syncUps.map(\.title) == [tricky.title, "Platform", "Nothing yet"])
  }

  @Test func anEmptyStoreIsAnEmptyList() throws {
    let database = try SyncUpsDatabase.inMemory()
    var data = Data()
    let counts = try database.export { data.append($0) }
    #expect(counts == ExportCounts(syncUps: 0, meetings: 0))
    #expect(String(decoding: data, as: UTF8.self) == "{\"formatVersion\":1,\"syncUps\":[]}\n")
  }
}
