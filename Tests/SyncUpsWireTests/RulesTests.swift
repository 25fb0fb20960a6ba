import Foundation
import SyncUpsWire
import Testing

/// The rules every document is kept by, on the server and on a laptop alike.
@Suite struct RulesTests {
  static let now = Date(timeIntervalSince1970: 1_795_000_000)
  static let clock = HybridClock(milliseconds: 1_794_000_000_000, device: "laptop-a")

  static func syncUp() -> SyncUpDocument {
    SyncUpDocument(
      id: UUID(), title: Stamped("Daily", at: clock), theme: Stamped("teal", at: clock),
      duration: Stamped(600, at: clock),
      attendees: Stamped(
        [.init(id: UUID(), name: "Ana"), .init(id: UUID(), name: "Ben")], at: clock),
      vocabulary: Stamped(["grafana"], at: clock), deleted: Stamped(false, at: clock))
  }

  static func meeting() -> MeetingDocument {
    MeetingDocument(
      id: UUID(), syncUpID: UUID(), date: now, length: 30,
      segments: [
        .init(
          speaker: "Ana", start: 0, end: 2, text: "hello there",
          words: [.init(text: "hello", start: 0, end: 1, confidence: 0.9)])
      ],
      audio: .init(sha256: String(repeating: "0f", count: 32), size: 100, type: "audio/flac"),
      clock: clock)
  }

  /// A distinct word of letters for each number (`wordbac` for 102).
  static func word(_ number: Int) -> String {
    let letters = Array("abcdefghij")
    return "word" + String(String(number).map { letters[$0.wholeNumberValue ?? 0] })
  }

  static func problem(_ check: () throws(DocumentProblem) -> Void) -> String? {
    do {
      try check()
      return nil
    } catch {
      return error.description
    }
  }

