import Foundation
import SyncUpsWire

#if canImport(Glibc)
  import Glibc
#endif

/// Reads a format-1 `sync-ups.json` (or an export) a piece at a time, so memory does not grow
/// with the file: each meeting is decoded on its own as it is read and handed to `meeting`,
/// then its sync-up (without meetings) to `syncUp`. A meeting comes before its sync-up (in the
/// file, a sync-up's title follows its meetings); it comes with the sync-up's id, which precedes
/// them in every file syncups writes (a file whose id follows the meetings keeps those
/// meetings' text until the id is read).
///
/// No single value it holds (a meeting, a title) may be larger than `largestValue`: a junk file
/// is refused before it fills the memory.
///
/// Errors are `DecodingError`s whose coding path is the place in the whole file
/// (`syncUps[0].meetings[3].date`), `SyncUpsFile.UnsupportedFormatVersion`, or `NotAFile`.
struct SyncUpsFileReader {
  /// A meeting, its sync-up's id, and where they are in the file (0-based indices).
  var meeting:
    (_ meeting: Meeting, _ syncUpID: SyncUp.ID, _ place: (syncUp: Int, meeting: Int))
      throws -> Void
  var syncUp: (_ syncUp: SyncUp, _ index: Int) throws -> Void

  /// The most bytes one value of the file may have (a meeting with its segments: a day-long
  /// meeting's are a few megabytes).
  static let largestValue = 16 << 20

  /// A device, a pipe, a folder: reading it could block or never end.
  struct NotAFile: Error, CustomStringConvertible {
    var description: String {
      "it is a device, a pipe or a folder, not a regular file: give the exported file"
    }
  }

  func read(_ url: URL) throws {
    var status = stat()
    if stat(url.path, &status) == 0, status.st_mode & S_IFMT != S_IFREG { throw NotAFile() }
    let file = try FileHandle(forReadingFrom: url)
    defer { try? file.close() }
    var input = JSONInput(file: file)
    var sawSyncUps = false
    var sawVersion = false
    try input.object(at: []) { key, input in
      switch key {
      case "formatVersion":
        sawVersion = true
        let version = try decode(Int.self, input.value(), at: [FileKey("formatVersion")])
        guard version <= SyncUpsFile.currentVersion else {
          throw SyncUpsFile.UnsupportedFormatVersion(version: version)
        }
      case "syncUps":
        sawSyncUps = true
        try input.array(at: [FileKey("syncUps")]) { index, input in
          try readSyncUp(&input, index: index)
        }
      default:
        _ = try input.value()
      }
    }
    for (key, saw) in [("formatVersion", sawVersion), ("syncUps", sawSyncUps)] where !saw {
      throw DecodingError.keyNotFound(
        FileKey(key), .init(codingPath: [], debugDescription: "No value for \(key)"))
    }
    try input.skipSpace()
    guard try input.peek() == nil else { throw input.notJSON("more after the end") }
  }

  private func readSyncUp(_ input: inout JSONInput, index: Int) throws {
    let place = [FileKey("syncUps"), FileKey(index)]
    var fields: [UInt8] = [UInt8(ascii: "{")]
    var id: SyncUp.ID?
    var waiting: [(data: Data, index: Int)] = []
    var waitingBytes = 0
    try input.object(at: place) { key, input in
      if key == "meetings" {
        try input.array(at: place + [FileKey("meetings")]) { number, input in
          let data = try input.value()
          if let id {
            try handOver(data, number: number, syncUp: index, id: id)
          } else {
            waitingBytes += data.count
            guard waitingBytes <= Self.largestValue else {
              throw input.notJSON("the sync-up's meetings come before its id")
            }
            waiting.append((data, number))
          }
        }
        return
      }
      let value = try input.value()
      if fields.count > 1 { fields.append(UInt8(ascii: ",")) }
      fields += try JSONEncoder().encode(key)
      fields.append(UInt8(ascii: ":"))
      fields += value
      if key == "id" { id = try? JSONDecoder().decode(SyncUp.ID.self, from: value) }
    }
    fields.append(UInt8(ascii: "}"))
    let syncUp = try decode(SyncUp.self, Data(fields), at: place)
    for (data, number) in waiting {
      try handOver(data, number: number, syncUp: index, id: syncUp.id)
    }
    try self.syncUp(syncUp, index)
  }

  private func handOver(_ data: Data, number: Int, syncUp index: Int, id: SyncUp.ID) throws {
    let place = [FileKey("syncUps"), FileKey(index), FileKey("meetings"), FileKey(number)]
    try meeting(try decode(Meeting.self, data, at: place), id, (index, number))
  }

  /// Decodes one piece, its errors placed in the whole file.
  private func decode<T: Decodable>(_ type: T.Type, _ data: Data, at place: [FileKey]) throws -> T {
    do {
      return try JSONDecoder.syncUps.decode(type, from: data)
    } catch let error as DecodingError {
      throw error.placed(at: place)
    }
  }
}

/// A coding key for a place in the file.
struct FileKey: CodingKey {
  var stringValue: String
  var intValue: Int?
  init(_ string: String) { stringValue = string }
  init(_ index: Int) {
    stringValue = "Index \(index)"
    intValue = index
  }
  init?(stringValue: String) { self.stringValue = stringValue }
  init?(intValue: Int) { self.init(intValue) }
}

