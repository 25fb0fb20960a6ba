import Foundation

extension WireJSON {
  /// `value` as JSON, byte for byte what `encoder()` writes, written straight into one buffer.
  ///
  /// `JSONEncoder` first builds a tree of boxed values, then a dictionary per object, then writes
  /// the text; for a meeting's words that was most of the server's time per request (`make
  /// bench-server`). Here each value is written where it goes and an object's members are put in
  /// key order when it closes. A value written in a way this writer does not follow (a nested or
  /// super encoder, the same key twice, a date outside years 1583 to 9999) goes to `encoder()`.
  public static func bytes<T: Encodable>(of value: T) throws -> [UInt8] {
    let writer = JSONBytesWriter()
    do {
      try writer.write(value)
    } catch is JSONBytesWriter.NotFollowed {
      return Array(try encoder().encode(value))
    }
    guard !writer.notFollowed else { return Array(try encoder().encode(value)) }
    return writer.out
  }
}

/// The buffer every value of one document is written into.
final class JSONBytesWriter {
  struct NotFollowed: Error {}

  // One writer belongs to one call of `WireJSON.bytes`, on one thread: no exclusivity checks
  // (they were a sixth of the time).
  @exclusivity(unchecked) var out: [UInt8] = []
  /// The members of the objects being written, innermost last (see `JSONValueEncoder`).
  @exclusivity(unchecked) var members: [(key: String, range: Range<Int>)] = []
  /// Where an object's members are put in order before they are copied back.
  @exclusivity(unchecked) var scratch: [UInt8] = []
  /// Set by a container this writer cannot stream (see `WireJSON.bytes`).
  var notFollowed = false

  init() { out.reserveCapacity(4096) }

  private static let string = ObjectIdentifier(String.self)
  private static let double = ObjectIdentifier(Double.self)
  private static let float = ObjectIdentifier(Float.self)
  private static let bool = ObjectIdentifier(Bool.self)
  private static let date = ObjectIdentifier(Date.self)
  private static let data = ObjectIdentifier(Data.self)
  private static let url = ObjectIdentifier(URL.self)
  private static let decimal = ObjectIdentifier(Decimal.self)
  private static let integers: [ObjectIdentifier] = [
    ObjectIdentifier(Int.self), ObjectIdentifier(Int64.self), ObjectIdentifier(Int32.self),
    ObjectIdentifier(Int16.self), ObjectIdentifier(Int8.self), ObjectIdentifier(UInt.self),
    ObjectIdentifier(UInt64.self), ObjectIdentifier(UInt32.self), ObjectIdentifier(UInt16.self),
    ObjectIdentifier(UInt8.self),
  ]

  /// `value` where it goes: the types `JSONEncoder` writes itself (told apart by comparing
  /// types, not by casting, which took longer than writing), else through `encode(to:)`.
  func write<T: Encodable>(_ value: T) throws {
    let type = ObjectIdentifier(T.self)
    if type == Self.string {
      writeString(value as! String)
    } else if type == Self.double {
      try writeDouble(value as! Double)
    } else if type == Self.bool {
      writeASCII(value as! Bool ? "true" : "false")
    } else if Self.integers.contains(type) {
      writeASCII(String(describing: value))
    } else if type == Self.float {
      try writeFloat(value as! Float)
    } else if type == Self.date {
      try writeDate(value as! Date)
    } else if type == Self.data {
      writeString((value as! Data).base64EncodedString())
    } else if type == Self.url {
      writeString((value as! URL).absoluteString)
    } else if type == Self.decimal {
      throw NotFollowed()
    } else {
      let encoder = JSONValueEncoder(writer: self)
      try value.encode(to: encoder)
      try encoder.close()
    }
  }

  func writeASCII(_ text: String) {
    out.append(contentsOf: text.utf8)
  }

