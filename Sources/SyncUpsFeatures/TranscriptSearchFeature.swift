import Architecture
import Dependencies
import Foundation
import WorkerThreads

/// Searching every meeting's transcript as one types: the query, the hits (best first), the
/// selected hit, and opening it (the parent shows that meeting at that segment).
public struct TranscriptSearchFeature: Reducer {
  public struct State: Equatable, Sendable {
    public var query: String
    public var hits: [TranscriptSearchHit]
    /// The hit enter opens (an index into `hits`).
    public var selection: Int
    /// A search is waiting for typing to pause, or running.
    public var isSearching: Bool
    /// Why the last search failed (the database could not be read), as one line.
    public var problem: String?

    public init(
      query: String = "", hits: [TranscriptSearchHit] = [], selection: Int = 0,
      isSearching: Bool = false, problem: String? = nil
    ) {
      self.query = query
      self.hits = hits
      self.selection = selection
      self.isSearching = isSearching
      self.problem = problem
    }

    public var selectedHit: TranscriptSearchHit? {
      hits.indices.contains(selection) ? hits[selection] : nil
    }
  }

  public enum Action: Equatable, Sendable {
    case delegate(Delegate)
    case hitOpened
    case queryChanged(String)
    case searchFailed(String)
    case searchFinished([TranscriptSearchHit])
    case selectionMoved(by: Int)

    public enum Delegate: Equatable, Sendable {
      case openMeeting(TranscriptSearchHit)
    }
  }

  /// How long typing must pause before the search runs.
  public static let debounce = Duration.milliseconds(200)
  /// The most hits shown.
  public static let limit = 50

  enum CancelID { case search }

  @Dependency(\.continuousClock) var clock
  @Dependency(\.transcriptSearch) var transcriptSearch

  public init() {}

  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .delegate:
      return .none

    case .hitOpened:
      guard let hit = state.selectedHit else { return .none }
      return .send(.delegate(.openMeeting(hit)))

    case .queryChanged(let query):
      state.query = query
      state.problem = nil
      let search = TranscriptSearch(TranscriptSearch.asTyped(query), limit: Self.limit)
      guard search.hasTerms else {
        state.hits = []
        state.selection = 0
        state.isSearching = false
        return .cancel(id: CancelID.search)
      }
      state.isSearching = true
      return .run { [clock, transcriptSearch] send in
        try await clock.sleep(for: Self.debounce)
        await send(.searchFinished(try await transcriptSearch.search(search)))
      } catch: { error, send in
        await send(.searchFailed("\(error)"))
      }
      .cancellable(id: CancelID.search, cancelInFlight: true)

    case .searchFailed(let problem):
      state.isSearching = false
      state.problem = problem
      return .none

    case .searchFinished(let hits):
      state.isSearching = false
      // The same hit stays selected when it is still found; else the best one.
      let selected = state.selectedHit
      state.hits = hits
      state.selection = hits.firstIndex { $0.isSameSegment(as: selected) } ?? 0
      return .none

    case .selectionMoved(let offset):
      guard !state.hits.isEmpty else { return .none }
      state.selection = min(max(state.selection + offset, 0), state.hits.count - 1)
      return .none
    }
  }
}

// The cases reached by key path (see `Scope`): scoped, presented, stacked or received in tests.
extension TranscriptSearchFeature.Action {
  public var delegate: Delegate? {
    get { if case .delegate(let value) = self { value } else { nil } }
    set { if let newValue { self = .delegate(newValue) } }
  }

  public var searchFailed: String? {
    get { if case .searchFailed(let value) = self { value } else { nil } }
    set { if let newValue { self = .searchFailed(newValue) } }
  }

  public var searchFinished: [TranscriptSearchHit]? {
    get { if case .searchFinished(let value) = self { value } else { nil } }
    set { if let newValue { self = .searchFinished(newValue) } }
  }
}

extension TranscriptSearchFeature.Action.Delegate {
  public var openMeeting: TranscriptSearchHit? {
    get { if case .openMeeting(let value) = self { value } else { nil } }
    set { if let newValue { self = .openMeeting(newValue) } }
  }
}

extension TranscriptSearchHit {
  /// Where the database puts the start and end of each match in a hit's `text`: characters
  /// that transcripts do not hold, which screens turn into a style, or brackets.
  public static let marks = (open: "\u{E000}", close: "\u{E001}")

  func isSameSegment(as other: TranscriptSearchHit?) -> Bool {
    meetingID == other?.meetingID && segment == other?.segment
  }
}

/// Searches the meetings' transcripts (the database's FTS5 index), off the cooperative pool.
public struct TranscriptSearchClient: Sendable {
  /// The hits, best first, with matches between `TranscriptSearchHit.marks`.
  public var search: @Sendable (_ query: TranscriptSearch) async throws -> [TranscriptSearchHit] =
    unimplemented("TranscriptSearchClient.search")

  public init(
    search: @escaping @Sendable (_ query: TranscriptSearch) async throws -> [TranscriptSearchHit]
  ) {
    self.search = search
  }

  /// Every endpoint unimplemented: calling one reports an issue (and throws, or returns a
  /// placeholder). The test value.
  public init() {}
}

extension TranscriptSearchClient: DependencyKey {
  public static var liveValue: TranscriptSearchClient {
    @Dependency(\.syncUpsDatabase) var database
    return live(database)
  }

  /// Searches `database` on a thread of its own.
  public static func live(_ database: SyncUpsDatabase) -> TranscriptSearchClient {
    TranscriptSearchClient { query in
      try await WorkerThread.run(name: "search") {
        try database.search(query, marks: TranscriptSearchHit.marks)
      }
    }
  }
  public static let testValue = TranscriptSearchClient()
}

extension DependencyValues {
  public var transcriptSearch: TranscriptSearchClient {
    get { self[TranscriptSearchClient.self] }
    set { self[TranscriptSearchClient.self] = newValue }
  }
}

extension TranscriptSearch {
  /// What is being typed, as a query: the word (or phrase) still being typed is a prefix, so
  /// `stag` already finds "staging"; a space after it makes it a whole word again.
  public static func asTyped(_ text: String) -> String {
    guard let last = text.last, last.isLetter || last.isNumber else { return text }
    return text + "*"
  }

  /// Why `text` is not a query the user meant, as words for a message (nil when it is fine):
  /// an unclosed `"`, a `*` that does not end a word, or nothing to look for. (The search
  /// itself accepts anything; commands check first so a typo is not silently read otherwise.)
  public static func problem(in text: String) -> String? {
    if text.filter({ $0 == "\"" }).count % 2 == 1 {
      return "a quote is not closed; put a phrase between two quotes, as in \"staging server\""
    }
    let characters = Array(text)
    for (index, character) in characters.enumerated() where character == "*" {
      let before = index > 0 ? characters[index - 1] : " "
      let after = index + 1 < characters.count ? characters[index + 1] : " "
      let endsWord = before.isLetter || before.isNumber || before == "\""
      guard endsWord, after.isWhitespace || after == "\"" else {
        return "a * must end a word, as in migr* (prefixes of at least one letter)"
      }
    }
    guard TranscriptSearch(text).hasTerms else {
      return "nothing to search for; give words, a prefix (migr*) or a \"phrase\""
    }
    return nil
  }
}
