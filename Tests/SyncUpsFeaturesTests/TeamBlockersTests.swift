import ConcurrencyExtras
import Foundation
import StandupDigest
import SyncUpsFeatures
import Testing

@MainActor
struct TeamBlockersTests {
  let now = Date(timeIntervalSince1970: 1_795_000_000)
  let meetingID = Meeting.ID(UUID(uuidString: "d1e2f3a4-0000-0000-0000-000000000001")!)

  func blocker(_ segment: Int, _ person: String, _ text: String) -> Blocker {
    Blocker(
      meetingID: meetingID,
      entry: BlockerLog.Entry(
        syncUp: "Billing", person: person, named: nil,
        raised: BlockerLog.Moment(
          meeting: "d1e2f3a4-0000-0000-0000-000000000001", date: now, segment: segment,
          time: Double(segment) * 5, text: text)))
  }

  @Test func theBoardIsReadWhenShownAndTheSelectedBlockerIsClosed() async {
    let ivo = blocker(1, "Ivo", "waiting for jon to send the tax rules")
    let jon = blocker(2, "Jon", "blocked on legal approving the new terms")
    let boards = LockIsolated([
      BlockerBoard(open: [jon, ivo]), BlockerBoard(open: [jon], closed: [ivo]),
    ])
    let reads = LockIsolated<[Date]>([])
    let closed = LockIsolated<[String]>([])
    let since = now.addingTimeInterval(-7 * 86_400)
    let store = TestStore(initialState: TeamBlockers.State(since: since)) {
      TeamBlockers()
    } withDependencies: {
      $0.date.now = now
      $0.blockers.read = { since, prefix in
        #expect(prefix == nil)
        reads.withValue { $0.append(since) }
        return boards.withValue { $0.removeFirst() }
      }
      $0.blockers.close = { blocker, date in
        #expect(date == now)
        closed.withValue { $0.append(blocker.id) }
        return .closed
      }
    }
    await store.send(.onAppear) { $0.isLoading = true }
    await store.receive(\.boardLoaded) {
      $0.isLoading = false
      $0.isShown = true
      $0.board = BlockerBoard(open: [jon, ivo])
    }
    await store.send(.selectionMoved(by: 5)) { $0.selection = 1 }
    await store.send(.closeTapped)
    await store.receive(\.closeFinished) {
      $0.closing = .closed(ivo)
      $0.isLoading = true
    }
    await store.receive(\.boardLoaded) {
      $0.isLoading = false
      $0.board = BlockerBoard(open: [jon], closed: [ivo])
      $0.selection = 0
    }
    #expect(reads.value == [since, since])
    #expect(closed.value == [ivo.id])
  }

  @Test func anIdIsCheckedThenLookedUpByItsMeetingAndClosedOnce() async {
    let ivo = blocker(1, "Ivo", "waiting for jon to send the tax rules")
    let prefixes = LockIsolated<[String?]>([])
    let outcomes = LockIsolated<[BlockerClosing]>([.closed, .alreadyClosed])
    let store = TestStore(initialState: TeamBlockers.State(since: now)) {
      TeamBlockers()
    } withDependencies: {
      $0.date.now = now
      $0.blockers.read = { since, prefix in
        #expect(since == .distantPast)
        prefixes.withValue { $0.append(prefix) }
        return BlockerBoard(open: [ivo])
      }
      $0.blockers.close = { _, _ in outcomes.withValue { $0.removeFirst() } }
    }
    // Not shaped as an id: said at once, nothing read.
    await store.send(.closeRequested(id: "d1e2f3a4-one-9f3e")) {
      $0.problem =
        "'d1e2f3a4-one-9f3e' is not a blocker's id: ids look like d1e2f3a4-4-9f3e, as "
        + "'syncups blockers' lists them"
    }
    // Shaped as one, but no blocker of that meeting has it.
    await store.send(.closeRequested(id: "d1e2f3a4-1-0000")) { $0.problem = nil }
    await store.receive(\.failed) {
      $0.problem =
        "there is no blocker d1e2f3a4-1-0000: 'syncups blockers --since 30d' lists the open "
        + "ones with their ids"
    }
    // Its own id, typed with capitals and spaces: closed; closed again, nothing changes. The
    // board was never shown, so it is not read again.
    await store.send(.closeRequested(id: " \(ivo.id.uppercased()) ")) { $0.problem = nil }
    await store.receive(\.closeFinished) { $0.closing = .closed(ivo) }
    await store.send(.closeRequested(id: ivo.id))
    await store.receive(\.closeFinished) { $0.closing = .alreadyClosed(ivo) }
    #expect(prefixes.value == ["d1e2f3a4", "d1e2f3a4", "d1e2f3a4"])
  }

  @Test func aDeletedMeetingOrAnUnreadableDatabaseIsOneLine() async {
    let ivo = blocker(1, "Ivo", "waiting for jon to send the tax rules")
    struct Unreadable: Error, CustomStringConvertible {
      var description: String { "the disk is full" }
    }
    let store = TestStore(initialState: TeamBlockers.State(since: now)) {
      TeamBlockers()
    } withDependencies: {
      $0.date.now = now
      $0.blockers.read = { _, _ in throw Unreadable() }
      $0.blockers.close = { _, _ in .noSuchMeeting }
    }
    await store.send(.onAppear) { $0.isLoading = true }
    await store.receive(\.failed) {
      $0.isLoading = false
      $0.problem = "cannot read the blockers: the disk is full"
    }
    await store.send(.closeTapped)
    var shown = store.state
    shown.board = BlockerBoard(open: [ivo])
    let second = TestStore(initialState: shown) {
      TeamBlockers()
    } withDependencies: {
      $0.date.now = now
      $0.blockers.close = { _, _ in .noSuchMeeting }
    }
    await second.send(.closeTapped) { $0.problem = nil }
    await second.receive(\.closeFinished) {
      $0.problem = "the meeting of blocker \(ivo.id) was deleted meanwhile; nothing was closed"
    }
  }

  /// `b` on the list: the blockers of the last week, read as the screen opens.
  @Test func theListOpensTheWeeksBlockers() async {
    let ivo = blocker(1, "Ivo", "waiting for jon to send the tax rules")
    let week = now.addingTimeInterval(-SyncUpsList.blockersWindow)
    let store = TestStore(initialState: SyncUpsList.State()) {
      SyncUpsList()
    } withDependencies: {
      $0.date.now = now
      $0.blockers.read = { since, _ in
        #expect(since == week)
        return BlockerBoard(open: [ivo])
      }
    }
    await store.send(.blockersButtonTapped) {
      $0.destination = .blockers(TeamBlockers.State(since: week))
    }
    var shown = TeamBlockers.State(since: week)
    shown.isLoading = true
    await store.receive(.destination(.presented(.blockers(.onAppear)))) {
      $0.destination = .blockers(shown)
    }
    shown.isLoading = false
    shown.isShown = true
    shown.board = BlockerBoard(open: [ivo])
    await store.receive(\.destination?.presented?.blockers?.boardLoaded) {
      $0.destination = .blockers(shown)
    }
    await store.send(.destination(.dismiss)) { $0.destination = nil }
  }
}
