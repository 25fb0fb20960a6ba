import Foundation
import GRDB

// One record type per table, and the conversions between them and the models.

struct SyncUpRecord: FetchableRecord, PersistableRecord, Equatable {
  static let databaseTableName = "syncUp"
  var id: String
  var position: Int
  var title: String
  var durationMilliseconds: Int64
  var theme: String

  init(_ syncUp: SyncUp, position: Int) {
    id = syncUp.id.rawValue.lowercasedString
    self.position = position
    title = syncUp.title
    durationMilliseconds = Int64((syncUp.duration.seconds * 1000).rounded())
    theme = syncUp.theme.rawValue
  }

  init(row: Row) {
    id = row["id"]
    position = row["position"]
    title = row["title"]
    durationMilliseconds = row["durationMilliseconds"]
    theme = row["theme"]
  }

  func encode(to container: inout PersistenceContainer) {
    container["id"] = id
    container["position"] = position
    container["title"] = title
    container["durationMilliseconds"] = durationMilliseconds
    container["theme"] = theme
  }

  /// The sync-up without attendees or meetings.
  func syncUp() -> SyncUp {
    SyncUp(
      id: SyncUp.ID(UUID(databaseString: id)),
      duration: .milliseconds(durationMilliseconds),
      theme: Theme(rawValue: theme) ?? .bubblegum,
      title: title
    )
  }
}

struct AttendeeRecord: FetchableRecord, PersistableRecord {
  static let databaseTableName = "attendee"
  var id: String
  var syncUpId: String
  var position: Int
  var name: String

  init(_ attendee: Attendee, syncUpID: SyncUp.ID, position: Int) {
    id = attendee.id.rawValue.lowercasedString
    syncUpId = syncUpID.rawValue.lowercasedString
    self.position = position
    name = attendee.name
  }

  init(row: Row) {
    id = row["id"]
    syncUpId = row["syncUpId"]
    position = row["position"]
    name = row["name"]
  }

  func encode(to container: inout PersistenceContainer) {
    container["id"] = id
    container["syncUpId"] = syncUpId
    container["position"] = position
    container["name"] = name
  }

  var attendee: Attendee { Attendee(id: Attendee.ID(UUID(databaseString: id)), name: name) }
}

/// A sync-up's vocabulary: one row per word or phrase, in the order the team added them (rowid).
enum VocabularyWordRecord {
  /// Every sync-up's words, by sync-up id.
  static func all(_ db: Database) throws -> [String: [String]] {
    var words: [String: [String]] = [:]
    let rows = try Row.fetchCursor(
      db, sql: "SELECT syncUpId, word FROM vocabularyWord ORDER BY syncUpId, rowid")
    while let row = try rows.next() { words[row["syncUpId"], default: []].append(row["word"]) }
    return words
  }

  static func words(of syncUpID: String, _ db: Database) throws -> [String] {
    try String.fetchAll(
      db, sql: "SELECT word FROM vocabularyWord WHERE syncUpId = ? ORDER BY rowid",
      arguments: [syncUpID])
  }

  /// Rewrites a sync-up's words (an edit adds and removes few; order is kept by rewriting).
  static func replace(_ words: [String], of syncUpID: SyncUp.ID, _ db: Database) throws {
    let id = syncUpID.rawValue.lowercasedString
    try db.execute(sql: "DELETE FROM vocabularyWord WHERE syncUpId = ?", arguments: [id])
    for word in words {
      // A file edited by hand may repeat a word: the first one stays.
      try db.execute(
        sql: "INSERT OR IGNORE INTO vocabularyWord (syncUpId, word) VALUES (?, ?)",
        arguments: [id, word])
    }
  }
}

struct MeetingRecord: FetchableRecord, PersistableRecord {
  static let databaseTableName = "meeting"
  var id: String
  var syncUpId: String
  var date: Double
  var isFinished: Bool
  var length: Double
  var audioFile: String?
  var transcript: String?

  init(_ meeting: Meeting, syncUpID: SyncUp.ID, isFinished: Bool) {
    id = meeting.id.rawValue.lowercasedString
    syncUpId = syncUpID.rawValue.lowercasedString
    date = meeting.date.timeIntervalSince1970
    self.isFinished = isFinished
    // How long it ran (recorded meetings), else until its last word.
    length = meeting.length ?? meeting.segments.map(\.end).max() ?? 0
    audioFile = meeting.audioFile
    transcript = meeting.transcript == meeting.joinedSegmentTexts ? nil : meeting.transcript
  }

  init(row: Row) {
    id = row["id"]
    syncUpId = row["syncUpId"]
    date = row["date"]
    isFinished = row["isFinished"]
    length = row["length"]
    audioFile = row["audioFile"]
    transcript = row["transcript"]
  }

  func encode(to container: inout PersistenceContainer) {
    container["id"] = id
    container["syncUpId"] = syncUpId
    container["date"] = date
    container["isFinished"] = isFinished
    container["length"] = length
    container["audioFile"] = audioFile
    container["transcript"] = transcript
  }

  /// The meeting with `segments` (the transcript is theirs unless one was stored).
  func meeting(segments: [Meeting.Segment] = []) -> Meeting {
    var meeting = Meeting(
      id: Meeting.ID(UUID(databaseString: id)),
      date: Date(timeIntervalSince1970: date),
      transcript: "",
      segments: segments,
      audioFile: audioFile
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
      id: Meeting.ID(UUID(databaseString: id)),
      date: Date(timeIntervalSince1970: date),
      transcript: "",
      audioFile: audioFile
    )
  }
}

struct SegmentRecord: FetchableRecord, PersistableRecord {
  static let databaseTableName = "segment"
  var id: Int64?
  var meetingId: String
  var ordinal: Int
  var speaker: String
  var startTime: Double
  var endTime: Double
  var text: String
  var words: Data

  init(_ segment: Meeting.Segment, meetingID: Meeting.ID, ordinal: Int) throws {
    meetingId = meetingID.rawValue.lowercasedString
    self.ordinal = ordinal
    speaker = segment.speaker
    startTime = segment.start
    endTime = segment.end
    text = segment.text
    words = try JSONEncoder().encode(segment.words)
  }

  init(row: Row) {
    id = row["id"]
    meetingId = row["meetingId"]
    ordinal = row["ordinal"]
    speaker = row["speaker"]
    startTime = row["startTime"]
    endTime = row["endTime"]
    text = row["text"]
    words = row["words"]
  }

  func encode(to container: inout PersistenceContainer) {
    container["id"] = id
    container["meetingId"] = meetingId
    container["ordinal"] = ordinal
    container["speaker"] = speaker
    container["startTime"] = startTime
    container["endTime"] = endTime
    container["text"] = text
    container["words"] = words
  }

  func segment() throws -> Meeting.Segment {
    Meeting.Segment(
      speaker: speaker, start: startTime, end: endTime, text: text,
      words: try JSONDecoder().decode([Meeting.Word].self, from: words)
    )
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
