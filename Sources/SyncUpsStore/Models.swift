import AudioCore
import Foundation
import IdentifiedCollections
import SpeechVocabulary
import SyncUpsWire
import Tagged

/// A recurring stand-up: who attends, how long it lasts, how it looks, and its past meetings.
public struct SyncUp: Equatable, Hashable, Identifiable, Sendable {
  public let id: Tagged<Self, UUID>
  public var attendees: IdentifiedArrayOf<Attendee> = []
  public var duration: Duration = .seconds(60 * 5)
  public var meetings: IdentifiedArrayOf<Meeting> = []
  public var theme: Theme = .bubblegum
  public var title = ""
  /// Words and phrases the team uses (product names, jargon), as typed. Attendees' names are not
  /// stored here: `transcriptionVocabulary` always adds them.
  public var vocabulary: [String] = []

  public init(
    id: Tagged<Self, UUID>,
    attendees: IdentifiedArrayOf<Attendee> = [],
    duration: Duration = .seconds(60 * 5),
    meetings: IdentifiedArrayOf<Meeting> = [],
    theme: Theme = .bubblegum,
    title: String = "",
    vocabulary: [String] = []
  ) {
    self.id = id
    self.attendees = attendees
    self.duration = duration
    self.meetings = meetings
    self.theme = theme
    self.title = title
    self.vocabulary = vocabulary
  }

  /// What a transcription of this sync-up's meetings expects: attendees' names, then its words.
  public var transcriptionVocabulary: [String] {
    attendees.map(\.name) + vocabulary
  }

  /// Each attendee's slot. The last slot absorbs what an uneven division leaves over.
  public var durationPerAttendee: Duration {
    attendees.isEmpty ? duration : duration / attendees.count
  }
}

public struct Attendee: Codable, Equatable, Hashable, Identifiable, Sendable {
  public let id: Tagged<Self, UUID>
  public var name = ""

  public init(id: Tagged<Self, UUID>, name: String = "") {
    self.id = id
    self.name = name
  }
}

/// A finished meeting: when it happened, what was said and by whom.
public struct Meeting: Codable, Equatable, Hashable, Identifiable, Sendable {
  public let id: Tagged<Self, UUID>
  public let date: Date
  /// The whole transcript as plain text.
  public var transcript: String
  /// One segment for each final utterance, attributed to a speaker.
  public var segments: [Segment]
  /// The meeting's recorded audio, relative to the data directory, when it was kept.
  public var audioFile: String?
  /// How long the meeting ran, in seconds; nil in files written before it was recorded.
  public var length: Double?

  public init(
    id: Tagged<Self, UUID>,
    date: Date,
    transcript: String,
    segments: [Segment] = [],
    audioFile: String? = nil,
    length: Double? = nil
  ) {
    self.id = id
    self.date = date
    self.transcript = transcript
    self.segments = segments
    self.audioFile = audioFile
    self.length = length
  }

  /// How long the meeting ran: as recorded, or (older files) until its last word.
  public var runningLength: Double { length ?? segments.map(\.end).max() ?? 0 }

  /// What one speaker said in one utterance, with times in seconds from the meeting's start.
  public struct Segment: Codable, Equatable, Hashable, Sendable {
    public var speaker: String
    public var start: Double
    public var end: Double
    public var text: String
    public var words: [Word]
    /// What the recogniser gave, kept once someone corrects the segment (nil: never corrected);
    /// `speaker`, `text` and `words` are then the correction.
    public var original: Recognition?

    public init(
      speaker: String, start: Double, end: Double, text: String, words: [Word] = [],
      original: Recognition? = nil
    ) {
      self.speaker = speaker
      self.start = start
      self.end = end
      self.text = text
      self.words = words
      self.original = original
    }

    /// A segment's speaker, text and words as recognised.
    public struct Recognition: Codable, Equatable, Hashable, Sendable {
      public var speaker: String
      public var text: String
      public var words: [Word]

