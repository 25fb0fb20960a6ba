import Foundation

/// A sync-up as laptops push it and pull it: each field stamped with the clock of its last
/// change, so two laptops' edits merge field by field.
public struct SyncUpDocument: Codable, Sendable, Equatable, Identifiable {
  public struct Attendee: Codable, Sendable, Equatable {
    public var id: UUID
    public var name: String
    public init(id: UUID, name: String) {
      self.id = id
      self.name = name
    }
  }

  public var id: UUID
  public var title: Stamped<String>
  public var theme: Stamped<String>
  /// Seconds.
  public var duration: Stamped<Double>
  public var attendees: Stamped<[Attendee]>
  public var vocabulary: Stamped<[String]>
  /// Deleted everywhere; a meeting pushed into it later brings it back.
  public var deleted: Stamped<Bool>
  /// When the team's words were last forgotten (`syncups forget`): the sync-up's language
  /// model learns only from what was said after. Nil: never (documents without it still read).
  public var wordsForgotten: Stamped<Date>?

  public init(
    id: UUID, title: Stamped<String>, theme: Stamped<String>, duration: Stamped<Double>,
    attendees: Stamped<[Attendee]>, vocabulary: Stamped<[String]>, deleted: Stamped<Bool>,
    wordsForgotten: Stamped<Date>? = nil
  ) {
    self.id = id
    self.title = title
    self.theme = theme
    self.duration = duration
    self.attendees = attendees
    self.vocabulary = vocabulary
    self.deleted = deleted
    self.wordsForgotten = wordsForgotten
  }

  /// Every field of both, each from the later write.
  public func merged(with other: SyncUpDocument) -> SyncUpDocument {
    var result = self
    result.title = title.merged(with: other.title)
    result.theme = theme.merged(with: other.theme)
    result.duration = duration.merged(with: other.duration)
    result.attendees = attendees.merged(with: other.attendees)
    result.vocabulary = vocabulary.merged(with: other.vocabulary)
    result.deleted = deleted.merged(with: other.deleted)
    result.wordsForgotten = [wordsForgotten, other.wordsForgotten].compactMap { $0 }
      .max { $0.clock < $1.clock }
    return result
  }

  /// The latest clock of any field.
  public var clock: HybridClock {
    ([title.clock, theme.clock, duration.clock, attendees.clock, vocabulary.clock, deleted.clock]
      + [wordsForgotten?.clock].compactMap { $0 }).max()!
  }
}

/// A finished meeting with its transcript and word times. A meeting is written once when it is
/// saved; a later write (an edit, a deletion) replaces it when its clock is later, except its
/// segments, which merge one by one by their own clocks (see `merged(with:)`). `clock` is the
/// latest change of the meeting or of any of its segments.
public struct MeetingDocument: Codable, Sendable, Equatable, Identifiable {
  public struct Word: Codable, Sendable, Equatable {
    public var text: String
    public var start: Double
    public var end: Double
    /// The decoder's posterior probability, 0...1, when known (added for the laptops' sync:
    /// optional, so documents without it still read).
    public var confidence: Double?
    public init(text: String, start: Double, end: Double, confidence: Double? = nil) {
      self.text = text
      self.start = start
      self.end = end
      self.confidence = confidence
    }
  }

  public struct Segment: Codable, Sendable, Equatable {
    public var speaker: String
    /// Seconds from the meeting's start.
    public var start: Double
    public var end: Double
    public var text: String
    public var words: [Word]
    /// What the recogniser gave, when someone corrected the segment (`speaker`, `text` and
    /// `words` are then the correction). Optional: documents without it still read.
    public var original: Original?
    /// The clock of the segment's last change (a correction, or putting back what was
    /// recognised); segments merge one by one, the later change winning. Absent from what
    /// older laptops write: the meeting's `clock` is the segment's then.
    public var clock: HybridClock?
    public init(
      speaker: String, start: Double, end: Double, text: String, words: [Word] = [],
      original: Original? = nil, clock: HybridClock? = nil
    ) {
      self.speaker = speaker
      self.start = start
      self.end = end
      self.text = text
      self.words = words
      self.original = original
      self.clock = clock
    }
  }

