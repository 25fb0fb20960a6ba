import ConcurrencyExtras
import Foundation
import SyncUpsFeatures
import Testing

@MainActor
struct TranscriptSearchFeatureTests {
  let date = Date(timeIntervalSince1970: 1_790_000_000)

  func hit(_ segment: Int, _ text: String, meeting: Int = 10) -> TranscriptSearchHit {
    TranscriptSearchHit(
      syncUpID: SyncUp.mock.id, syncUpTitle: "Morning Sync", meetingID: Meeting.ID(UUID(meeting)),
      date: date, segment: segment, speaker: "Blob", start: Double(segment) * 5,
      end: Double(segment) * 5 + 4, text: text)
  }

  @Test func typingSearchesOnceItPausesAndOpensTheSelectedHit() async {
    let clock = TestClock()
    let queries = LockIsolated<[String]>([])
    let hits = [hit(1, "the \u{E000}staging\u{E001} server"), hit(3, "\u{E000}staging\u{E001}")]
    let store = TestStore(initialState: TranscriptSearchFeature.State()) {
      TranscriptSearchFeature()
    } withDependencies: {
      $0.continuousClock = clock
      $0.transcriptSearch.search = { query in
        queries.withValue { $0.append(query.text) }
        #expect(query.limit == TranscriptSearchFeature.limit)
        return hits
      }
    }
    await store.send(.queryChanged("s")) {
      $0.query = "s"
      $0.isSearching = true
    }
    await clock.advance(by: .milliseconds(100))
    await store.send(.queryChanged("st")) { $0.query = "st" }
    await clock.advance(by: .milliseconds(100))
    await store.send(.queryChanged("sta")) { $0.query = "sta" }
    // Only the last query runs, once typing has paused long enough.
    await clock.advance(by: TranscriptSearchFeature.debounce)
    await store.receive(\.searchFinished) {
      $0.isSearching = false
      $0.hits = hits
    }
    // The word being typed is a prefix.
    #expect(queries.value == ["sta*"])

    await store.send(.selectionMoved(by: 1)) { $0.selection = 1 }
    await store.send(.selectionMoved(by: 5))
    await store.send(.selectionMoved(by: -9)) { $0.selection = 0 }
    await store.send(.selectionMoved(by: 1)) { $0.selection = 1 }
    await store.send(.hitOpened)
    await store.receive(\.delegate?.openMeeting, hits[1])
  }

  @Test func newResultsKeepTheSelectedSegmentSelected() async {
    let clock = TestClock()
    let first = [hit(1, "a"), hit(2, "b"), hit(3, "c")]
    let second = [hit(4, "d"), hit(3, "c"), hit(1, "a")]
    let responses = LockIsolated([first, second])
    let store = TestStore(initialState: TranscriptSearchFeature.State()) {
      TranscriptSearchFeature()
    } withDependencies: {
      $0.continuousClock = clock
      $0.transcriptSearch.search = { _ in responses.withValue { $0.removeFirst() } }
    }
    await store.send(.queryChanged("a")) {
      $0.query = "a"
      $0.isSearching = true
    }
    await clock.advance(by: TranscriptSearchFeature.debounce)
    await store.receive(\.searchFinished) {
      $0.isSearching = false
      $0.hits = first
    }
    await store.send(.selectionMoved(by: 2)) { $0.selection = 2 }
    await store.send(.queryChanged("a c")) {
      $0.query = "a c"
      $0.isSearching = true
    }
    await clock.advance(by: TranscriptSearchFeature.debounce)
    await store.receive(\.searchFinished) {
      $0.isSearching = false
      $0.hits = second
      $0.selection = 1
    }
  }

  @Test func clearingTheQueryCancelsTheSearchAndClearsTheHits() async {
    let clock = TestClock()
    let store = TestStore(
      initialState: TranscriptSearchFeature.State(query: "stag", hits: [hit(1, "x")], selection: 0)
    ) {
      TranscriptSearchFeature()
    } withDependencies: {
      $0.continuousClock = clock
      $0.transcriptSearch.search = { _ in
        Issue.record("no search for an empty query")
        return []
      }
    }
    await store.send(.queryChanged("stag ")) {
      $0.query = "stag "
      $0.isSearching = true
    }
    await store.send(.queryChanged("")) {
      $0.query = ""
      $0.hits = []
      $0.isSearching = false
    }
    // Punctuation alone is nothing to look for either.
    await store.send(.queryChanged("\"")) { $0.query = "\"" }
    await clock.run(timeout: .seconds(600))  // a safety net: waits for the cancelled debounce
    await store.send(.hitOpened)
  }

  @Test func aFailedSearchSaysWhy() async {
    struct Locked: Error, CustomStringConvertible {
      var description: String { "the database is locked" }
    }
    let clock = TestClock()
    let store = TestStore(initialState: TranscriptSearchFeature.State()) {
      TranscriptSearchFeature()
    } withDependencies: {
      $0.continuousClock = clock
      $0.transcriptSearch.search = { _ in throw Locked() }
    }
    await store.send(.queryChanged("x")) {
      $0.query = "x"
      $0.isSearching = true
    }
    await clock.advance(by: TranscriptSearchFeature.debounce)
    await store.receive(\.searchFailed, "the database is locked") {
      $0.isSearching = false
      $0.problem = "the database is locked"
    }
    await store.send(.queryChanged("xy")) {
      $0.query = "xy"
      $0.isSearching = true
      $0.problem = nil
    }
    await store.send(.queryChanged("")) {
      $0.query = ""
      $0.isSearching = false
    }
  }