      public init(speaker: String, text: String, words: [Word]) {
        self.speaker = speaker
        self.text = text
        self.words = words
      }
    }

    /// The segment as recognised (itself when never corrected).
    public var recognised: Segment {
      guard let original else { return self }
      return Segment(
        speaker: original.speaker, start: start, end: end, text: original.text,
        words: original.words)
    }
  }

  /// A word with its times and confidence, as the decoder gave it.
  public typealias Word = Transcription.Word
}

/// The sixteen themes of the original app, with colours a terminal can show.
public enum Theme: String, CaseIterable, Codable, Equatable, Hashable, Identifiable, Sendable {
  case bubblegum
  case buttercup
  case indigo
  case lavender
  case magenta
  case navy
  case orange
  case oxblood
  case periwinkle
  case poppy
  case purple
  case seafoam
  case sky
  case tan
  case teal
  case yellow

  public var id: Self { self }
  public var name: String { rawValue.capitalized }

  /// The theme's colour as 0xRRGGBB.
  public var mainColor: UInt32 {
    switch self {
    case .bubblegum: 0xED89CA
    case .buttercup: 0xFFE9A4
    case .indigo: 0x3A0063
    case .lavender: 0xCDC5FF
    case .magenta: 0xA5236F
    case .navy: 0x000A66
    case .orange: 0xFF8A42
    case .oxblood: 0x4A0006
    case .periwinkle: 0x8783FF
    case .poppy: 0xFF5E5E
    case .purple: 0x924DFE
    case .seafoam: 0xCBF0E2
    case .sky: 0x6E99FF
    case .tan: 0xC29B75
    case .teal: 0x228E9E
    case .yellow: 0xFFDF4D
    }
  }

  /// Text drawn on the main colour: black on light themes, white on dark ones.
  public var accentColor: UInt32 {
    switch self {
    case .indigo, .magenta, .navy, .oxblood, .purple: 0xFFFFFF
    default: 0x000000
    }
  }
}

// MARK: Persistence

extension SyncUp: Codable {
  private enum CodingKeys: String, CodingKey {
    case id, attendees, duration, meetings, theme, title, vocabulary
  }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    self.id = try container.decode(Tagged<Self, UUID>.self, forKey: .id)
    self.attendees =
      try container.decodeIfPresent(IdentifiedArrayOf<Attendee>.self, forKey: .attendees) ?? []
    let seconds = try container.decodeIfPresent(Double.self, forKey: .duration) ?? 300
    // Beyond any rule's range, as a file may have it: kept out of range (`validated()` says so),
    // never converted past what a duration holds.
    self.duration = .milliseconds(
      Int64(saturating: (min(max(seconds, -1e12), 1e12) * 1000).rounded()))
    self.meetings =
      try container.decodeIfPresent(IdentifiedArrayOf<Meeting>.self, forKey: .meetings) ?? []
    self.theme = try container.decodeIfPresent(Theme.self, forKey: .theme) ?? .bubblegum
    self.title = try container.decodeIfPresent(String.self, forKey: .title) ?? ""
    // Files written before sync-ups had a vocabulary have none.
    self.vocabulary = try container.decodeIfPresent([String].self, forKey: .vocabulary) ?? []
  }

  /// The duration is written as seconds, so the file reads well and other tools can use it.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(id.rawValue.lowercasedString, forKey: .id)
    try container.encode(attendees, forKey: .attendees)
    try container.encode(duration.seconds, forKey: .duration)
    try container.encode(meetings, forKey: .meetings)
    try container.encode(theme, forKey: .theme)
    try container.encode(title, forKey: .title)
    if !vocabulary.isEmpty { try container.encode(vocabulary, forKey: .vocabulary) }
  }
}

// Ids are written in lower case, as everything else prints them.
extension Attendee {
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(id.rawValue.lowercasedString, forKey: .id)
    try container.encode(name, forKey: .name)
  }
}

