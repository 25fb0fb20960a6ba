import Foundation
import NIOCore
import PostgresNIO
import SyncUpsWire

/// A meeting's JSON, byte for byte what `WireJSON.bytes(of:)` writes of it, kept with the meeting
/// when it is pushed and served as it is. Each segment is written as JSON once: into the
/// meeting's JSON, and the `words` of it (its last key, the keys being sorted) into the
/// segment's row.
struct MeetingJSON {
  private(set) var bytes = ByteBuffer()
  /// Where each segment's `words` array is in `bytes`.
  private var wordRanges: [Range<Int>] = []

  init(_ meeting: MeetingDocument) throws {
    let (head, tail) = try Self.frame(of: meeting)
    bytes.reserveCapacity(head.count + tail.count + meeting.segments.count * 64)
    bytes.writeBytes(head)
    wordRanges.reserveCapacity(meeting.segments.count)
    for (index, segment) in meeting.segments.enumerated() {
      if index > 0 { bytes.writeInteger(UInt8(ascii: ",")) }
      if let words = writePlain(segment) {
        wordRanges.append(words)
        continue
      }
      let json = try WireJSON.bytes(of: segment)
      guard let words = Self.words(in: json) else { throw MeetingJSONUnexpected() }
      let start = bytes.writerIndex
      bytes.writeBytes(json)
      wordRanges.append((start + words.lowerBound)..<(start + words.upperBound))
    }
    bytes.writeBytes(tail)
  }

  /// The meeting's JSON without its segments, in two: before and after where they go (inside
  /// the brackets of its `segments` member, found member by member whatever the keys' order).
  static func frame(of meeting: MeetingDocument) throws -> (
    head: ArraySlice<UInt8>, tail: ArraySlice<UInt8>
  ) {
    var empty = meeting
    empty.segments = []
    let json = try WireJSON.bytes(of: empty)
    guard let segments = WireJSON.range(ofMember: "segments", in: json),
      json[segments].elementsEqual("[]".utf8)
    else { throw MeetingJSONUnexpected() }
    return (json[...segments.lowerBound], json[(segments.lowerBound + 1)...])
  }

  /// Writes a segment as `WireJSON` does (keys sorted, numbers and strings by its rules)
  /// without `Encodable`, whose calls for each word's values were half of a push's time in the
  /// server; returns where its words are. Nil, and nothing written, for a correction (its
  /// `original`) or a number that is not finite: `WireJSON` writes those.
  private mutating func writePlain(_ segment: MeetingDocument.Segment) -> Range<Int>? {
    func finite(_ word: MeetingDocument.Word) -> Bool {
      word.start.isFinite && word.end.isFinite && word.confidence?.isFinite != false
    }
    guard segment.original == nil, segment.start.isFinite, segment.end.isFinite,
      segment.words.allSatisfy(finite)
    else { return nil }
    if let clock = segment.clock {
      bytes.writeStaticString("{\"clock\":")
      write(clock.description)
      bytes.writeStaticString(",\"end\":")
    } else {
      bytes.writeStaticString("{\"end\":")
    }
    write(segment.end)
    bytes.writeStaticString(",\"speaker\":")
    write(segment.speaker)
    bytes.writeStaticString(",\"start\":")
    write(segment.start)
    bytes.writeStaticString(",\"text\":")
    write(segment.text)
    bytes.writeStaticString(",\"words\":")
    let words = bytes.writerIndex
    bytes.writeInteger(UInt8(ascii: "["))
    for (index, word) in segment.words.enumerated() {
      bytes.writeStaticString(index == 0 ? "{" : ",{")
      if let confidence = word.confidence {
        bytes.writeStaticString("\"confidence\":")
        write(confidence)
        bytes.writeInteger(UInt8(ascii: ","))
      }
      bytes.writeStaticString("\"end\":")
      write(word.end)
      bytes.writeStaticString(",\"start\":")
      write(word.start)
      bytes.writeStaticString(",\"text\":")
      write(word.text)
      bytes.writeInteger(UInt8(ascii: "}"))
    }
    bytes.writeInteger(UInt8(ascii: "]"))
    let end = bytes.writerIndex
    bytes.writeInteger(UInt8(ascii: "}"))
    return words..<end
  }

  /// Swift's shortest form without a trailing ".0", as `WireJSON` writes a finite number.
  private mutating func write(_ number: Double) {
    let text = number.description
    bytes.writeString(text.hasSuffix(".0") ? String(text.dropLast(2)) : text)
  }

