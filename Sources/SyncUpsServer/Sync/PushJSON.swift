import Foundation
import SyncUpsWire

/// Decodes a push a meeting at a time, and each meeting a segment at a time.
///
/// `JSONDecoder` first indexes every value of its input, at several times the input's size, and
/// only then builds the documents: a 30 MB push peaked 254 MB above idle (`make bench-memory`).
/// Here a scan that only follows strings and brackets finds the top-level `"meetings": [...]`
/// and each element's bytes; each meeting is decoded on its own, the rest of the push with
/// `"meetings": []`, and likewise each of a meeting's segments. Anything the scan does not expect
/// (not an object, a key written with escapes or twice) is decoded whole, as before; every byte
/// is still read by `JSONDecoder`, which finds any mistake.
enum PushJSON {
  /// The bytes of `range`, where they are: they outlive the decoding, which copies what it
  /// keeps.
  private static func data(_ bytes: UnsafeRawBufferPointer, _ range: Range<Int>) -> Data {
    Data(
      bytesNoCopy: UnsafeMutableRawPointer(mutating: bytes.baseAddress! + range.lowerBound),
      count: range.count, deallocator: .none)
  }

  /// The bytes of `range` with `array` (inside it) written `[]`.
  private static func emptied(
    _ bytes: UnsafeRawBufferPointer, _ array: Range<Int>, of range: Range<Int>
  ) -> Data {
    Data(bytes[range.lowerBound..<array.lowerBound]) + Data("[]".utf8)
      + Data(bytes[array.upperBound..<range.upperBound])
  }

  /// A meeting's JSON alone (as the server stores it), decoded as a push's meetings are.
  static func meeting(_ json: Data, with decoder: JSONDecoder) throws -> MeetingDocument {
    try json.withUnsafeBytes { bytes in
      guard bytes.count > 0 else { return try decoder.decode(MeetingDocument.self, from: json) }
      return try meeting(bytes, 0..<bytes.count, with: decoder)
    }
  }

  /// A meeting, its segments decoded one at a time too (by `SegmentJSON` when they are in its
  /// plain shape): a meeting of many hours is tens of megabytes.
  private static func meeting(
    _ bytes: UnsafeRawBufferPointer, _ range: Range<Int>, with decoder: JSONDecoder
  ) throws -> MeetingDocument {
    guard let segments = array("segments", in: bytes, range) else {
      return try decoder.decode(MeetingDocument.self, from: data(bytes, range))
    }
    var meeting = try decoder.decode(
      MeetingDocument.self, from: emptied(bytes, segments.array, of: range))
    meeting.segments.reserveCapacity(segments.elements.count)
    for (index, element) in segments.elements.enumerated() {
      if let segment = SegmentJSON.segment(in: bytes, element) {
        meeting.segments.append(segment)
        continue
      }
      do {
        meeting.segments.append(
          try decoder.decode(MeetingDocument.Segment.self, from: data(bytes, element)))
      } catch let error as DecodingError {
        throw error.placed(at: [Key("segments"), Key(index)])
      }
    }
    return meeting
  }

  static func decode(_ bytes: UnsafeRawBufferPointer, with decoder: JSONDecoder) throws -> Push {
    let whole = 0..<bytes.count
    guard bytes.count > 0, let meetings = array("meetings", in: bytes, whole) else {
      return try decoder.decode(Push.self, from: data(bytes, whole))
    }
    var push = try decoder.decode(Push.self, from: emptied(bytes, meetings.array, of: whole))
    push.meetings.reserveCapacity(meetings.elements.count)
    for (index, element) in meetings.elements.enumerated() {
      do {
        push.meetings.append(try meeting(bytes, element, with: decoder))
      } catch let error as DecodingError {
        throw error.placed(at: [Key("meetings"), Key(index)])
      }
    }
    return push
  }

