import AudioCaptureClient
import ConcurrencyExtras
import Foundation
import SyncUpsFeatures
import Testing

@MainActor
struct SyncUpDetailTests {
  @Test func editWritesBackOnDone() async {
    let store = TestStore(initialState: SyncUpDetail.State(syncUp: Shared(value: .mock))) {
      SyncUpDetail()
    }
    await store.send(.editButtonTapped) {
      $0.destination = .edit(SyncUpForm.State(syncUp: .mock))
    }
    var syncUp = SyncUp.mock
    syncUp.title = "Blob's Meeting"
    await store.send(.destination(.presented(.edit(.binding(.set(\.syncUp.title, syncUp.title))))))
    {
      $0.destination = .edit(SyncUpForm.State(syncUp: syncUp))
    }
    await store.send(.doneEditingButtonTapped) {
      $0.destination = nil
      $0.$syncUp.withLock { $0.title = "Blob's Meeting" }
    }
  }

  @Test func cancelEditDiscardsTheCopy() async {
    let store = TestStore(initialState: SyncUpDetail.State(syncUp: Shared(value: .mock))) {
      SyncUpDetail()
    }
    await store.send(.editButtonTapped) {
      $0.destination = .edit(SyncUpForm.State(syncUp: .mock))
    }
    var syncUp = SyncUp.mock
    syncUp.title = "Changed"
    await store.send(.destination(.presented(.edit(.binding(.set(\.syncUp.title, "Changed")))))) {
      $0.destination = .edit(SyncUpForm.State(syncUp: syncUp))
    }
    await store.send(.cancelEditButtonTapped) { $0.destination = nil }
    #expect(store.state.syncUp.title == "Morning Sync")
  }

  @Test func deleteRemovesTheSyncUpFromTheListAndDismisses() async throws {
    @Shared(.syncUps) var syncUps
    try $syncUps.seed([.mock])
    let syncUp = try #require(Shared($syncUps[id: SyncUp.mock.id]))
    let learned = LockIsolated<[SyncUp.ID]>([])
    let store = TestStore(initialState: SyncUpDetail.State(syncUp: syncUp)) {
      SyncUpDetail()
    } withDependencies: {
      $0.teamLearning.learnWords = { id in learned.withValue { $0.append(id) } }
    }
    await store.send(.deleteButtonTapped) { $0.destination = .alert(.deleteSyncUp) }
    await store.send(.destination(.presented(.alert(.confirmDeletion)))) { $0.destination = nil }
    await store.receive(\.deletionPrepared)
    await store.finish()
    #expect(store.isDismissed)
    #expect(syncUps.isEmpty)
    // Its words go with it: with nothing left to learn from, learning them removes its model.
    #expect(learned.value == [SyncUp.mock.id])
  }

  /// A sync-up being recorded (here, by this process) is not deleted: the alert says why.
  @Test func deleteIsRefusedWhileASyncUpIsBeingRecorded() async throws {
    @Shared(.syncUps) var syncUps
    try $syncUps.seed([.mock])
    @Dependency(\.syncUpsDatabase) var database
    try await RecordingStore.database(database).begin(
      MeetingRecording(
        meetingID: Meeting.ID(UUID(50)), syncUpID: SyncUp.mock.id,
        started: Date(timeIntervalSince1970: 0), audioFile: nil))
    let syncUp = try #require(Shared($syncUps[id: SyncUp.mock.id]))
    let store = TestStore(initialState: SyncUpDetail.State(syncUp: syncUp)) { SyncUpDetail() }
    await store.send(.deleteButtonTapped) { $0.destination = .alert(.deleteSyncUp) }
    await store.send(.destination(.presented(.alert(.confirmDeletion)))) { $0.destination = nil }
    await store.receive(\.deletionFailed) {
      $0.destination = .alert(
        .deletionFailed(
          "'Morning Sync' is being recorded; nothing was deleted: end that recording, then "
            + "delete it"))
    }
    #expect(!store.isDismissed)
    #expect(syncUps.ids == [SyncUp.mock.id])
  }

  /// The meetings go, and the sync-up's words are learned again without them (whatever front
  /// end deleted them).
  @Test func deletingMeetingsRemovesThemFromTheSyncUp() async {
    var syncUp = SyncUp.mock
    let meetings = (0..<3).map {
      Meeting(
        id: Meeting.ID(UUID($0 + 100)), date: Date(timeIntervalSince1970: 0), transcript: "\($0)")
    }
    syncUp.meetings = IdentifiedArray(uniqueElements: meetings)
    let learned = LockIsolated<[SyncUp.ID]>([])
    let store = TestStore(initialState: SyncUpDetail.State(syncUp: Shared(value: syncUp))) {
      SyncUpDetail()
    } withDependencies: {
      $0.teamLearning.learnWords = { id in learned.withValue { $0.append(id) } }
    }
    await store.send(.deleteMeetings(atOffsets: [1])) {
      $0.$syncUp.withLock { _ = $0.meetings.remove(id: Meeting.ID(UUID(101))) }
    }
    await store.finish()
    #expect(learned.value == [syncUp.id])
  }

