import Foundation
import SpeechVocabulary

/// The rules every sync-up and meeting is kept by, wherever it comes from: a form, a command,
/// an import, a push to the server, a pull onto a laptop. Each front end and each side calls
/// these, so a document one of them refuses is refused by all of them, in the same words.
public enum Rules {
  // MARK: Sync-ups

  /// The longest title and attendee name, in characters: a row of `list` stays readable.
  public static let longestTitle = 200
  public static let longestName = 100
  /// The longest vocabulary word or phrase, in characters.
  public static let longestWord = 60
  /// Most attendees of one sync-up, and most vocabulary words: a stand-up, not a phone book.
  public static let mostAttendees = 100
  public static let mostWords = 1_000
  /// How long a sync-up may last, in seconds (1 s to 24 h).
  public static let durationSeconds: ClosedRange<Double> = 1...86_400
  /// The sixteen themes, by name.
  public static let themes: Set<String> = [
    "bubblegum", "buttercup", "indigo", "lavender", "magenta", "navy", "orange", "oxblood",
    "periwinkle", "poppy", "purple", "seafoam", "sky", "tan", "teal", "yellow",
  ]

  /// The title as it is kept (trimmed), or why it cannot be.
  public static func title(_ text: String) throws(SyncUpProblem) -> String {
    let title = trimmed(text)
    guard !title.isEmpty else { throw .blankTitle }
    guard title.count <= longestTitle else { throw .longTitle }
    guard !title.contains(where: \.isNewline) else { throw .multilineTitle }
    guard !hasControlCharacters(title) else { throw .controlCharactersInTitle }
    return title
  }

  /// An attendee's name as it is kept (trimmed); nil when blank (a form's empty row).
  public static func name(_ text: String) throws(SyncUpProblem) -> String? {
    let name = trimmed(text)
    guard !name.isEmpty else { return nil }
    guard name.count <= longestName else { throw .longName(name) }
    guard !name.contains(where: \.isNewline) else { throw .multilineName(name) }
    guard !hasControlCharacters(name) else { throw .controlCharactersInName(name) }
    return name
  }

  /// The attendees' names, each checked by `name`: at least one, at most `mostAttendees`, no
  /// two alike in any case.
  public static func attendees(_ names: [String]) throws(SyncUpProblem) {
    guard !names.isEmpty else { throw .noAttendees }
    guard names.count <= mostAttendees else { throw .tooManyAttendees(names.count) }
    var seen: Set<String> = []
    for name in names where !seen.insert(name.lowercased()).inserted {
      throw .duplicateName(name)
    }
  }

  public static func duration(seconds: Double) throws(SyncUpProblem) {
    guard durationSeconds.contains(seconds) else { throw .durationOutOfRange }
  }

  public static func theme(_ name: String) throws(SyncUpProblem) {
    guard themes.contains(name) else { throw .unknownTheme(name) }
  }

  /// Words trimmed, blank rows and attendees' names (always included) dropped; each one line,
  /// without control characters, sayable, not too long, and there once (in any case).
  public static func vocabulary(_ words: [String], attendees: [String]) throws(SyncUpProblem)
    -> [String]
  {
    guard words.count <= mostWords * 2 else { throw .tooManyWords(words.count) }
    let names = Set(attendees.compactMap { try? Vocabulary.normalize($0).get() })
    var seen: Set<String> = []
    var kept: [String] = []
    for word in words.map(trimmed) where !word.isEmpty {
      guard !word.contains(where: \.isNewline) else { throw .multilineWord(word) }
      guard !hasControlCharacters(word) else { throw .controlCharactersInWord(word) }
      guard word.count <= longestWord else { throw .longWord(word) }
      let spoken: String
      switch Vocabulary.normalize(word) {
      case .success(let normalized): spoken = normalized
      case .failure(let problem): throw .unsayableWord(word, problem)
      }
      guard !names.contains(spoken) else { continue }
      guard seen.insert(spoken).inserted else { throw .duplicateWord(word) }
      kept.append(word)
    }
    guard kept.count <= mostWords else { throw .tooManyWords(kept.count) }
    return kept
  }

  // MARK: Meetings