  /// A corrected segment's speaker, text and words as recognised.
  public struct Original: Codable, Sendable, Equatable {
    public var speaker: String
    public var text: String
    public var words: [Word]
    public init(speaker: String, text: String, words: [Word]) {
      self.speaker = speaker
      self.text = text
      self.words = words
    }
  }

  /// The meeting's audio, uploaded first to `PUT /api/v1/audio/SHA256`.
  public struct Audio: Codable, Sendable, Equatable {
    /// Lowercase hex SHA-256 of the file.
    public var sha256: String
    public var size: Int64
    /// The MIME type, such as `audio/flac`.
    public var type: String
    public init(sha256: String, size: Int64, type: String) {
      self.sha256 = sha256
      self.size = size
      self.type = type
    }
  }

  public var id: UUID
  public var syncUpID: UUID
  public var date: Date
  /// Seconds.
  public var length: Double
  public var segments: [Segment]
  public var audio: Audio?
  public var deleted: Bool
  public var clock: HybridClock

  public init(
    id: UUID, syncUpID: UUID, date: Date, length: Double, segments: [Segment], audio: Audio?,
    deleted: Bool = false, clock: HybridClock
  ) {
    self.id = id
    self.syncUpID = syncUpID
    self.date = date
    self.length = length
    self.segments = segments
    self.audio = audio
    self.deleted = deleted
    self.clock = clock
  }
}

/// `POST /api/v1/sync/push`: what a laptop changed. The laptop keeps `pushID` and resends the
/// same push until it gets a receipt; the server saves a push once per (device, push id).
public struct Push: Codable, Sendable, Equatable {
  public var device: UUID
  public var pushID: UUID
  public var syncUps: [SyncUpDocument]
  public var meetings: [MeetingDocument]
  /// What was learned of attendees (or forgotten), each after its sync-up.
  public var people: [PersonDocument]
  /// Blockers closed by hand, after the meetings they are in.
  public var blockers: [BlockerClosure]

  public init(
    device: UUID, pushID: UUID, syncUps: [SyncUpDocument] = [], meetings: [MeetingDocument] = [],
    people: [PersonDocument] = [], blockers: [BlockerClosure] = []
  ) {
    self.device = device
    self.pushID = pushID
    self.syncUps = syncUps
    self.meetings = meetings
    self.people = people
    self.blockers = blockers
  }

  enum CodingKeys: String, CodingKey {
    case device, pushID, syncUps, meetings, people, blockers
  }

  /// `people` and `blockers` are optional in the JSON: a push from an earlier laptop has none.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    device = try container.decode(UUID.self, forKey: .device)
    pushID = try container.decode(UUID.self, forKey: .pushID)
    syncUps = try container.decode([SyncUpDocument].self, forKey: .syncUps)
    meetings = try container.decode([MeetingDocument].self, forKey: .meetings)
    people = try container.decodeIfPresent([PersonDocument].self, forKey: .people) ?? []
    blockers = try container.decodeIfPresent([BlockerClosure].self, forKey: .blockers) ?? []
  }

  /// `blockers` only when there are some: a push without them is written as before.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(device, forKey: .device)
    try container.encode(pushID, forKey: .pushID)
    try container.encode(syncUps, forKey: .syncUps)
    try container.encode(meetings, forKey: .meetings)
    try container.encode(people, forKey: .people)
    if !blockers.isEmpty { try container.encode(blockers, forKey: .blockers) }
  }
}

/// The server's answer to a push (the same answer to a repeat of it).
public struct PushReceipt: Codable, Sendable, Equatable {
  public var pushID: UUID
  /// The server's version after this push.
  public var version: Int64
  public var syncUps: Int
  public var meetings: Int

  public init(pushID: UUID, version: Int64, syncUps: Int, meetings: Int) {
    self.pushID = pushID
    self.version = version
    self.syncUps = syncUps
    self.meetings = meetings
  }
}

/// `GET /api/v1/sync/changes?since=VERSION`: what changed after `since`, oldest first. Ask
/// again with `since: version` until `more` is false.
public struct ChangesPage: Codable, Sendable, Equatable {
  public var version: Int64
  public var more: Bool
  public var syncUps: [SyncUpDocument]
  public var meetings: [MeetingDocument]
  public var people: [PersonDocument]
  /// Blockers closed by hand (on a laptop or the server's blockers page).
  public var blockers: [BlockerClosure]