  @Test func theListPresentsTheSearchAndAHitOpensItsMeetingAtTheSegment() async throws {
    let clock = TestClock()
    let meeting = Meeting(
      id: Meeting.ID(UUID(10)), date: date, transcript: "good morning the staging server",
      segments: [
        Meeting.Segment(speaker: "Blob", start: 0, end: 4, text: "good morning", words: []),
        Meeting.Segment(speaker: "Blob", start: 5, end: 9, text: "the staging server", words: []),
      ])
    var syncUp = SyncUp.mock
    syncUp.meetings = [meeting]
    @Shared(.syncUps) var syncUps
    $syncUps.withLock { $0 = [syncUp] }
    try $syncUps.save()
    // The list holds the meeting as a summary; its segments are read when it is shown.
    let listed = try #require(syncUps[id: syncUp.id])
    let summary = try #require(listed.meetings[id: meeting.id])
    let found = hit(1, "the \u{E000}staging\u{E001} server")
    let store = TestStore(initialState: AppFeature.State()) {
      AppFeature()
    } withDependencies: {
      $0.continuousClock = clock
      $0.transcriptSearch.search = { _ in [found] }
    }
    await store.send(.syncUpsList(.searchButtonTapped)) {
      $0.syncUpsList.destination = .search(TranscriptSearchFeature.State())
    }
    await store.send(.syncUpsList(.destination(.presented(.search(.queryChanged("staging")))))) {
      $0.syncUpsList.destination = .search(
        TranscriptSearchFeature.State(query: "staging", isSearching: true))
    }
    await clock.advance(by: TranscriptSearchFeature.debounce)
    await store.receive(\.syncUpsList?.destination?.presented?.search?.searchFinished) {
      $0.syncUpsList.destination = .search(
        TranscriptSearchFeature.State(query: "staging", hits: [found]))
    }
    await store.send(.syncUpsList(.destination(.presented(.search(.hitOpened)))))
    await store.receive(\.syncUpsList?.destination?.presented?.search?.delegate?.openMeeting) {
      state in
      // A received action's expected state numbers new stack elements with the store's
      // generator, which has moved on: the pushed meeting is element 0, as in the store.
      withDependencies {
        $0.stackElementID = StackElementIDGenerator(startingAt: 0)
      } operation: {
        state.path.append(
          .meeting(MeetingFeature.State(meeting: summary, syncUp: listed, highlightedSegment: 1)))
      }
    }
    guard case .meeting(let shown)? = store.state.path.last else {
      Issue.record("the meeting is not shown")
      return
    }
    #expect(shown.turns.map(\.text) == ["good morning", "the staging server"])
    #expect(shown.turns.map(\.isHighlighted) == [false, true])
    // Back from the meeting: the search is still there, then escape closes it.
    await store.send(.path(.popFrom(id: 0))) { $0.path = StackState() }
    await store.send(.syncUpsList(.destination(.dismiss))) { $0.syncUpsList.destination = nil }
  }

  @Test func theHighlightedSegmentIsATurnOfItsOwn() {
    let meeting = Meeting(
      id: Meeting.ID(UUID(10)), date: date, transcript: "",
      segments: ["one", "two", "three"].enumerated().map { index, text in
        Meeting.Segment(
          speaker: "Blob", start: Double(index), end: Double(index) + 1, text: text, words: [])
      })
    let plain = MeetingFeature.State(meeting: meeting, syncUp: .mock)
    #expect(plain.turns.map(\.text) == ["one two three"])
    let found = MeetingFeature.State(meeting: meeting, syncUp: .mock, highlightedSegment: 1)
    #expect(found.turns.map(\.text) == ["one", "two", "three"])
    #expect(found.turns.map(\.isHighlighted) == [false, true, false])
    #expect(found.turns.map(\.start) == [0, 1, 2])
  }

  @Test func theWordBeingTypedIsAPrefix() {
    #expect(TranscriptSearch.asTyped("stag") == "stag*")
    #expect(TranscriptSearch.asTyped("stag ") == "stag ")
    #expect(TranscriptSearch.asTyped("\"staging ser") == "\"staging ser*")
    #expect(TranscriptSearch.asTyped("\"staging server\"") == "\"staging server\"")
    #expect(TranscriptSearch.asTyped("migr*") == "migr*")
    #expect(TranscriptSearch.asTyped("") == "")
  }

  @Test func queriesThatAreNotWhatTheUserMeantAreNamed() {
    for good in ["staging", "migr*", "\"staging server\"", "a b c", "\"stag serv\"*", "v2"] {
      #expect(TranscriptSearch.problem(in: good) == nil, "\(good)")
    }
    let quote = TranscriptSearch.problem(in: "\"staging server")
    #expect(quote?.contains("quote is not closed") == true)
    for star in ["*", "migr **", "* x", "mi*gr", "x *"] {
      #expect(TranscriptSearch.problem(in: star)?.contains("must end a word") == true, "\(star)")
    }
    for empty in ["", "   ", "-", "(  )"] {
      #expect(TranscriptSearch.problem(in: empty)?.contains("nothing to search for") == true)
    }
  }
}
