import Architecture
import AudioCore
import Foundation
import Tagged

/// A recurring stand-up: who attends, how long it lasts, how it looks, and its past meetings.
public struct SyncUp: Equatable, Hashable, Identifiable, Sendable {
  public let id: Tagged<Self, UUID>
  public var attendees: IdentifiedArrayOf<Attendee> = []
  public var duration: Duration = .seconds(60 * 5)
  public var meetings: IdentifiedArrayOf<Meeting> = []
  public var theme: Theme = .bubblegum
  public var title = ""

  public init(
    id: Tagged<Self, UUID>,
    attendees: IdentifiedArrayOf<Attendee> = [],
    duration: Duration = .seconds(60 * 5),
    meetings: IdentifiedArrayOf<Meeting> = [],
    theme: Theme = .bubblegum,
    title: String = ""
  ) {
    self.id = id
    self.attendees = attendees
    self.duration = duration
    self.meetings = meetings
    self.theme = theme
    self.title = title
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

  public init(
    id: Tagged<Self, UUID>,
    date: Date,
    transcript: String,
    segments: [Segment] = [],
    audioFile: String? = nil
  ) {
    self.id = id
    self.date = date
    self.transcript = transcript
    self.segments = segments
    self.audioFile = audioFile
  }

  /// What one speaker said in one utterance, with times in seconds from the meeting's start.
  public struct Segment: Codable, Equatable, Hashable, Sendable {
    public var speaker: String
    public var start: Double
    public var end: Double
    public var text: String
    public var words: [Word]

    public init(speaker: String, start: Double, end: Double, text: String, words: [Word] = []) {
      self.speaker = speaker
      self.start = start
      self.end = end
      self.text = text
      self.words = words
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
    case id, attendees, duration, meetings, theme, title
  }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    self.id = try container.decode(Tagged<Self, UUID>.self, forKey: .id)
    self.attendees = try container.decodeIfPresent(IdentifiedArrayOf<Attendee>.self, forKey: .attendees) ?? []
    let seconds = try container.decodeIfPresent(Double.self, forKey: .duration) ?? 300
    self.duration = .milliseconds(Int64((seconds * 1000).rounded()))
    self.meetings = try container.decodeIfPresent(IdentifiedArrayOf<Meeting>.self, forKey: .meetings) ?? []
    self.theme = try container.decodeIfPresent(Theme.self, forKey: .theme) ?? .bubblegum
    self.title = try container.decodeIfPresent(String.self, forKey: .title) ?? ""
  }

  /// The duration is written as seconds, so the file reads well and other tools can use it.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(id, forKey: .id)
    try container.encode(attendees, forKey: .attendees)
    try container.encode(duration.seconds, forKey: .duration)
    try container.encode(meetings, forKey: .meetings)
    try container.encode(theme, forKey: .theme)
    try container.encode(title, forKey: .title)
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

  static func decode(_ data: Data) throws -> IdentifiedArrayOf<SyncUp> {
    let file = try JSONDecoder.syncUps.decode(SyncUpsFile.self, from: data)
    guard file.formatVersion <= currentVersion else {
      throw UnsupportedFormatVersion(version: file.formatVersion)
    }
    return file.syncUps
  }

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