  func writeString(_ text: String) {
    out.append(UInt8(ascii: "\""))
    var text = text
    text.withUTF8 { bytes in
      // Runs of bytes that need no escape go in at once.
      var run = 0
      for (index, byte) in bytes.enumerated()
      where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
        out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[run..<index]))
        run = index + 1
        writeEscaped(byte)
      }
      out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[run...]))
    }
    out.append(UInt8(ascii: "\""))
  }

  private func writeEscaped(_ byte: UInt8) {
    switch byte {
    case UInt8(ascii: "\""): writeASCII("\\\"")
    case UInt8(ascii: "\\"): writeASCII("\\\\")
    case 0x08: writeASCII("\\b")
    case 0x0C: writeASCII("\\f")
    case 0x0A: writeASCII("\\n")
    case 0x0D: writeASCII("\\r")
    case 0x09: writeASCII("\\t")
    default:
      let hex = Array("0123456789abcdef".utf8)
      writeASCII("\\u00")
      out.append(hex[Int(byte >> 4)])
      out.append(hex[Int(byte & 0xF)])
    }
  }

  /// Swift's shortest form, without a trailing ".0", as `JSONEncoder` writes it.
  func writeDouble(_ number: Double) throws {
    guard number.isFinite else { throw NotFollowed() }
    let text = number.description
    writeASCII(text.hasSuffix(".0") ? String(text.dropLast(2)) : text)
  }

  func writeFloat(_ number: Float) throws {
    guard number.isFinite else { throw NotFollowed() }
    let text = number.description
    writeASCII(text.hasSuffix(".0") ? String(text.dropLast(2)) : text)
  }

  /// ISO 8601 in UTC, whole seconds (rounded down), as `.iso8601` writes it; before the
  /// Gregorian calendar (1583) Foundation counts Julian days, so those go to `encoder()`.
  func writeDate(_ date: Date) throws {
    var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
    var parts = tm()
    guard gmtime_r(&seconds, &parts) != nil, (1583...9999).contains(Int(parts.tm_year) + 1900)
    else { throw NotFollowed() }
    func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
    let year = String(Int(parts.tm_year) + 1900)
    writeString(
      String(repeating: "0", count: 4 - year.count) + year + "-" + two(parts.tm_mon + 1) + "-"
        + two(parts.tm_mday) + "T" + two(parts.tm_hour) + ":" + two(parts.tm_min) + ":"
        + two(parts.tm_sec) + "Z")
  }
}

/// The encoder of one value: it opens at most one container, written into the shared buffer.
final class JSONValueEncoder: Encoder {
  let writer: JSONBytesWriter
  var codingPath: [any CodingKey] = []
  var userInfo: [CodingUserInfoKey: Any] { [:] }

  private enum Opened { case nothing, object, array, single }
  @exclusivity(unchecked) private var opened = Opened.nothing
  /// Where the open object's `{` is, and where its members (each `"key":value`) begin on the
  /// writer's stack of members.
  @exclusivity(unchecked) private var objectStart = 0
  @exclusivity(unchecked) private var firstMember = 0
  @exclusivity(unchecked) private var count = 0
  @exclusivity(unchecked) private var reordered = false

  init(writer: JSONBytesWriter) { self.writer = writer }

  private func open(_ kind: Opened) -> Bool {
    guard opened == .nothing else {
      writer.notFollowed = true
      return false
    }
    opened = kind
    return true
  }

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    if open(.object) {
      objectStart = writer.out.count
      firstMember = writer.members.count
      writer.out.append(UInt8(ascii: "{"))
    }
    return KeyedEncodingContainer(JSONObjectContainer<Key>(encoder: self))
  }

  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    if open(.array) { writer.out.append(UInt8(ascii: "[")) }
    return JSONArrayContainer(encoder: self)
  }

  func singleValueContainer() -> any SingleValueEncodingContainer {
    _ = open(.single)
    return JSONSingleContainer(encoder: self)
  }

  /// Before a member of the object: a comma after the first.
  func beginMember(_ key: String) -> Int {
    if count > 0 { writer.out.append(UInt8(ascii: ",")) }
    count += 1
    let start = writer.out.count
    writer.writeString(key)
    writer.out.append(UInt8(ascii: ":"))
    return start
  }

  /// After a member: kept in key order among this object's members as they come (an object
  /// has a few), so closing it only copies when the order differs from the written one.
  func endMember(_ key: String, from start: Int) throws {
    var index = writer.members.count
    writer.members.append((key, start..<writer.out.count))
    while index > firstMember {
      let previous = writer.members[index - 1].key
      if previous == key { throw JSONBytesWriter.NotFollowed() }
      guard key.utf8.lexicographicallyPrecedes(previous.utf8) else { break }
      writer.members.swapAt(index - 1, index)
      reordered = true
      index -= 1
    }
  }

  /// Before an element of the array: a comma after the first.
  func beginElement() {
    if count > 0 { writer.out.append(UInt8(ascii: ",")) }
    count += 1
  }

  var elementCount: Int { count }

  /// Ends what `encode(to:)` opened: an object's members in the order of their keys' bytes.
  func close() throws {
    switch opened {
    case .nothing: writer.writeASCII("{}")
    case .single: break
    case .array: writer.out.append(UInt8(ascii: "]"))
    case .object:
      putMembersInOrder()
      writer.members.removeSubrange(firstMember...)
      writer.out.append(UInt8(ascii: "}"))
    }
  }

  private func putMembersInOrder() {
    guard reordered else { return }
    writer.scratch.removeAll(keepingCapacity: true)
    for index in firstMember..<writer.members.count {
      if index > firstMember { writer.scratch.append(UInt8(ascii: ",")) }
      writer.scratch.append(contentsOf: writer.out[writer.members[index].range])
    }
    writer.out.replaceSubrange(objectStart + 1..<writer.out.count, with: writer.scratch)
  }
}

