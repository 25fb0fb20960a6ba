import ConcurrencyExtras
import Foundation
import SyncUpsFeatures
import Testing

@MainActor
struct SyncUpsListTests {
  @Test func addingASyncUpSavesItToTheList() async {
    let store = TestStore(initialState: SyncUpsList.State()) {
      SyncUpsList()
    } withDependencies: {
      $0.uuid = .incrementing
    }
    await store.send(.addSyncUpButtonTapped) {
      $0.destination = .add(
        SyncUpForm.State(
          syncUp: SyncUp(
            id: SyncUp.ID(UUID(0)), attendees: [Attendee(id: Attendee.ID(UUID(1)))]
          )
        )
      )
    }
    var syncUp = SyncUp(
      id: SyncUp.ID(UUID(0)),
      attendees: [
        Attendee(id: Attendee.ID(UUID(1)), name: "Blob"),
        Attendee(id: Attendee.ID(UUID(2)), name: "Blob Jr"),
      ],
      title: "Design"
    )
    await store.send(.destination(.presented(.add(.binding(.set(\.syncUp, syncUp)))))) {
      $0.destination = .add(SyncUpForm.State(syncUp: syncUp))
    }
    await store.send(.confirmAddSyncUpButtonTapped) {
      $0.destination = nil
      $0.$syncUps.withLock { $0 = [syncUp] }
    }
    syncUp.title = "unused"
  }

  @Test func addRefusesASyncUpWithoutANamedAttendee() async {
    let store = TestStore(initialState: SyncUpsList.State()) {
      SyncUpsList()
    } withDependencies: {
      $0.uuid = .incrementing
    }
    await store.send(.addSyncUpButtonTapped) {
      $0.destination = .add(
        SyncUpForm.State(
          syncUp: SyncUp(id: SyncUp.ID(UUID(0)), attendees: [Attendee(id: Attendee.ID(UUID(1)))])
        )
      )
    }
    let blankAttendees = SyncUp(
      id: SyncUp.ID(UUID(0)),
      attendees: [
        Attendee(id: Attendee.ID(UUID(1)), name: ""),
        Attendee(id: Attendee.ID(UUID(2)), name: "    "),
      ],
      title: "Design"
    )
    await store.send(.destination(.presented(.add(.binding(.set(\.syncUp, blankAttendees)))))) {
      $0.destination = .add(SyncUpForm.State(syncUp: blankAttendees))
    }
    // Blank rows are dropped on save; with none left, the form stays and says why.
    await store.send(.confirmAddSyncUpButtonTapped) {
      var form = SyncUpForm.State(syncUp: blankAttendees)
      form.problem = .noAttendees
      $0.destination = .add(form)
    }
    #expect(store.state.syncUps.isEmpty)
    #expect("\(SyncUpProblem.noAttendees)" == "a sync-up needs at least one attendee")
  }

  @Test func addDropsBlankAttendeeRowsAndTrims() async {
    let store = TestStore(initialState: SyncUpsList.State()) {
      SyncUpsList()
    } withDependencies: {
      $0.uuid = .incrementing
    }
    await store.send(.addSyncUpButtonTapped) {
      $0.destination = .add(
        SyncUpForm.State(
          syncUp: SyncUp(id: SyncUp.ID(UUID(0)), attendees: [Attendee(id: Attendee.ID(UUID(1)))])
        )
      )
    }
    let typed = SyncUp(
      id: SyncUp.ID(UUID(0)),
      attendees: [
        Attendee(id: Attendee.ID(UUID(1)), name: " Blob "),
        Attendee(id: Attendee.ID(UUID(2)), name: "    "),
      ],
      title: "  Design "
    )
    await store.send(.destination(.presented(.add(.binding(.set(\.syncUp, typed)))))) {
      $0.destination = .add(SyncUpForm.State(syncUp: typed))
    }
    await store.send(.confirmAddSyncUpButtonTapped) {
      $0.destination = nil
      $0.$syncUps.withLock {
        $0 = [
          SyncUp(
            id: SyncUp.ID(UUID(0)),
            attendees: [Attendee(id: Attendee.ID(UUID(1)), name: "Blob")],
            title: "Design"
          )
        ]
      }
    }
  }