extension Meeting {
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(id.rawValue.lowercasedString, forKey: .id)
    try container.encode(date, forKey: .date)
    try container.encode(transcript, forKey: .transcript)
    try container.encode(segments, forKey: .segments)
    try container.encodeIfPresent(audioFile, forKey: .audioFile)
    try container.encodeIfPresent(length, forKey: .length)
  }
}

extension Duration {
  /// The duration in seconds, with fractions.
  public var seconds: Double {
    Double(components.seconds) + Double(components.attoseconds) / 1e18
  }
}

/// The on-disk form of `sync-ups.json`: the sync-ups under a format version, so a later version
/// of the app can recognise and migrate an older file.
struct SyncUpsFile: Codable {
  static let currentVersion = 1

  var formatVersion: Int
  var syncUps: IdentifiedArrayOf<SyncUp>

  static func encode(_ syncUps: IdentifiedArrayOf<SyncUp>) throws -> Data {
    try JSONEncoder.syncUps.encode(SyncUpsFile(formatVersion: currentVersion, syncUps: syncUps))
  }

  struct UnsupportedFormatVersion: Error, CustomStringConvertible {
    let version: Int
    var description: String {
      "the file has format version \(version), newer than this app's \(currentVersion): update syncups"
    }
  }
}

extension JSONDecoder {
  static var syncUps: JSONDecoder {
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .iso8601
    return decoder
  }
}

extension JSONEncoder {
  static var syncUps: JSONEncoder {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    encoder.dateEncodingStrategy = .iso8601
    return encoder
  }
}

// MARK: Rules

// The rules themselves live in SyncUpsWire's `Rules`, which the server and the sync apply to
// every document too: one set of rules, wherever a sync-up or a meeting comes in.
public typealias SyncUpProblem = SyncUpsWire.SyncUpProblem
public typealias MeetingProblem = SyncUpsWire.MeetingProblem

extension SyncUp {
  /// How long a sync-up may last, whichever front end sets it.
  public static let durationRange: ClosedRange<Duration> =
    .seconds(Rules.durationSeconds.lowerBound) ... .seconds(Rules.durationSeconds.upperBound)

  /// The sync-up as it is saved: title and names trimmed, blank attendee rows dropped; or why it
  /// cannot be saved. Every front end saves through this.
  public func validated() throws(SyncUpProblem) -> SyncUp {
    var syncUp = self
    syncUp.title = try Rules.title(title)
    var kept: [Attendee] = []
    for var attendee in attendees {
      guard let name = try Rules.name(attendee.name) else { continue }
      attendee.name = name
      kept.append(attendee)
    }
    try Rules.attendees(kept.map(\.name))
    syncUp.attendees = IdentifiedArray(uniqueElements: kept)
    guard Self.durationRange.contains(duration) else { throw .durationOutOfRange }
    syncUp.vocabulary = try Rules.vocabulary(vocabulary, attendees: kept.map(\.name))
    return syncUp
  }

  /// The longest title and attendee name, in characters: a row of `list` stays readable.
  public static let longestTitle = Rules.longestTitle
  public static let longestName = Rules.longestName

  /// The longest vocabulary word or phrase, in characters.
  public static let longestWord = Rules.longestWord
}

extension Meeting {
  /// The longest a meeting and any time in it may be, in seconds: a day.
  public static let longest: Double = Rules.longestMeeting
  /// The dates a meeting may have.
  public static let dateRange: ClosedRange<Date> = Rules.meetingDates

  /// The meeting if its date, length and times are sane (dates from 1970 to 2100, times from 0
  /// to a day, each segment ending after it starts, speakers named as attendees may be, counts
  /// and texts bounded), or why not: the rules a push and a pull check (`Rules.meeting`, one
  /// walk of the segments). Imports check every meeting with this; a recording makes only such
  /// meetings.
  public func validated() throws(MeetingProblem) -> Meeting {
    try Rules.meeting(date: date, length: length, segments: segments.map(\.document))
    return self
  }
}