  @Test func aSyncUpByTheRulesPasses() {
    #expect(
      Self.problem { () throws(DocumentProblem) in try Self.syncUp().check(now: Self.now) } == nil)
    #expect(
      Self.problem { () throws(DocumentProblem) in try Self.meeting().check(now: Self.now) } == nil)
  }

  @Test(
    arguments: [
      (
        "between 1s and 24h",
        { @Sendable (document: inout SyncUpDocument) in document.duration.value = 1e300 }
      ),
      ("between 1s and 24h", { $0.duration.value = .nan }),
      ("between 1s and 24h", { $0.duration.value = 0 }),
      (
        "at most 100 attendees",
        { $0.attendees.value = (0..<101).map { .init(id: UUID(), name: "P\($0)") } }
      ),
      ("needs at least one attendee", { $0.attendees.value = [] }),
      ("name cannot be blank", { $0.attendees.value = [.init(id: UUID(), name: "  ")] }),
      (
        "two attendees are named",
        { $0.attendees.value = [.init(id: UUID(), name: "ana"), .init(id: UUID(), name: "ANA")] }
      ),
      (
        "same id",
        { document in
          let id = UUID()
          document.attendees.value = [.init(id: id, name: "A"), .init(id: id, name: "B")]
        }
      ),
      ("the title is too long", { $0.title.value = String(repeating: "x", count: 201) }),
      ("the title cannot be blank", { $0.title.value = " " }),
      ("control characters", { $0.title.value = "\u{1B}[2J" }),
      ("is not a theme", { $0.theme.value = "<b>" }),
      ("at most 1000 words", { $0.vocabulary.value = (0..<1001).map(RulesTests.word) }),
      ("is too long", { $0.vocabulary.value = [String(repeating: "w", count: 61)] }),
    ] as [(String, @Sendable (inout SyncUpDocument) -> Void)])
  func aSyncUpThatBreaksARuleIsRefusedInWords(
    expected: String, change: @Sendable (inout SyncUpDocument) -> Void
  ) {
    var document = Self.syncUp()
    change(&document)
    let problem = Self.problem { () throws(DocumentProblem) in try document.check(now: Self.now) }
    #expect(problem?.contains(expected) == true, "\(problem ?? "passed")")
    #expect(problem?.hasPrefix("sync-up \(document.id.uuidString.lowercased()): ") == true)
  }

  @Test(
    arguments: [
      (
        "is not between 0 and 86400 s",
        { @Sendable (document: inout MeetingDocument) in document.length = 1e300 }
      ),
      ("is not between 0 and 86400 s", { $0.length = -1 }),
      ("is not between 1970 and 2100", { $0.date = Date(timeIntervalSince1970: 1e12) }),
      ("has times outside", { $0.segments[0].end = 1e300 }),
      ("ends before it starts", { $0.segments[0].start = 5 }),
      ("has a word with times outside", { $0.segments[0].words[0].start = .infinity }),
      ("has a word with times outside", { $0.segments[0].words[0].confidence = .nan }),
      (
        "has a word that is not one word",
        { $0.segments[0].words[0].text = String(repeating: "w", count: 101) }
      ),
      (
        "has a text longer than 10000",
        { $0.segments[0].text = String(repeating: "t", count: 10_001) }
      ),
      ("control characters in its text", { $0.segments[0].text = "\u{1B}]0;title\u{07}" }),
      ("speaker name with control characters", { $0.segments[0].speaker = "Ana\u{1B}[31m" }),
      (
        "speaker name longer than 100",
        { $0.segments[0].speaker = String(repeating: "s", count: 101) }
      ),
      (
        "a meeting has at most 50000",
        { document in document.segments = Array(repeating: document.segments[0], count: 50_001) }
      ),
      ("is of type 'text/html'", { $0.audio?.type = "text/html" }),
      ("not a SHA-256", { $0.audio?.sha256 = "../../etc/passwd" }),
      ("has a size of -1 bytes", { $0.audio?.size = -1 }),
    ] as [(String, @Sendable (inout MeetingDocument) -> Void)])
  func aMeetingThatBreaksARuleIsRefusedInWords(
    expected: String, change: @Sendable (inout MeetingDocument) -> Void
  ) {
    var document = Self.meeting()
    change(&document)
    let problem = Self.problem { () throws(DocumentProblem) in try document.check(now: Self.now) }
    #expect(problem?.contains(expected) == true, "\(problem ?? "passed")")
  }

  @Test func aClockFurtherAheadThanTheDriftIsRefusedAndOneWithinItIsTaken() {
    let now = Self.now
    let milliseconds = Int64(now.timeIntervalSince1970 * 1000)
    var document = Self.syncUp()
    document.title.clock = HybridClock(milliseconds: milliseconds + 4 * 60_000, device: "b")
    #expect(Self.problem { () throws(DocumentProblem) in try document.check(now: now) } == nil)
    document.title.clock = HybridClock(milliseconds: milliseconds + 6 * 60_000, device: "b")
    #expect(
      Self.problem { () throws(DocumentProblem) in try document.check(now: now) }?
        .contains("more than 5 minutes ahead") == true)
    var meeting = Self.meeting()
    meeting.clock = HybridClock(milliseconds: 9_999_999_999_999_999, device: "zzzz")
    #expect(
      Self.problem { () throws(DocumentProblem) in try meeting.check(now: now) }?
        .contains("ahead") == true)
  }

  @Test func theCounterMovesToTheNextMillisecondRatherThanOutgrowItsDigits() {
    let full = HybridClock(milliseconds: 1_794_000_000_000, counter: 9999, device: "a")
    let next = full.tick(now: Date(timeIntervalSince1970: 1), device: "a")
    #expect(next == HybridClock(milliseconds: 1_794_000_000_001, counter: 0, device: "a"))
    #expect(HybridClock(next.description) == next)
    #expect(full < next)
  }

  @Test func aProblemIsOneLineWhateverTheDocumentHeld() {
    var document = Self.syncUp()
    document.theme.value = "\u{1B}[31mred\nline\u{202E}"
    let problem = Self.problem { () throws(DocumentProblem) in try document.check(now: Self.now) }
    #expect(problem?.contains("\\u{1B}[31mred\\u{A}line\\u{202E}") == true, "\(problem ?? "")")
    #expect(problem?.unicodeScalars.contains { $0.properties.generalCategory == .control } == false)
  }
}