  /// The longest a meeting and any time in it may be, in seconds: a day.
  public static let longestMeeting: Double = 86_400
  /// The dates a meeting may have: 1970 to 2100.
  public static let meetingDates: ClosedRange<Date> =
    Date(timeIntervalSince1970: 0)...Date(timeIntervalSince1970: 4_102_444_800)
  /// Every date a value from outside may name (a paging cursor, a search's start), checked
  /// where it is parsed: the years 1 to 9999. PostgreSQL and its client count microseconds in
  /// 64 bits, and a date far beyond these overflows them.
  public static let representableDates: ClosedRange<Date> =
    Date(timeIntervalSince1970: -62_135_596_800)...Date(timeIntervalSince1970: 253_402_300_799)
  /// Most segments and words in one meeting (a day of talk is about 200,000 words), the
  /// longest segment text and word, in characters.
  public static let mostSegments = 50_000
  public static let mostMeetingWords = 300_000
  public static let longestText = 10_000
  public static let longestSpokenWord = 100
  /// The audio a meeting may have: these types (a page plays it; nothing else is served as
  /// what it claims to be), up to 1 GiB.
  public static let audioTypes: Set<String> = [
    "audio/flac", "audio/wav", "audio/x-wav", "audio/wave", "audio/ogg", "audio/opus",
    "audio/mpeg", "audio/mp4", "audio/webm",
  ]
  public static let largestAudio: Int64 = 1 << 30

  /// A meeting's date and length.
  public static func meeting(date: Date, length: Double?) throws(MeetingProblem) {
    guard meetingDates.contains(date) else { throw .dateOutOfRange(date) }
    if let length, !(0...longestMeeting).contains(length) { throw .lengthOutOfRange(length) }
  }

  /// Segment `number` (from 1): its times within the meeting's bounds and in order, its
  /// speaker a name by the attendees' rules (or none), its text bounded and free of control
  /// characters other than line breaks.
  public static func segment(
    _ number: Int, start: Double, end: Double, speaker: String, text: String
  ) throws(MeetingProblem) {
    func refuse(_ problem: String) -> MeetingProblem { .segment(number, problem) }
    let times = 0...longestMeeting
    guard times.contains(start), times.contains(end) else {
      throw refuse("has times outside 0 to \(Int(longestMeeting)) s")
    }
    guard start <= end else { throw refuse("ends before it starts") }
    guard speaker.count <= longestName else {
      throw refuse("has a speaker name longer than \(longestName) characters")
    }
    guard !speaker.contains(where: \.isNewline), !hasControlCharacters(speaker) else {
      throw refuse("has a speaker name with control characters or line breaks")
    }
    guard text.count <= longestText else {
      throw refuse("has a text longer than \(longestText) characters")
    }
    guard !hasControlCharacters(text) else { throw refuse("has control characters in its text") }
  }

  /// A word of segment `number`: its times within the meeting's bounds, its confidence (when
  /// known) a probability, its text one short word.
  public static func word(
    of number: Int, start: Double, end: Double, confidence: Double?, text: String
  ) throws(MeetingProblem) {
    let times = 0...longestMeeting
    guard times.contains(start), times.contains(end), confidence.map(\.isFinite) ?? true else {
      throw .segment(number, "has a word with times outside 0 to \(Int(longestMeeting)) s")
    }
    guard text.count <= longestSpokenWord, !text.contains(where: \.isNewline),
      !hasControlCharacters(text)
    else {
      throw .segment(number, "has a word that is not one word of text")
    }
  }

  /// The number of segments and words of a meeting.
  public static func size(segments: Int, words: Int) throws(MeetingProblem) {
    guard segments <= mostSegments else { throw .tooManySegments(segments) }
    guard words <= mostMeetingWords else { throw .tooManyWords(words) }
  }

  // MARK: Text

  public static func trimmed(_ text: String) -> String {
    text.trimmingCharacters(in: .whitespacesAndNewlines)
  }

  /// ANSI escapes, bells, tabs and the like (line breaks are their own rule).
  public static func hasControlCharacters(_ text: String) -> Bool {
    text.unicodeScalars.contains(where: isControl)
  }

