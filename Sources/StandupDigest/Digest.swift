import Foundation

/// What a stand-up said, per person: what they did (`yesterday`), what they will do (`today`)
/// and what blocks them (`blockers`), each item a short phrase cut from the transcript, with the
/// segment it came from and its time. Found by written rules (cue words, tense, the people
/// named), no model and no network: see docs/digest.md.
///
/// The input is what the recogniser writes (lower case, no punctuation, some words wrong), so a
/// turn is split into clauses at cue words, not at punctuation (a typed correction's full stops
/// split it too).
extension Digest {
  /// The digest of one meeting's `segments` (in the order spoken). `attendees`: the sync-up's
  /// attendees in its order; people appear in that order, then any other speaker in the order
  /// first heard. Segments with no speaker are left out; an attendee who said nothing does not
  /// appear. Bounded: at most `maximumSegments` segments are read.
  public init(segments: [DigestSegment], attendees: [String]) {
    var found: [String: DigestPerson] = [:]
    var order: [String] = []
    let attendeeNames = attendees.map { $0.trimmingCharacters(in: .whitespaces) }
    for turn in Turn.split(segments.prefix(Self.maximumSegments)) {
      let name = turn.speaker
      let items = Extractor(turn: turn, attendees: attendeeNames).items()
      if found[name] == nil {
        found[name] = DigestPerson(name: name)
        order.append(name)
      }
      found[name]?.add(items)
    }
    let known = attendeeNames.filter { found[$0] != nil }
    let others = order.filter { !attendeeNames.contains($0) }
    self.init(people: (known + others).compactMap { found[$0] })
  }

  public static let maximumSegments = 100_000
}

/// One segment of a meeting: what the rules read.
public struct DigestSegment: Equatable, Sendable {
  /// Its number in the meeting, as `syncups transcript --numbers` prints it (1 = first).
  public var number: Int
  /// Who said it (an attendee's name; empty when nobody was named).
  public var speaker: String
  /// Seconds from the meeting's start.
  public var start: Double
  public var text: String

  public init(number: Int, speaker: String, start: Double, text: String) {
    self.number = number
    self.speaker = speaker
    self.start = start
    self.text = text
  }
}

/// The three questions of a stand-up.
public enum DigestQuestion: String, CaseIterable, Codable, Equatable, Sendable {
  case yesterday, today, blockers
}

/// One answer: a phrase from the transcript, where it was said, and why it was taken.
public struct DigestItem: Equatable, Sendable {
  public var question: DigestQuestion
  public var text: String
  /// The segment's number (1 = the meeting's first) and its start in seconds.
  public var segment: Int
  public var time: Double
  /// For a blocker: the attendee it names ("waiting for Ben to review"), when one is named.
  public var person: String?
  /// The rule that decided the question, in words ("past tense 'finished'").
  public var reason: String

  public init(
    question: DigestQuestion, text: String, segment: Int, time: Double, person: String? = nil,
    reason: String
  ) {
    self.question = question
    self.text = text
    self.segment = segment
    self.time = time
    self.person = person
    self.reason = reason
  }
}

/// One person's answers, each list in the order spoken.
public struct DigestPerson: Equatable, Sendable {
  public var name: String
  public var yesterday: [DigestItem] = []
  public var today: [DigestItem] = []
  public var blockers: [DigestItem] = []

  public init(name: String) { self.name = name }

  public subscript(question: DigestQuestion) -> [DigestItem] {
    get {
      switch question {
      case .yesterday: yesterday
      case .today: today
      case .blockers: blockers
      }
    }
    set {
      switch question {
      case .yesterday: yesterday = newValue
      case .today: today = newValue
      case .blockers: blockers = newValue
      }
    }
  }

  /// Adds items, each phrase once per question.
  mutating func add(_ items: [DigestItem]) {
    for item in items where !self[item.question].contains(where: { $0.text == item.text }) {
      self[item.question].append(item)
    }
  }

  public var isEmpty: Bool { yesterday.isEmpty && today.isEmpty && blockers.isEmpty }
}

/// A meeting's digest: the people who spoke, in the sync-up's order.
public struct Digest: Equatable, Sendable {
  public var people: [DigestPerson]

  public init(people: [DigestPerson]) { self.people = people }

  /// Nobody said anything the rules took as an answer.
  public var isEmpty: Bool { people.allSatisfy(\.isEmpty) }
}

/// The consecutive segments of one speaker: a cue ("yesterday") holds until the speaker changes.
struct Turn: Sendable {
  var speaker: String
  var segments: [DigestSegment]

  static func split(_ segments: ArraySlice<DigestSegment>) -> [Turn] {
    var turns: [Turn] = []
    for segment in segments {
      let speaker = segment.speaker.trimmingCharacters(in: .whitespacesAndNewlines)
      guard !speaker.isEmpty else { continue }
      if let last = turns.indices.last, turns[last].speaker == speaker {
        turns[last].segments.append(segment)
      } else {
        turns.append(Turn(speaker: speaker, segments: [segment]))
      }
    }
    return turns
  }
}