  /// Where the array under `key` of the object in `range` is, and each of its elements; nil
  /// when the JSON is not shaped as expected.
  static func array(_ key: String, in bytes: UnsafeRawBufferPointer, _ range: Range<Int>) -> (
    array: Range<Int>, elements: [Range<Int>]
  )? {
    var scan = Scan(bytes: bytes, index: range.lowerBound, end: range.upperBound)
    guard scan.take(UInt8(ascii: "{")) else { return nil }
    var found: (array: Range<Int>, elements: [Range<Int>])?
    if scan.take(UInt8(ascii: "}")) { return nil }
    repeat {
      guard let name = scan.string(), scan.take(UInt8(ascii: ":")) else { return nil }
      if bytes[name].elementsEqual(key.utf8) {
        guard found == nil, let array = scan.array() else { return nil }
        found = array
      } else {
        guard scan.value() != nil else { return nil }
      }
    } while scan.take(UInt8(ascii: ","))
    guard scan.take(UInt8(ascii: "}")) else { return nil }
    scan.skipSpace()
    return scan.index == range.upperBound ? found : nil
  }

  /// A walk over JSON that follows strings and brackets only (`JSONDecoder` checks the rest).
  struct Scan: JSONCursor {
    let bytes: UnsafeRawBufferPointer
    var index: Int
    /// Where the scan stops, as if the bytes ended there.
    let end: Int

    /// A string's contents, between its quotes (escapes left as they are).
    mutating func string() -> Range<Int>? {
      skipSpace()
      guard index < end, bytes[index] == UInt8(ascii: "\"") else { return nil }
      let start = index + 1
      index = start
      while index < end {
        switch bytes[index] {
        case UInt8(ascii: "\\"): index += 2
        case UInt8(ascii: "\""):
          index += 1
          return start..<(index - 1)
        default: index += 1
        }
      }
      return nil
    }

    /// Any value: a string, an object or array to its closing bracket, or a literal (a number,
    /// `true`...) to the next comma, bracket or space.
    mutating func value() -> Range<Int>? {
      skipSpace()
      let start = index
      var depth = 0
      while index < end {
        switch bytes[index] {
        case UInt8(ascii: "\""):
          guard string() != nil else { return nil }
          if depth == 0 { return start..<index }
        case UInt8(ascii: "{"), UInt8(ascii: "["):
          depth += 1
          index += 1
        case UInt8(ascii: "}"), UInt8(ascii: "]"):
          if depth == 0 { return start < index ? start..<index : nil }
          depth -= 1
          index += 1
          if depth == 0 { return start..<index }
        case UInt8(ascii: ","), 0x20, 0x09, 0x0A, 0x0D:
          if depth == 0 { return start < index ? start..<index : nil }
          index += 1
        default:
          index += 1
        }
      }
      return depth == 0 && start < index ? start..<index : nil
    }

    /// An array: its whole range and each element's.
    mutating func array() -> (array: Range<Int>, elements: [Range<Int>])? {
      skipSpace()
      let start = index
      guard take(UInt8(ascii: "[")) else { return nil }
      var elements: [Range<Int>] = []
      if !take(UInt8(ascii: "]")) {
        repeat {
          guard let element = value() else { return nil }
          elements.append(element)
        } while take(UInt8(ascii: ","))
        guard take(UInt8(ascii: "]")) else { return nil }
      }
      return (start..<index, elements)
    }
  }

  /// A key of a decoding error's path.
  struct Key: CodingKey {
    var stringValue: String
    var intValue: Int?
    init(_ string: String) { (stringValue, intValue) = (string, nil) }
    init(_ index: Int) { (stringValue, intValue) = ("Index \(index)", index) }
    init?(stringValue: String) { self.init(stringValue) }
    init?(intValue: Int) { self.init(intValue) }
  }
}

/// A place in JSON bytes, read up to `end`: the steps both of the push's readers take.
protocol JSONCursor {
  var bytes: UnsafeRawBufferPointer { get }
  var index: Int { get set }
  var end: Int { get }
}

extension JSONCursor {
  mutating func skipSpace() {
    while index < end {
      switch bytes[index] {
      case 0x20, 0x09, 0x0A, 0x0D: index += 1
      default: return
      }
    }
  }

  /// Steps over `byte` (after any space) when it is next.
  mutating func take(_ byte: UInt8) -> Bool {
    skipSpace()
    guard index < end, bytes[index] == byte else { return false }
    index += 1
    return true
  }
}
