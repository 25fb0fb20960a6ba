import AudioCore
import Foundation
import GRDB
import Tagged

// One record type per table (GRDB `Codable` records: the columns are the properties), and the
// conversions between them and the models. Ids are `Tagged` UUIDs, stored as lower-case
// strings (see `Tagged: DatabaseValueConvertible` below).

struct SyncUpRecord: Codable, Equatable, FetchableRecord, PersistableRecord, Identifiable {
  static let databaseTableName = "syncUp"
  var id: SyncUp.ID
  var position: Int
  var title: String
  var durationMilliseconds: Int64
  var theme: String

  enum Columns {
    static let id = Column(CodingKeys.id)
    static let position = Column(CodingKeys.position)
  }

  init(_ syncUp: SyncUp, position: Int) {
    id = syncUp.id
    self.position = position
    title = syncUp.title
    durationMilliseconds = syncUp.duration.wholeMilliseconds
    theme = syncUp.theme.rawValue
  }

  /// The sync-up without attendees or meetings.
  func syncUp() -> SyncUp {
    SyncUp(
      id: id,
      duration: .milliseconds(durationMilliseconds),
      theme: Theme(rawValue: theme) ?? .bubblegum,
      title: title
    )
  }

  /// Sync-ups in the order the list shows them.
  static let ordered = order(Columns.position, Column.rowID)
}

struct AttendeeRecord: Codable, FetchableRecord, PersistableRecord, Identifiable {
  static let databaseTableName = "attendee"
  var id: Attendee.ID
  var syncUpId: SyncUp.ID
  var position: Int
  var name: String

  enum Columns {
    static let syncUpId = Column(CodingKeys.syncUpId)
    static let position = Column(CodingKeys.position)
    static let name = Column(CodingKeys.name)
  }

  init(_ attendee: Attendee, syncUpID: SyncUp.ID, position: Int) {
    id = attendee.id
    syncUpId = syncUpID
    self.position = position
    name = attendee.name
  }

  var attendee: Attendee { Attendee(id: id, name: name) }
}

/// A sync-up's vocabulary: one row per word or phrase, in the order the team added them (rowid).
struct VocabularyWordRecord: Codable, FetchableRecord, PersistableRecord {
  static let databaseTableName = "vocabularyWord"
  var syncUpId: SyncUp.ID
  var word: String

  enum Columns {
    static let syncUpId = Column(CodingKeys.syncUpId)
    static let word = Column(CodingKeys.word)
  }

  /// Every sync-up's words, by sync-up id.
  static func all(_ db: Database) throws -> [SyncUp.ID: [String]] {
    var words: [SyncUp.ID: [String]] = [:]
    let records = try order(Columns.syncUpId, Column.rowID).fetchCursor(db)
    while let record = try records.next() {
      words[record.syncUpId, default: []].append(record.word)
    }
    return words
  }

  static func words(of syncUpID: SyncUp.ID, _ db: Database) throws -> [String] {
    try filter(Columns.syncUpId == syncUpID).order(Column.rowID).fetchAll(db).map(\.word)
  }
}

struct MeetingRecord: Codable, FetchableRecord, PersistableRecord, Identifiable {
  static let databaseTableName = "meeting"
  var id: Meeting.ID
  var syncUpId: SyncUp.ID
  var date: Double
  var isFinished: Bool
  var length: Double
  var audioFile: String?
  var transcript: String?

  enum Columns {
    static let id = Column(CodingKeys.id)
    static let syncUpId = Column(CodingKeys.syncUpId)
    static let date = Column(CodingKeys.date)
    static let isFinished = Column(CodingKeys.isFinished)
    static let audioFile = Column(CodingKeys.audioFile)
  }

  init(_ meeting: Meeting, syncUpID: SyncUp.ID, isFinished: Bool) {
    id = meeting.id
    syncUpId = syncUpID
    date = meeting.date.timeIntervalSince1970
    self.isFinished = isFinished
    // How long it ran (recorded meetings), else until its last word.
    length = meeting.length ?? meeting.segments.map(\.end).max() ?? 0
    // Only whether it has audio: the name is always the one its id gives.
    audioFile = meeting.audioFile.map { _ in DataDirectory.audioFile(of: meeting.id) }
    transcript = meeting.transcript == meeting.joinedSegmentTexts ? nil : meeting.transcript
  }

  /// The meeting with `segments` (the transcript is theirs unless one was stored).
  func meeting(segments: [Meeting.Segment] = []) -> Meeting {
    var meeting = Meeting(
      id: id,
      date: Date(timeIntervalSince1970: date),
      transcript: "",
      segments: segments,
      audioFile: derivedAudioFile
    )
    meeting.transcript = transcript ?? meeting.joinedSegmentTexts
    // A length beyond the last word is how long a recorded meeting ran (a file's meeting
    // without one is stored as its last word's end, and read back without one).
    if length != segments.map(\.end).max() ?? 0 { meeting.length = length }
    return meeting
  }

  /// The meeting as the list holds it: no transcript, no segments.
  var summary: Meeting {
    Meeting(
      id: id, date: Date(timeIntervalSince1970: date), transcript: "", audioFile: derivedAudioFile)
  }

  /// The meeting's audio, by the name its id gives (whatever an older syncups stored).
  var derivedAudioFile: String? { audioFile.map { _ in DataDirectory.audioFile(of: id) } }

