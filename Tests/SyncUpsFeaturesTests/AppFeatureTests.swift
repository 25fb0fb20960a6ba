import ConcurrencyExtras
import Foundation
import SyncUpsFeatures
import Testing

@MainActor
struct AppFeatureTests {
  @Test func editingInTheDetailUpdatesTheList() async throws {
    @Shared(.syncUps) var syncUps
    try $syncUps.seed([.mock])
    let store = TestStore(initialState: AppFeature.State()) { AppFeature() }
    await store.send(.syncUpTapped(SyncUp.mock.id)) {
      $0.path[id: 0] = nil
      $0.path.append(
        .detail(SyncUpDetail.State(syncUp: Shared($0.syncUpsList.$syncUps[id: SyncUp.mock.id])!)))
    }
    await store.send(.path(.element(id: 0, action: .detail(.editButtonTapped)))) {
      $0.path[id: 0] = .detail(
        SyncUpDetail.State(
          destination: .edit(SyncUpForm.State(syncUp: .mock)),
          syncUp: Shared($0.syncUpsList.$syncUps[id: SyncUp.mock.id])!
        )
      )
    }
    var edited = SyncUp.mock
    edited.title = "Blob"
    await store.send(
      .path(
        .element(
          id: 0,
          action: .detail(.destination(.presented(.edit(.binding(.set(\.syncUp.title, "Blob"))))))))
    ) {
      $0.path[id: 0] = .detail(
        SyncUpDetail.State(
          destination: .edit(SyncUpForm.State(syncUp: edited)),
          syncUp: Shared($0.syncUpsList.$syncUps[id: SyncUp.mock.id])!
        )
      )
    }
    await store.send(.path(.element(id: 0, action: .detail(.doneEditingButtonTapped)))) {
      $0.path[id: 0] = .detail(
        SyncUpDetail.State(syncUp: Shared($0.syncUpsList.$syncUps[id: SyncUp.mock.id])!)
      )
      $0.syncUpsList.$syncUps.withLock { $0[0].title = "Blob" }
    }
    #expect(syncUps[0].title == "Blob")
  }

  @Test func meetingRecordedFromThePushedScreenReachesTheListAndTheDatabase() async throws {
    let clock = TestClock()
    let now = Date(timeIntervalSince1970: 1_234_567_890)
    @Dependency(\.syncUpsDatabase) var database
    let learned = LockIsolated<[SyncUp.ID]>([])
    let store = TestStore(initialState: AppFeature.State()) {
      AppFeature()
    } withDependencies: {
      $0.continuousClock = clock
      $0.date.now = now
      $0.teamLearning.learnWords = { id in learned.withValue { $0.append(id) } }
      $0.uuid = .incrementing
      $0.recordingStore = .database(database)
      $0.audioCapture.checkAvailability = { _ in throw CaptureFailure() }
    }
    store.exhaustivity = .off  // The timer's ticks are covered by RecordMeetingTests.
    await store.send(.syncUpsList(.addSyncUpButtonTapped))
    await store.send(.syncUpsList(.destination(.presented(.add(.binding(.set(\.syncUp, .mock)))))))
    await store.send(.syncUpsList(.confirmAddSyncUpButtonTapped)) {
      $0.syncUpsList.$syncUps.withLock { $0 = [.mock] }
    }
    await store.send(.syncUpTapped(SyncUp.mock.id))
    await store.send(.path(.element(id: 0, action: .detail(.startMeetingButtonTapped))))
    await store.receive(\.path?[id: 0]?.detail?.audioCaptureUnavailable)
    await store.send(
      .path(
        .element(
          id: 0, action: .detail(.destination(.presented(.alert(.continueWithoutRecording)))))))
    await store.receive(\.path?[id: 0]?.detail?.delegate?.startMeeting)
    #expect(store.state.path.count == 2)
    guard case .record = store.state.path.last else {
      Issue.record("Expected the record screen on top")
      return
    }
    await store.send(.path(.element(id: 1, action: .record(.onTask))))
    await clock.tick(6)
    await store.receive(\.path?.popFrom, 1) {
      $0.path.pop(from: 1)
    }
    let meeting = Meeting(id: Meeting.ID(UUID(2)), date: now, transcript: "", length: 6)
    #expect(store.state.syncUpsList.syncUps[0].meetings == [meeting])

    // In the database: finished (not a recording any more), with how long it ran.
    try store.state.syncUpsList.$syncUps.save()
    let summaries = try await database.writer.read { db in
      try MeetingSummariesRequest(syncUpID: SyncUp.mock.id).fetch(db)
    }
    #expect(summaries.map(\.id) == [meeting.id])
    #expect(summaries.map(\.length) == [6])
    #expect(try database.unfinished().isEmpty)
    // The saved meeting taught the sync-up's words (`TeamLearning`), once.
    #expect(learned.value == [SyncUp.mock.id])
  }

  /// The parent acts on the element that sent the delegate action, not on the top of the stack.
  @Test func aMeetingOpensFromTheDetailThatAskedEvenWhenAnotherIsOnTop() async throws {
    let meeting = Meeting(
      id: Meeting.ID(UUID(50)), date: Date(timeIntervalSince1970: 0), transcript: "hi")
    var first = SyncUp.mock
    first.meetings = [meeting]
    let second = SyncUp(
      id: SyncUp.ID(UUID(60)), attendees: [Attendee(id: Attendee.ID(UUID(61)), name: "Ana")],
      title: "Other")
    @Shared(.syncUps) var syncUps
    try $syncUps.seed([first, second])
    let firstShared = try #require(Shared($syncUps[id: first.id]))
    let secondShared = try #require(Shared($syncUps[id: second.id]))
    let store = TestStore(
      initialState: AppFeature.State(
        path: StackState([
          .detail(SyncUpDetail.State(syncUp: firstShared)),
          .detail(SyncUpDetail.State(syncUp: secondShared)),
        ])
      )
    ) {
      AppFeature()
    }
    // Only the pushed screen matters here (stack ids are covered by the navigation tests).
    store.exhaustivity = .off
    await store.send(.path(.element(id: 0, action: .detail(.meetingTapped(meeting.id)))))
    await store.receive(\.path?[id: 0]?.detail?.delegate?.showMeeting)
    #expect(store.state.path.count == 3)
    guard case .meeting(let shown)? = store.state.path.last else {
      Issue.record("the meeting is not shown")
      return
    }
    #expect(shown == MeetingFeature.State(meeting: meeting, syncUp: first))
  }
}