  /// One scalar `hasControlCharacters` refuses.
  public static func isControl(_ scalar: Unicode.Scalar) -> Bool {
    // ASCII first, without looking up its properties (most text is; a push checks every word).
    if scalar.isASCII {
      return scalar.value < 0x20 && !(0x0A...0x0D).contains(scalar.value) || scalar.value == 0x7F
    }
    return (scalar.properties.generalCategory == .control && !Character(scalar).isNewline)
      || scalar == "\u{2028}" || scalar == "\u{2029}" || scalar.properties.isBidiControl
  }
}

/// Why a sync-up cannot be saved, in the words every front end shows.
public enum SyncUpProblem: Error, Equatable, Sendable, CustomStringConvertible {
  case blankTitle
  case longTitle
  case multilineTitle
  case controlCharactersInTitle
  case noAttendees
  case tooManyAttendees(Int)
  case blankName
  case longName(String)
  case multilineName(String)
  case controlCharactersInName(String)
  case duplicateName(String)
  case durationOutOfRange
  case unknownTheme(String)
  case multilineWord(String)
  case controlCharactersInWord(String)
  case unsayableWord(String, Vocabulary.TermProblem)
  case longWord(String)
  case duplicateWord(String)
  case tooManyWords(Int)

  public var description: String {
    switch self {
    case .blankTitle: "the title cannot be blank"
    case .longTitle: "the title is too long: at most \(Rules.longestTitle) characters"
    case .multilineTitle: "the title must be one line"
    case .controlCharactersInTitle:
      "the title cannot contain control characters (such as escape sequences)"
    case .noAttendees: "a sync-up needs at least one attendee"
    case .tooManyAttendees(let count):
      "a sync-up has at most \(Rules.mostAttendees) attendees, not \(count)"
    case .blankName: "an attendee's name cannot be blank"
    case .longName(let name):
      "the attendee name '\(name.prefix(20))…' is too long: at most \(Rules.longestName) characters"
    case .multilineName(let name): "the attendee name \(name.debugDescription) must be one line"
    case .controlCharactersInName(let name):
      "the attendee name \(name.debugDescription) cannot contain control characters "
        + "(such as escape sequences)"
    case .duplicateName(let name): "two attendees are named '\(name)': give each a different name"
    case .durationOutOfRange: "a sync-up lasts between 1s and 24h"
    case .unknownTheme(let name):
      "'\(name.prefix(40))' is not a theme; choose one of \(Rules.themes.sorted().joined(separator: ", "))"
    case .multilineWord(let word): "the vocabulary word \(word.debugDescription) must be one line"
    case .controlCharactersInWord(let word):
      "the vocabulary word \(word.debugDescription) cannot contain control characters "
        + "(such as escape sequences)"
    case .unsayableWord(let word, let problem):
      "the vocabulary word '\(word)' cannot be used: \(problem)"
    case .longWord(let word):
      "the vocabulary word '\(word.prefix(20))…' is too long: at most "
        + "\(Rules.longestWord) characters"
    case .duplicateWord(let word):
      "the vocabulary has '\(word)' twice: keep one"
    case .tooManyWords(let count):
      "a vocabulary has at most \(Rules.mostWords) words and phrases, not \(count)"
    }
  }
}

/// Why a meeting from outside (an import, a first-run file, a push, a pull) cannot be kept.
public enum MeetingProblem: Error, Equatable, Sendable, CustomStringConvertible {
  case dateOutOfRange(Date)
  case lengthOutOfRange(Double)
  case segment(Int, String)
  case tooManySegments(Int)
  case tooManyWords(Int)
  case audio(String)

  public var description: String {
    switch self {
    case .dateOutOfRange(let date):
      "its date \(date.timeIntervalSince1970.isFinite ? date.formatted(.iso8601) : "?") is not "
        + "between 1970 and 2100"
    case .lengthOutOfRange(let length):
      "its length \(length) s is not between 0 and \(Int(Rules.longestMeeting)) s (a day)"
    case .segment(let number, let problem): "segment \(number) \(problem)"
    case .tooManySegments(let count):
      "it has \(count) segments; a meeting has at most \(Rules.mostSegments)"
    case .tooManyWords(let count):
      "it has \(count) words; a meeting has at most \(Rules.mostMeetingWords)"
    case .audio(let problem): "its audio \(problem)"
    }
  }
}