struct JSONObjectContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
  let encoder: JSONValueEncoder
  var codingPath: [any CodingKey] { encoder.codingPath }

  private func member(_ key: Key, _ write: () throws -> Void) throws {
    let start = encoder.beginMember(key.stringValue)
    try write()
    try encoder.endMember(key.stringValue, from: start)
  }

  mutating func encodeNil(forKey key: Key) throws {
    try member(key) { encoder.writer.writeASCII("null") }
  }
  mutating func encode(_ value: Bool, forKey key: Key) throws {
    try member(key) { encoder.writer.writeASCII(value ? "true" : "false") }
  }
  mutating func encode(_ value: String, forKey key: Key) throws {
    try member(key) { encoder.writer.writeString(value) }
  }
  mutating func encode(_ value: Double, forKey key: Key) throws {
    try member(key) { try encoder.writer.writeDouble(value) }
  }
  mutating func encode(_ value: Float, forKey key: Key) throws {
    try member(key) { try encoder.writer.writeFloat(value) }
  }
  mutating func encode(_ value: Int, forKey key: Key) throws { try integer(value, key) }
  mutating func encode(_ value: Int8, forKey key: Key) throws { try integer(value, key) }
  mutating func encode(_ value: Int16, forKey key: Key) throws { try integer(value, key) }
  mutating func encode(_ value: Int32, forKey key: Key) throws { try integer(value, key) }
  mutating func encode(_ value: Int64, forKey key: Key) throws { try integer(value, key) }
  mutating func encode(_ value: UInt, forKey key: Key) throws { try integer(value, key) }
  mutating func encode(_ value: UInt8, forKey key: Key) throws { try integer(value, key) }
  mutating func encode(_ value: UInt16, forKey key: Key) throws { try integer(value, key) }
  mutating func encode(_ value: UInt32, forKey key: Key) throws { try integer(value, key) }
  mutating func encode(_ value: UInt64, forKey key: Key) throws { try integer(value, key) }
  mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws { try encode(value, key) }

  private func integer(_ value: some BinaryInteger, _ key: Key) throws {
    try member(key) { encoder.writer.writeASCII(String(value)) }
  }

  private func encode(_ value: some Encodable, _ key: Key) throws {
    try member(key) { try encoder.writer.write(value) }
  }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy keyType: NestedKey.Type, forKey key: Key
  ) -> KeyedEncodingContainer<NestedKey> {
    encoder.writer.notFollowed = true
    return JSONValueEncoder(writer: JSONBytesWriter()).container(keyedBy: keyType)
  }

  mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
    encoder.writer.notFollowed = true
    return JSONValueEncoder(writer: JSONBytesWriter()).unkeyedContainer()
  }

  mutating func superEncoder() -> any Encoder {
    encoder.writer.notFollowed = true
    return JSONValueEncoder(writer: JSONBytesWriter())
  }

  mutating func superEncoder(forKey key: Key) -> any Encoder { superEncoder() }
}

struct JSONArrayContainer: UnkeyedEncodingContainer {
  let encoder: JSONValueEncoder
  var codingPath: [any CodingKey] { encoder.codingPath }
  var count: Int { encoder.elementCount }

  mutating func encodeNil() throws {
    encoder.beginElement()
    encoder.writer.writeASCII("null")
  }

  mutating func encode<T: Encodable>(_ value: T) throws {
    encoder.beginElement()
    try encoder.writer.write(value)
  }

  mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
    -> KeyedEncodingContainer<NestedKey>
  {
    encoder.writer.notFollowed = true
    return JSONValueEncoder(writer: JSONBytesWriter()).container(keyedBy: keyType)
  }

  mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
    encoder.writer.notFollowed = true
    return JSONValueEncoder(writer: JSONBytesWriter()).unkeyedContainer()
  }

  mutating func superEncoder() -> any Encoder {
    encoder.writer.notFollowed = true
    return JSONValueEncoder(writer: JSONBytesWriter())
  }
}

struct JSONSingleContainer: SingleValueEncodingContainer {
  let encoder: JSONValueEncoder
  var codingPath: [any CodingKey] { encoder.codingPath }

  mutating func encodeNil() throws { encoder.writer.writeASCII("null") }
  mutating func encode<T: Encodable>(_ value: T) throws { try encoder.writer.write(value) }
}
