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
    var scan = JSONScan(bytes: bytes, index: range.lowerBound, end: range.upperBound)
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
