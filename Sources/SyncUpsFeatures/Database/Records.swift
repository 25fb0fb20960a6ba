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
    id = syncUp.id.rawValue.databaseString
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
    id = attendee.id.rawValue.databaseString
    syncUpId = syncUpID.rawValue.databaseString
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
    id = meeting.id.rawValue.databaseString
    syncUpId = syncUpID.rawValue.databaseString
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
    meetingId = meetingID.rawValue.databaseString
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
  /// How ids are stored: lower case.
  var databaseString: String { uuidString.lowercased() }

  /// Reads a stored id. The schema only ever holds ids written from UUIDs.
  init(databaseString: String) {
    self =
      UUID(uuidString: databaseString)
      ?? UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
  }
}