/// The bytes of a JSON text, read from a stream in blocks: the structure of objects and arrays
/// is followed here, each value the reader wants whole is returned as its own bytes.
private struct JSONInput {
  let file: FileHandle
  var buffer = Data()
  var start = 0
  /// Where in the text we are, for messages.
  var offset = 0

  init(file: FileHandle) { self.file = file }

  mutating func peek() throws -> UInt8? {
    if start == buffer.count {
      buffer = try file.read(upToCount: 1 << 16) ?? Data()
      start = 0
      if buffer.isEmpty { return nil }
    }
    return buffer[buffer.startIndex + start]
  }

  mutating func next() throws -> UInt8? {
    guard let byte = try peek() else { return nil }
    start += 1
    offset += 1
    return byte
  }

  mutating func skipSpace() throws {
    while let byte = try peek(), [0x20, 0x0A, 0x0D, 0x09].contains(byte) { _ = try next() }
  }

  func notJSON(_ what: String) -> DecodingError {
    .dataCorrupted(
      .init(
        codingPath: [], debugDescription: "\(what) at byte \(offset)",
        underlyingError: CocoaError(.propertyListReadCorrupt)))
  }

  mutating func expect(_ byte: UInt8) throws {
    try skipSpace()
    guard try next() == byte else {
      throw notJSON("expected '\(Character(Unicode.Scalar(byte)))'")
    }
  }

  /// `{ "key": value, ... }`: `body` reads each value.
  mutating func object(
    at place: [any CodingKey], _ body: (String, inout JSONInput) throws -> Void
  ) throws {
    try skipSpace()
    guard try peek() == UInt8(ascii: "{") else {
      // Something else that is JSON, or not JSON at all.
      guard let piece = try? value(),
        (try? JSONSerialization.jsonObject(with: piece, options: .fragmentsAllowed)) != nil
      else { throw notJSON("expected an object") }
      throw DecodingError.typeMismatch(
        [String: Any].self,
        .init(codingPath: place, debugDescription: "Expected an object"))
    }
    _ = try next()
    try skipSpace()
    if try peek() == UInt8(ascii: "}") {
      _ = try next()
      return
    }
    while true {
      try skipSpace()
      let keyBytes = try value()
      guard let key = try? JSONDecoder().decode(String.self, from: keyBytes) else {
        throw notJSON("expected a key")
      }
      try expect(UInt8(ascii: ":"))
      try body(key, &self)
      try skipSpace()
      switch try next() {
      case UInt8(ascii: ","): continue
      case UInt8(ascii: "}"): return
      default: throw notJSON("expected ',' or '}'")
      }
    }
  }

  /// `[ value, ... ]`: `body` reads each element.
  mutating func array(
    at place: [any CodingKey], _ body: (Int, inout JSONInput) throws -> Void
  ) throws {
    try skipSpace()
    guard try peek() == UInt8(ascii: "[") else {
      throw DecodingError.typeMismatch(
        [Any].self, .init(codingPath: place, debugDescription: "Expected an array"))
    }
    _ = try next()
    try skipSpace()
    if try peek() == UInt8(ascii: "]") {
      _ = try next()
      return
    }
    var index = 0
    while true {
      try body(index, &self)
      index += 1
      try skipSpace()
      switch try next() {
      case UInt8(ascii: ","): continue
      case UInt8(ascii: "]"): return
      default: throw notJSON("expected ',' or ']'")
      }
    }
  }

  /// The bytes of the next whole value (string, number, literal, object or array).
  mutating func value() throws -> Data {
    try skipSpace()
    var bytes: [UInt8] = []
    var depth = 0
    var inString = false
    var escaped = false
    while let byte = try peek() {
      guard bytes.count < SyncUpsFileReader.largestValue else {
        throw notJSON("a value larger than \(SyncUpsFileReader.largestValue >> 20) MB")
      }
      if inString {
        bytes.append(byte)
        _ = try next()
        if escaped {
          escaped = false
        } else if byte == UInt8(ascii: "\\") {
          escaped = true
        } else if byte == UInt8(ascii: "\"") {
          inString = false
          if depth == 0 { return Data(bytes) }
        }
        continue
      }
      switch byte {
      case UInt8(ascii: "\""):
        inString = true
      case UInt8(ascii: "{"), UInt8(ascii: "["):
        depth += 1
      case UInt8(ascii: "}"), UInt8(ascii: "]"):
        guard depth > 0 else {
          guard !bytes.isEmpty else { throw notJSON("expected a value") }
          return Data(bytes)
        }
        depth -= 1
        if depth == 0 {
          bytes.append(byte)
          _ = try next()
          return Data(bytes)
        }
      case UInt8(ascii: ","), 0x20, 0x0A, 0x0D, 0x09:
        if depth == 0 {
          guard !bytes.isEmpty else { throw notJSON("expected a value") }
          return Data(bytes)
        }
      default:
        break
      }
      bytes.append(byte)
      _ = try next()
    }
    guard depth == 0, !inString, !bytes.isEmpty else { throw notJSON("unexpected end of file") }
    return Data(bytes)
  }
}