  public init(
    version: Int64, more: Bool, syncUps: [SyncUpDocument], meetings: [MeetingDocument],
    people: [PersonDocument] = [], blockers: [BlockerClosure] = []
  ) {
    self.version = version
    self.more = more
    self.syncUps = syncUps
    self.meetings = meetings
    self.people = people
    self.blockers = blockers
  }

  enum CodingKeys: String, CodingKey {
    case version, more, syncUps, meetings, people, blockers
  }

  /// `people` and `blockers` are optional in the JSON: a page from an earlier server has none.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    version = try container.decode(Int64.self, forKey: .version)
    more = try container.decode(Bool.self, forKey: .more)
    syncUps = try container.decode([SyncUpDocument].self, forKey: .syncUps)
    meetings = try container.decode([MeetingDocument].self, forKey: .meetings)
    people = try container.decodeIfPresent([PersonDocument].self, forKey: .people) ?? []
    blockers = try container.decodeIfPresent([BlockerClosure].self, forKey: .blockers) ?? []
  }

  /// `blockers` only when there are some: a page without them is written as before.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(version, forKey: .version)
    try container.encode(more, forKey: .more)
    try container.encode(syncUps, forKey: .syncUps)
    try container.encode(meetings, forKey: .meetings)
    try container.encode(people, forKey: .people)
    if !blockers.isEmpty { try container.encode(blockers, forKey: .blockers) }
  }
}

/// A sync-up in a list, as `syncups list --json` prints it.
public struct SyncUpSummary: Codable, Sendable, Equatable {
  public var id: UUID
  public var title: String
  public var theme: String
  public var duration: Double
  public var attendees: [String]
  public var meetings: Int
  /// The name of the team it belongs to (a server with several teams); nil from a laptop.
  public var team: String?

  public init(
    id: UUID, title: String, theme: String, duration: Double, attendees: [String], meetings: Int,
    team: String? = nil
  ) {
    self.id = id
    self.title = title
    self.theme = theme
    self.duration = duration
    self.attendees = attendees
    self.meetings = meetings
    self.team = team
  }
}

/// A meeting in a list (like `syncups meetings --json`), newest first.
public struct MeetingSummary: Codable, Sendable, Equatable {
  public var id: UUID
  public var date: Date
  public var length: Double
  public var segments: Int
  public var firstWords: String

  public init(id: UUID, date: Date, length: Double, segments: Int, firstWords: String) {
    self.id = id
    self.date = date
    self.length = length
    self.segments = segments
    self.firstWords = firstWords
  }
}

/// One page of a sync-up's meetings; `next` is the `?before=` of the next page, if any.
public struct MeetingsPage: Codable, Sendable, Equatable {
  public var meetings: [MeetingSummary]
  public var next: String?

  public init(meetings: [MeetingSummary], next: String?) {
    self.meetings = meetings
    self.next = next
  }
}

/// One search match, exactly the keys of `syncups search --json`.
public struct SearchHit: Codable, Sendable, Equatable {
  public var syncUp: String
  /// The meeting's id in lowercase, as `syncups search --json` prints it.
  public var meeting: String
  public var date: Date
  public var speaker: String
  public var start: Double
  public var end: Double
  public var text: String

  public init(
    syncUp: String, meeting: String, date: Date, speaker: String, start: Double, end: Double,
    text: String
  ) {
    self.syncUp = syncUp
    self.meeting = meeting
    self.date = date
    self.speaker = speaker
    self.start = start
    self.end = end
    self.text = text
  }
}

/// Every error's body: `{"error": "what is wrong and what to do"}`.
public struct ErrorBody: Codable, Sendable, Equatable {
  public var error: String
  public init(_ error: String) { self.error = error }
}

/// The JSON both sides write and read: ISO 8601 dates (UTC), sorted keys.
public enum WireJSON {
  public static func encoder() -> JSONEncoder {
    let encoder = JSONEncoder()
    encoder.dateEncodingStrategy = .iso8601
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return encoder
  }

  public static func decoder() -> JSONDecoder {
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .iso8601
    return decoder
  }
}
