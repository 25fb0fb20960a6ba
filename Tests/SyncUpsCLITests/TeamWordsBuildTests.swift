import Dependencies
import Foundation
import SpeechAdaptation
import SyncUpsCLI
import SyncUpsFeatures
import TestSupport
import Testing

/// When a sync-up's own language model is rebuilt: whenever what it learns from changed (a
/// meeting recorded or pulled, a correction made here or pulled), and only then.
@Suite("The team's words are rebuilt from the store")
struct TeamWordsBuildTests {
  let folder = try! TemporaryDirectory()
  let database = try! SyncUpsDatabase.inMemory()
  let meeting = Meeting(
    id: Meeting.ID(UUID()), date: Date(timeIntervalSince1970: 1_790_000_000),
    transcript: "",
    segments: [
      .init(speaker: "Ana", start: 0, end: 2, text: "we deployed the nimbus release"),
      .init(speaker: "Ben", start: 3, end: 5, text: "the sword extreme moved the alerts"),
    ])

  func refresh(_ id: SyncUp.ID) async throws -> TeamWordsBuild.Outcome? {
    try await withDependencies {
      $0.dataDirectory = DataDirectory(url: folder.url)
    } operation: {
      try await TeamWordsBuild.refresh(id, database: database)
    }
  }

  func model(_ id: SyncUp.ID) -> String? {
    let path = folder.url.appendingPathComponent(DataDirectory.teamWordsFile(of: id)).path
    return FileManager.default.contents(atPath: path).flatMap {
      String(decoding: $0, as: UTF8.self)
    }
  }

  @Test("New meetings and corrections rebuild the model; nothing new rebuilds nothing")
  func rebuildsWhenTheTextChanges() async throws {
    defer { folder.remove() }
    let syncUp = SyncUp(id: SyncUp.ID(UUID()), meetings: [meeting], title: "Core")
    let empty = SyncUp(id: SyncUp.ID(UUID()), title: "Quiet")
    try database.add(syncUp)
    try database.add(empty)

    // A meeting arrived (as a recording or a pull brings it): built.
    try await withDependencies {
      $0.dataDirectory = DataDirectory(url: folder.url)
    } operation: {
      try await TeamWordsBuild.refresh(changed: [syncUp.id, empty.id], database: database)
    }
    #expect(model(syncUp.id)?.contains(" nimbus") == true)
    #expect(model(empty.id) == nil)
    #expect(try await refresh(syncUp.id)?.rebuilt == false)

    // A correction (made here or pulled): rebuilt with the corrected words.
    _ = try database.correctSegment(
      meeting.id, number: 2, SegmentChange(text: "the Zorbex team moved the alerts"))
    let outcome = try #require(try await refresh(syncUp.id))
    #expect(outcome.rebuilt && outcome.words > 0)
    let text = model(syncUp.id) ?? ""
    #expect(text.contains(" zorbex team") && !text.contains("sword"))
  }

  @Test("A sync-up with nothing to learn from has no model left")
  func noTextNoModel() async throws {
    defer { folder.remove() }
    let syncUp = SyncUp(id: SyncUp.ID(UUID()), meetings: [meeting], title: "Core")
    try database.add(syncUp)
    #expect(try await refresh(syncUp.id)?.rebuilt == true)
    _ = try database.deleteSyncUps([syncUp.id])
    #expect(try await refresh(syncUp.id) == nil)
    #expect(model(syncUp.id) == nil)

    // Deleted elsewhere (a teammate's deletion arrives by a sync): the next sync removes it,
    // even one that did not pull it (a removal that failed before).
    let other = SyncUp(id: SyncUp.ID(UUID()), meetings: [meeting], title: "Other")
    try database.add(other)
    #expect(try await refresh(other.id)?.rebuilt == true)
    _ = try database.deleteSyncUps([other.id])
    try await withDependencies {
      $0.dataDirectory = DataDirectory(url: folder.url)
    } operation: {
      try await TeamWordsBuild.refresh(changed: [], database: database)
    }
    #expect(model(other.id) == nil)
  }

  /// A sync-up whose meetings say `texts` (one meeting each, oldest first), every segment
  /// corrected; its model's chosen share.
  func chosenShare(_ texts: [String]) async throws -> Double? {
    let meetings = texts.enumerated().map { number, text in
      Meeting(
        id: Meeting.ID(UUID()), date: Date(timeIntervalSince1970: 1_790_000_000 + Double(number)),
        transcript: "", segments: [.init(speaker: "Ana", start: 0, end: 2, text: "x")])
    }
    let syncUp = SyncUp(
      id: SyncUp.ID(UUID()), meetings: IdentifiedArray(uniqueElements: meetings), title: "Core")
    try database.add(syncUp)
    for (meeting, text) in zip(meetings, texts) {
      _ = try database.correctSegment(meeting.id, number: 1, SegmentChange(text: text))
    }
    try await refresh(syncUp.id)
    let path = folder.url.appendingPathComponent(DataDirectory.teamWordsFile(of: syncUp.id)).path
    return try #require(TeamWords.load(path: path)).chosenWeight
  }

  @Test("The model's share is chosen on the newest corrected meeting: large when it repeats")
  func theShareIsChosenByHeldOutText() async throws {
    defer { folder.remove() }
    let repeating = try await chosenShare(
      Array(
        repeating: "the zorbex export queue is blocked on the kafka credentials from nimbus",
        count: 4))
    let unrelated = try await chosenShare([
      "the zorbex export queue is blocked on the kafka credentials",
      "we painted the kitchen over the weekend and it looks lovely",
      "my sister visited from the coast with her two dogs",
      "the weather should improve later in the week according to the radio",
    ])
    let repeatingShare = try #require(repeating)
    let unrelatedShare = try #require(unrelated)
    #expect(repeatingShare > 0.5)
    #expect(unrelatedShare < 0.1)
  }
}