  /// A string as `WireJSON` writes it: `"`, `\` and control characters escaped, all else as
  /// it is.
  private mutating func write(_ text: String) {
    bytes.writeInteger(UInt8(ascii: "\""))
    var text = text
    text.withUTF8 { utf8 in
      var run = 0
      for (index, byte) in utf8.enumerated()
      where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
        bytes.writeBytes(UnsafeBufferPointer(rebasing: utf8[run..<index]))
        run = index + 1
        switch byte {
        case UInt8(ascii: "\""): bytes.writeStaticString("\\\"")
        case UInt8(ascii: "\\"): bytes.writeStaticString("\\\\")
        case 0x08: bytes.writeStaticString("\\b")
        case 0x0C: bytes.writeStaticString("\\f")
        case 0x0A: bytes.writeStaticString("\\n")
        case 0x0D: bytes.writeStaticString("\\r")
        case 0x09: bytes.writeStaticString("\\t")
        default:
          let hex = Array("0123456789abcdef".utf8)
          bytes.writeStaticString("\\u00")
          bytes.writeInteger(hex[Int(byte >> 4)])
          bytes.writeInteger(hex[Int(byte & 0xF)])
        }
      }
      bytes.writeBytes(UnsafeBufferPointer(rebasing: utf8[run...]))
    }
    bytes.writeInteger(UInt8(ascii: "\""))
  }

  /// The JSON of segment `index`'s words.
  func words(of index: Int) -> String {
    let range = wordRanges[index]
    return bytes.getString(at: range.lowerBound, length: range.count) ?? "[]"
  }

  /// Where a segment's `words` array is in its JSON.
  static func words(in json: [UInt8]) -> Range<Int>? {
    WireJSON.range(ofMember: "words", in: json)
  }
}

/// A meeting whose JSON is not an object with its segments (never, as `WireJSON` writes it).
struct MeetingJSONUnexpected: Error {}

/// A meeting as the API reads it: its tag (`ETag`), and its stored JSON.
struct StoredMeeting {
  /// The meeting's clock and the version of its last write (`clock.version`): a write that
  /// leaves the clock as it was (a per-segment merge) still changes it.
  var tag: String
  var deleted: Bool
  /// Nil when the asker has it already (its tag was among theirs), or when it was never
  /// stored (`meetingJSON` makes it from the rows then).
  var json: ByteBuffer?
}

extension TeamStore {
  /// A meeting's tag, and its JSON unless its tag is one of `known` (nil when there is no such
  /// meeting).
  func storedMeeting(_ id: UUID, unless known: [String] = []) async throws -> StoredMeeting? {
    let rows = try await run(
      """
      SELECT clock || '.' || version, deleted,
        CASE WHEN clock || '.' || version = ANY(\(known)) OR deleted THEN NULL ELSE json END,
        json IS NULL
      FROM meeting WHERE id = \(id)
      """, logger: logger)
    for (tag, deleted, json, missing) in try rows.decode(
      (String, Bool, ByteBuffer?, Bool).self)
    {
      var meeting = StoredMeeting(tag: tag, deleted: deleted, json: json)
      if missing && !deleted && !known.contains(tag) {
        meeting.json = try await meetingJSONFromRows(id)
      }
      return meeting
    }
    return nil
  }

  /// A meeting's stored JSON (nil when it was never stored).
  func storedJSON(_ id: UUID) async throws -> ByteBuffer? {
    let rows = try await run("SELECT json FROM meeting WHERE id = \(id)", logger: logger)
    return try rows.all(ByteBuffer?.self).first ?? nil
  }

  /// Stores the JSON of every meeting saved before it was stored with them, `batch` at a time;
  /// returns how many. A meeting pushed again meanwhile (its clock changed, or its JSON is
  /// there) is left as the push wrote it.
  @discardableResult
  func fillMeetingJSON(batch: Int = 50) async throws -> Int {
    var filled = 0
    while true {
      let rows = try await run(
        "SELECT id, clock FROM meeting WHERE json IS NULL ORDER BY id LIMIT \(batch)",
        logger: logger)
      let missing = try rows.decode((UUID, String).self)
      if missing.isEmpty { return filled }
      var stored = 0
      for (id, clock) in missing {
        guard let json = try await meetingJSONFromRows(id) else { continue }
        let updated = try await run(
          """
          UPDATE meeting SET json = \(json)
          WHERE id = \(id) AND clock = \(clock) AND json IS NULL RETURNING 1
          """, logger: logger)
        stored += updated.count
      }
      filled += stored
      // Rows that changed under the fill are read again, until a batch stores nothing (a
      // meeting that could not be stored is made from its rows when read).
      if stored == 0 { return filled }
    }
  }
}
