import Foundation
import GRDB
import SyncClient
import SyncUpsFeatures
import TestSupport

@testable import TeamSync

/// A laptop under test: a data directory of its own with a real `syncups.sqlite`.
final class Laptop: Sendable {
  let folder: TemporaryDirectory
  let database: SyncUpsDatabase

  /// A laptop of `folder` (a new one when nil), its database opened (and migrated) there.
  init(folder: TemporaryDirectory? = nil) throws {
    self.folder = try folder ?? TemporaryDirectory()
    database = try SyncUpsDatabase.open(DataDirectory(url: self.folder.url))
  }

  deinit {
    try? database.writer.close()
    folder.remove()
  }

  func sync(_ server: FakeTeamServer, pageLimit: Int? = nil) async throws -> TeamSync.Report {
    try await TeamSync(
      database: database, team: testTeam, client: server.client(pageLimit: pageLimit)
    )
    .run()
  }

  /// The outbox: kind, id, generation, in order.
  func outbox() throws -> [Outbox.Entry] {
    try database.writer.read { db in
      try Row.fetchAll(db, sql: "SELECT kind, entityId, generation FROM syncOutbox ORDER BY rowid")
        .map {
          Outbox.Entry(kind: $0["kind"], entityId: $0["entityId"], generation: $0["generation"])
        }
    }
  }

  func clocks(_ id: some CustomStringConvertible) throws -> [String: String] {
    try database.writer.read { db in
      Dictionary(
        uniqueKeysWithValues: try StoredDocuments.clocks("\(id)".lowercased(), db).map {
          ($0.key.description, $0.value.description)
        })
    }
  }

  func syncUps() throws -> IdentifiedArrayOf<SyncUp> {
    try database.exportedSyncUps()
  }

  func export() throws -> String { String(decoding: try database.export(), as: UTF8.self) }

  /// Records a finished meeting of `segments` into `syncUp`, as `record` does (begin, append
  /// each utterance, finish), with an audio file of `audio` bytes when given.
  @discardableResult
  func record(
    into syncUp: SyncUp.ID, segments: [Meeting.Segment], audio: Data? = nil,
    date: Date = Date(timeIntervalSince1970: 1_795_000_000)
  ) throws -> Meeting.ID {
    let id = Meeting.ID(UUID())
    var file: String?
    if let audio {
      file = DataDirectory.audioFile(of: id)
      let url = folder.url.appendingPathComponent(file!)
      try FileManager.default.createDirectory(
        at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      try audio.write(to: url)
    }
    let meeting = Meeting(id: id, date: date, transcript: "", audioFile: file)
    try database.begin(meeting, syncUpID: syncUp)
    for segment in segments { try database.append(segment, meetingID: id) }
    _ = try database.finishRecording(id, audioFile: file)
    return id
  }
}

func segment(_ speaker: String, _ text: String, at start: Double) -> Meeting.Segment {
  let words = text.split(separator: " ").enumerated().map { index, word in
    Meeting.Word(
      word: String(word), start: start + Double(index) * 0.5,
      end: start + Double(index) * 0.5 + 0.4,
      confidence: 0.25 + Double(index % 3) * 0.25)
  }
  return Meeting.Segment(
    speaker: speaker, start: start, end: start + Double(words.count) * 0.5, text: text, words: words
  )
}

func standup(_ title: String = "Morning Sync", attendees: [String] = ["Ana", "Ben"]) -> SyncUp {
  SyncUp(
    id: SyncUp.ID(UUID()),
    attendees: IdentifiedArray(
      uniqueElements: attendees.map { Attendee(id: Attendee.ID(UUID()), name: $0) }),
    duration: .seconds(300), theme: .seafoam, title: title, vocabulary: ["grafana", "terraform"])
}