  /// The meeting while it is being recorded (or was, by a process that died).
  static func unfinished(_ id: Meeting.ID) -> QueryInterfaceRequest<Self> {
    filter(id: id).filter(Columns.isFinished == false)
  }

  /// Finished meetings, newest first: a sync-up's history.
  static let history = filter(Columns.isFinished == true)
    .order(Columns.date.desc, Column.rowID.desc)
}

struct SegmentRecord: Codable, Equatable, FetchableRecord, PersistableRecord {
  static let databaseTableName = "segment"
  var id: Int64?
  var meetingId: Meeting.ID
  var ordinal: Int
  var speaker: String
  var startTime: Double
  var endTime: Double
  var text: String
  /// JSON array of `Meeting.Word`.
  var words: Data
  /// What the recogniser gave, when the segment was corrected (all three, or none).
  var originalSpeaker: String?
  var originalText: String?
  var originalWords: Data?

  enum Columns {
    static let meetingId = Column(CodingKeys.meetingId)
    static let ordinal = Column(CodingKeys.ordinal)
    static let endTime = Column(CodingKeys.endTime)
  }

  init(_ segment: Meeting.Segment, meetingID: Meeting.ID, ordinal: Int) throws {
    meetingId = meetingID
    self.ordinal = ordinal
    speaker = segment.speaker
    startTime = segment.start
    endTime = segment.end
    text = segment.text
    words = try JSONEncoder().encode(segment.words)
    originalSpeaker = segment.original?.speaker
    originalText = segment.original?.text
    originalWords = try segment.original.map { try JSONEncoder().encode($0.words) }
  }

  func segment() throws -> Meeting.Segment {
    var original: Meeting.Segment.Recognition?
    if let originalSpeaker, let originalText {
      original = Meeting.Segment.Recognition(
        speaker: originalSpeaker, text: originalText,
        words: try originalWords.map { try JSONDecoder().decode([Meeting.Word].self, from: $0) }
          ?? [])
    }
    return Meeting.Segment(
      speaker: speaker, start: startTime, end: endTime, text: text,
      words: try JSONDecoder().decode([Meeting.Word].self, from: words), original: original
    )
  }

  /// A meeting's segments, in order.
  static func of(_ meetingID: Meeting.ID) -> QueryInterfaceRequest<Self> {
    filter(Columns.meetingId == meetingID).order(Columns.ordinal)
  }
}

/// How every id is stored: a lower-case UUID string, as `lowercasedString` writes it. The one
/// place ids are converted for the database; records and queries use the `Tagged` ids.
/// (Retroactive: neither Tagged nor GRDB can know of the other, and the models' ids are
/// `Tagged`.)
// swift-format-ignore: AvoidRetroactiveConformances
extension Tagged: @retroactive SQLExpressible where RawValue == UUID {}
// swift-format-ignore: AvoidRetroactiveConformances
extension Tagged: @retroactive StatementBinding where RawValue == UUID {}
// swift-format-ignore: AvoidRetroactiveConformances
extension Tagged: @retroactive DatabaseValueConvertible where RawValue == UUID {
  public var databaseValue: DatabaseValue { rawValue.lowercasedString.databaseValue }

  public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Self? {
    String.fromDatabaseValue(dbValue).map { Self(UUID(databaseString: $0)) }
  }
}

extension Meeting {
  /// What `transcript` is for a recorded meeting: its segments' texts joined by spaces.
  var joinedSegmentTexts: String {
    segments.map(\.text).joined(separator: " ")
  }
}

extension UUID {
  /// How ids are written everywhere (the database, audio file names, output): lower case with
  /// dashes, as `uuidString.lowercased()` gives, without Foundation's formatting (a list of a
  /// year's meetings makes hundreds).
  public var lowercasedString: String {
    withUnsafeBytes(of: uuid) { bytes in
      String(unsafeUninitializedCapacity: 36) { text in
        let digits = Array("0123456789abcdef".utf8)
        var index = 0
        for (offset, byte) in bytes.enumerated() {
          if [4, 6, 8, 10].contains(offset) {
            text[index] = UInt8(ascii: "-")
            index += 1
          }
          text[index] = digits[Int(byte >> 4)]
          text[index + 1] = digits[Int(byte & 0xF)]
          index += 2
        }
        return index
      }
    }
  }

  /// Reads a stored id (any case). The schema only ever holds ids written from UUIDs; anything
  /// else reads as the all-zero id.
  init(databaseString: String) {
    var bytes = [UInt8]()
    bytes.reserveCapacity(16)
    var high: UInt8?
    for character in databaseString.utf8 where character != UInt8(ascii: "-") {
      let value: UInt8
      switch character {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): value = character - UInt8(ascii: "0")
      case UInt8(ascii: "a")...UInt8(ascii: "f"): value = character - UInt8(ascii: "a") + 10
      case UInt8(ascii: "A")...UInt8(ascii: "F"): value = character - UInt8(ascii: "A") + 10
      default: value = 0xFF
      }
      guard value != 0xFF, bytes.count < 16 else {
        bytes = []
        break
      }
      if let first = high {
        bytes.append(first << 4 | value)
        high = nil
      } else {
        high = value
      }
    }
    guard bytes.count == 16, high == nil else {
      self = UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
      return
    }
    self = UUID(
      uuid: (
        bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
        bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
      ))
  }
}
