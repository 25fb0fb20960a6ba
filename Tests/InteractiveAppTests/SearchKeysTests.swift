import Foundation
import SyncUpsFeatures
import TestSupport
import Testing

@testable import SyncUpsCLI

/// `/` from the list, typing, choosing a hit, and the remembered selection, on the app's store
/// without a terminal (an in-memory database, the live search over it).
@MainActor
@Suite("Interactive search keys")
struct SearchKeysTests {
  static let morning = SyncUp(
    id: SyncUp.ID(UUID(uuidString: "00000000-0000-0000-0000-000000000001")!),
    attendees: [
      Attendee(id: Attendee.ID(UUID()), name: "Ana"),
      Attendee(id: Attendee.ID(UUID()), name: "Ben"),
    ],
    meetings: [
      Meeting(
        id: Meeting.ID(UUID(uuidString: "00000000-0000-0000-0000-0000000000F0")!),
        date: Date(timeIntervalSince1970: 1_790_000_000), transcript: "",
        segments: (0..<40).map(Self.segment))
    ],
    title: "Morning Sync")
  /// Forty turns; the one about the staging server is far down.
  nonisolated static func segment(_ index: Int) -> Meeting.Segment {
    let text = index == 30 ? "the staging server is down again" : "update number \(index)"
    let start = Double(index * 10)
    return Meeting.Segment(
      speaker: index % 2 == 0 ? "Ana" : "Ben", start: start, end: start + 8, text: text)
  }

  static let platform = SyncUp(
    id: SyncUp.ID(UUID(uuidString: "00000000-0000-0000-0000-000000000002")!),
    attendees: [Attendee(id: Attendee.ID(UUID()), name: "Cleo")], title: "Platform")

  let database = try! SyncUpsDatabase.inMemory()
  let storage = AppStorage.inMemory()

  func makeApp() throws -> InteractiveApp {
    try withDependencies {
      $0.syncUpsDatabase = database
      $0.defaultAppStorage = storage
      $0.transcriptSearch = .live(database)
      $0.continuousClock = ImmediateClock()
      $0.uuid = .incrementing
    } operation: {
      try InteractiveApp()
    }
  }

  init() throws {
    try withDependencies {
      $0.syncUpsDatabase = database
    } operation: {
      @Shared(.syncUps) var syncUps
      $syncUps.withLock { $0 = [Self.morning, Self.platform] }
      try $syncUps.save()
    }
  }

  @Test func slashSearchesAndEnterOpensTheMeetingAtTheSegment() async throws {
    let app = try makeApp()
    func searchState() -> TranscriptSearchFeature.State? {
      guard case .search(let state)? = app.store.state.syncUpsList.destination else { return nil }
      return state
    }
    app.handle(.character("/"))
    #expect(searchState() == TranscriptSearchFeature.State())
    for character in "stagx" { app.handle(.character(character)) }
    app.handle(.backspace)
    #expect(searchState()?.query == "stag")
    #expect(
      await waitUntil { searchState()?.hits.count == 1 && searchState()?.isSearching == false },
      "\(String(describing: searchState()))")
    let hit = try #require(searchState()?.hits.first)
    #expect(hit.segment == 30)
    #expect(hit.text == "the \u{E000}staging\u{E001} server is down again")
    let screen = ListScreen(state: app.store.state.syncUpsList, width: 80, height: 24).lines
    #expect(screen.contains { $0.contains("Morning Sync · ") && $0.contains(" · 05:00 · Ana") })

    app.handle(.enter)
    guard case .meeting(let meeting)? = app.store.state.path.last else {
      Issue.record("enter did not open the meeting")
      return
    }
    #expect(meeting.highlightedSegment == 30)
    let meetingScreen = MeetingScreen(state: meeting, offset: app.meetingOffset)
    #expect(app.meetingOffset > 0)
    #expect(app.meetingOffset == meetingScreen.highlightOffset)
    #expect(meetingScreen.lines.contains { $0.contains("›[05:00] Ana: the staging server") })

    // Back from the meeting: the hits again; escape: the list.
    app.handle(.escape)
    #expect(app.store.state.path.isEmpty)
    #expect(searchState()?.hits.count == 1)
    app.handle(.escape)
    #expect(app.store.state.syncUpsList.destination == nil)
  }

  @Test func theSelectedSyncUpIsRememberedForTheNextStart() throws {
    let first = try makeApp()
    first.restoreListSelection()
    #expect(first.listSelection == 0)
    first.handle(.down)
    #expect(first.listSelection == 1)

    let second = try makeApp()
    second.restoreListSelection()
    #expect(second.listSelection == 1)
    // A remembered sync-up that is gone leaves the first one selected.
    second.handle(.up)
    try withDependencies {
      $0.syncUpsDatabase = database
    } operation: {
      @Shared(.syncUps) var syncUps
      $syncUps.withLock { _ = $0.remove(id: Self.morning.id) }
      try $syncUps.save()
    }
    let third = try makeApp()
    third.restoreListSelection()
    #expect(third.listSelection == 0)
  }
}