  @Test func deletingAMeetingDeletesItsAudioAfterItsRow() async throws {
    var syncUp = SyncUp.mock
    let meetings = (0..<2).map {
      Meeting(
        id: Meeting.ID(UUID($0 + 100)), date: Date(timeIntervalSince1970: Double($0)),
        transcript: "", audioFile: DataDirectory.audioFile(of: Meeting.ID(UUID($0 + 100))))
    }
    syncUp.meetings = IdentifiedArray(uniqueElements: meetings.reversed())
    @Shared(.syncUps) var syncUps
    try $syncUps.seed([syncUp])
    @Dependency(\.syncUpsDatabase) var database
    let deleted = LockIsolated<[String]>([])
    let shared = try #require(Shared($syncUps[id: syncUp.id]))
    let store = TestStore(initialState: SyncUpDetail.State(syncUp: shared)) {
      SyncUpDetail()
    } withDependencies: {
      $0.syncUpDeletion.deleteAudio = { files in
        let rows = try? await database.writer.read { db in
          try String.fetchAll(db, sql: "SELECT audioFile FROM meeting")
        }
        // Only once the row is gone.
        if rows == [meetings[0].audioFile!] { deleted.withValue { $0 += files } }
      }
      $0.teamLearning.learnWords = { _ in }
    }
    await store.send(.deleteMeetings(atOffsets: [0])) {
      $0.$syncUp.withLock { _ = $0.meetings.remove(id: meetings[1].id) }
    }
    await store.finish()
    #expect(deleted.value == [meetings[1].audioFile!])
  }

  @Test func startMeetingWithAudioCapture() async {
    let syncUp = Shared(value: SyncUp.mock)
    let store = TestStore(initialState: SyncUpDetail.State(syncUp: syncUp)) {
      SyncUpDetail()
    } withDependencies: {
      $0.audioCapture.checkAvailability = { _ in }
    }
    await store.send(.startMeetingButtonTapped)
    await store.receive(.delegate(.startMeeting(syncUp, input: .microphone(nil))))
    await store.finish()
  }

  @Test func startMeetingWithoutAudioCaptureOffersToContinue() async {
    struct NoServer: Error, CustomStringConvertible {
      var description: String { "PulseAudio is not running: connection refused." }
    }
    let syncUp = Shared(value: SyncUp.mock)
    let store = TestStore(initialState: SyncUpDetail.State(syncUp: syncUp)) {
      SyncUpDetail()
    } withDependencies: {
      $0.audioCapture.checkAvailability = { _ in throw NoServer() }
    }
    await store.send(.startMeetingButtonTapped)
    await store.receive(\.audioCaptureUnavailable) {
      $0.destination = .alert(
        .audioCaptureUnavailable("PulseAudio is not running: connection refused.")
      )
    }
    await store.send(.destination(.presented(.alert(.continueWithoutRecording)))) {
      $0.destination = nil
    }
    await store.receive(.delegate(.startMeeting(syncUp, input: .none)))
    await store.finish()
  }

  @Test func startMeetingWithoutAudioCaptureCanBeCancelled() async {
    struct NoServer: Error {}
    let store = TestStore(initialState: SyncUpDetail.State(syncUp: Shared(value: .mock))) {
      SyncUpDetail()
    } withDependencies: {
      $0.audioCapture.checkAvailability = { _ in throw NoServer() }
    }
    await store.send(.startMeetingButtonTapped)
    await store.receive(\.audioCaptureUnavailable) {
      $0.destination = .alert(.audioCaptureUnavailable("NoServer()"))
    }
    await store.send(.destination(.dismiss)) { $0.destination = nil }
  }

  /// A remote stand-up: the default microphone and the monitor of the default output, mixed.
  @Test func startACallRecordsTheMicrophoneAndWhatTheCallPlaysThrough() async {
    let syncUp = Shared(value: SyncUp.mock)
    let store = TestStore(initialState: SyncUpDetail.State(syncUp: syncUp)) {
      SyncUpDetail()
    } withDependencies: {
      $0.audioCapture.sources = {
        [
          AudioSource(
            name: "headset.monitor", description: "Monitor of Headset", isDefault: false,
            monitorOf: "headset"),
          AudioSource(name: "usb.mic", description: "USB mic", isDefault: true),
          AudioSource(
            name: "speakers.monitor", description: "Monitor of Speakers", isDefault: false,
            monitorOf: "speakers", monitorsDefaultOutput: true),
        ]
      }
    }
    await store.send(.startCallButtonTapped)
    await store.receive(
      .delegate(.startMeeting(syncUp, input: .mix(["usb.mic", "speakers.monitor"]))))
    await store.finish()
  }

  /// No output to hear the call from: said in words, with the microphone alone offered.
  @Test func aCallThatCannotBeHeardOffersTheMicrophoneOnly() async {
    let syncUp = Shared(value: SyncUp.mock)
    let store = TestStore(initialState: SyncUpDetail.State(syncUp: syncUp)) {
      SyncUpDetail()
    } withDependencies: {
      $0.audioCapture.sources = {
        [AudioSource(name: "usb.mic", description: "USB mic", isDefault: true)]
      }
      $0.audioCapture.checkAvailability = { _ in }
    }
    await store.send(.startCallButtonTapped)
    await store.receive(\.callUnavailable) {
      $0.destination = .alert(
        .callUnavailable(
          "PulseAudio has no default output to hear the call from; choose the one the call "
            + "plays through with 'pactl set-default-sink NAME'"))
    }
    await store.send(.destination(.presented(.alert(.recordMicrophoneOnly)))) {
      $0.destination = nil
    }
    await store.receive(\.startMeetingButtonTapped)
    await store.receive(.delegate(.startMeeting(syncUp, input: .microphone(nil))))
    await store.finish()
  }

  @Test func tappingAMeetingShowsIt() async {
    var syncUp = SyncUp.mock
    let meeting = Meeting(
      id: Meeting.ID(UUID(100)), date: Date(timeIntervalSince1970: 0), transcript: "hi")
    syncUp.meetings = [meeting]
    let store = TestStore(initialState: SyncUpDetail.State(syncUp: Shared(value: syncUp))) {
      SyncUpDetail()
    }
    await store.send(.meetingTapped(meeting.id))
    await store.receive(.delegate(.showMeeting(meeting)))
  }
}