  @Test func dismissAddDiscardsTheForm() async {
    let store = TestStore(initialState: SyncUpsList.State()) {
      SyncUpsList()
    } withDependencies: {
      $0.uuid = .incrementing
    }
    await store.send(.addSyncUpButtonTapped) {
      $0.destination = .add(
        SyncUpForm.State(
          syncUp: SyncUp(id: SyncUp.ID(UUID(0)), attendees: [Attendee(id: Attendee.ID(UUID(1)))])
        )
      )
    }
    await store.send(.dismissAddSyncUpButtonTapped) { $0.destination = nil }
    #expect(store.state.syncUps.isEmpty)
  }

  @Test func deletingASyncUpRemovesItFromTheList() async throws {
    @Shared(.syncUps) var syncUps
    try $syncUps.seed([.mock])
    let learned = LockIsolated<[SyncUp.ID]>([])
    let store = TestStore(initialState: SyncUpsList.State()) {
      SyncUpsList()
    } withDependencies: {
      $0.teamLearning.learnWords = { id in learned.withValue { $0.append(id) } }
    }
    await store.send(.onDelete([0])) { $0.destination = .alert(.deleteSyncUps([.mock])) }
    await store.send(.destination(.presented(.alert(.confirmDeletion([SyncUp.mock.id]))))) {
      $0.destination = nil
    }
    await store.receive(\.deletionPrepared) {
      $0.$syncUps.withLock { $0 = [] }
    }
    await store.finish()
    #expect(syncUps.isEmpty)
    // Its words go with it: with nothing left to learn from, learning them removes its model.
    #expect(learned.value == [SyncUp.mock.id])
  }

  /// The rows go in one save; the meetings' audio files go after them.
  @Test func deleteRemovesTheMeetingsAudioAfterTheRows() async throws {
    var syncUp = SyncUp.mock
    let audio = DataDirectory.audioFile(of: Meeting.ID(UUID(100)))
    syncUp.meetings = [
      Meeting(
        id: Meeting.ID(UUID(100)), date: Date(timeIntervalSince1970: 0), transcript: "",
        audioFile: audio)
    ]
    @Shared(.syncUps) var syncUps
    try $syncUps.seed([syncUp])
    @Dependency(\.syncUpsDatabase) var database
    let deleted = LockIsolated<[String]>([])
    let store = TestStore(initialState: SyncUpsList.State()) {
      SyncUpsList()
    } withDependencies: {
      $0.syncUpDeletion.deleteAudio = { files in
        // The rows are gone first.
        let left = try? await database.writer.read { db in
          try Int.fetchOne(db, sql: "SELECT count(*) FROM meeting")
        }
        if left == 0 { deleted.withValue { $0 += files } }
      }
      $0.teamLearning.learnWords = { _ in }
    }
    await store.send(.onDelete([0])) { $0.destination = .alert(.deleteSyncUps([syncUp])) }
    await store.send(.destination(.presented(.alert(.confirmDeletion([syncUp.id]))))) {
      $0.destination = nil
    }
    await store.receive(\.deletionPrepared) {
      $0.$syncUps.withLock { $0 = [] }
    }
    await store.finish()
    #expect(deleted.value == [audio])
  }

  @Test func deleteAsksFirstAndNoKeepsTheSyncUp() async throws {
    @Shared(.syncUps) var syncUps
    try $syncUps.seed([.mock])
    let store = TestStore(initialState: SyncUpsList.State()) { SyncUpsList() }
    await store.send(.onDelete([0])) { $0.destination = .alert(.deleteSyncUps([.mock])) }
    await store.send(.destination(.dismiss)) { $0.destination = nil }
    #expect(store.state.syncUps == [.mock])
  }

  @Test func aDatabaseThatCannotBeReadIsReported() async throws {
    let database = try SyncUpsDatabase.inMemory()
    try await database.writer.write { db in try db.execute(sql: "DROP TABLE attendee") }
    let store = TestStore(initialState: SyncUpsList.State()) {
      SyncUpsList()
    } withDependencies: {
      $0.syncUpsDatabase = database
    }
    #expect(store.state.syncUps.isEmpty)
    let error = try #require(store.state.$syncUps.loadError)
    await store.send(.onAppear) {
      $0.destination = .alert(.loadFailed(error))
    }
    #expect("\(error)".contains("attendee"))
  }
}
