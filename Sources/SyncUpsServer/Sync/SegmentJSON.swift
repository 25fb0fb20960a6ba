import SyncUpsWire

/// Reads a pushed segment as laptops write it, without `JSONDecoder`, whose cost for each
/// value (a word's three or four) was half of a push's time in the server. Only the plain shape
/// is read here: an object of `speaker`, `start`, `end`, `text` and `words` (each word an
/// object of `text`, `start`, `end` and perhaps `confidence`), strings without escapes, numbers
/// as JSON writes them. Anything else (an escape, `null`, a key it does not know or twice, a
/// correction's `original`, a mistake) gives nil, and `JSONDecoder` reads the segment as
/// before: so every segment reads exactly as `JSONDecoder` reads it, or is refused by it.
struct SegmentJSON: JSONCursor {
  let bytes: UnsafeRawBufferPointer
  var index: Int
  let end: Int

  /// The segment in `range` of `bytes`, or nil when it is not in the plain shape.
  static func segment(in bytes: UnsafeRawBufferPointer, _ range: Range<Int>)
    -> MeetingDocument.Segment?
  {
    var reader = SegmentJSON(bytes: bytes, index: range.lowerBound, end: range.upperBound)
    guard let segment = reader.segment() else { return nil }
    reader.skipSpace()
    return reader.index == reader.end ? segment : nil
  }

  mutating func segment() -> MeetingDocument.Segment? {
    var speaker: String?
    var text: String?
    var start: Double?
    var end: Double?
    var words: [MeetingDocument.Word]?
    var clock: HybridClock?
    var clockRead = false
    let done = object { key, reader in
      switch key {
      case "clock" where !clockRead:
        clockRead = true
        clock = reader.string().flatMap(HybridClock.init)
        return clock != nil
      case "speaker" where speaker == nil:
        speaker = reader.string()
        return speaker != nil
      case "text" where text == nil:
        text = reader.string()
        return text != nil
      case "start" where start == nil:
        start = reader.number()
        return start != nil
      case "end" where end == nil:
        end = reader.number()
        return end != nil
      case "words" where words == nil:
        words = reader.words()
        return words != nil
      default: return false
      }
    }
    guard done, let speaker, let text, let start, let end, let words else { return nil }
    return MeetingDocument.Segment(
      speaker: speaker, start: start, end: end, text: text, words: words, clock: clock)
  }

  mutating func words() -> [MeetingDocument.Word]? {
    guard take(UInt8(ascii: "[")) else { return nil }
    var words: [MeetingDocument.Word] = []
    if take(UInt8(ascii: "]")) { return words }
    repeat {
      guard let word = word() else { return nil }
      words.append(word)
    } while take(UInt8(ascii: ","))
    return take(UInt8(ascii: "]")) ? words : nil
  }

  mutating func word() -> MeetingDocument.Word? {
    var text: String?
    var start: Double?
    var end: Double?
    var confidence: Double?
    let done = object { key, reader in
      switch key {
      case "text" where text == nil:
        text = reader.string()
        return text != nil
      case "start" where start == nil:
        start = reader.number()
        return start != nil
      case "end" where end == nil:
        end = reader.number()
        return end != nil
      case "confidence" where confidence == nil:
        confidence = reader.number()
        return confidence != nil
      default: return false
      }
    }
    guard done, let text, let start, let end else { return nil }
    return MeetingDocument.Word(text: text, start: start, end: end, confidence: confidence)
  }

  /// An object: `member` reads each key's value (false: a key not read here, or twice, or a
  /// value it could not read).
  mutating func object(_ member: (String, inout SegmentJSON) -> Bool) -> Bool {
    guard take(UInt8(ascii: "{")) else { return false }
    if take(UInt8(ascii: "}")) { return true }
    repeat {
      guard let key = string(), take(UInt8(ascii: ":")) else { return false }
      guard member(key, &self) else { return false }
    } while take(UInt8(ascii: ","))
    return take(UInt8(ascii: "}"))
  }

  /// A string without escapes or control characters, in valid UTF-8.
  mutating func string() -> String? {
    skipSpace()
    guard index < end, bytes[index] == UInt8(ascii: "\"") else { return nil }
    let start = index + 1
    var at = start
    var high: UInt8 = 0
    while at < end {
      let byte = bytes[at]
      if byte == UInt8(ascii: "\"") { break }
      guard byte != UInt8(ascii: "\\"), byte >= 0x20 else { return nil }
      high |= byte
      at += 1
    }
    guard at < end else { return nil }
    index = at + 1
    let text = UnsafeRawBufferPointer(rebasing: bytes[start..<at])
    // ASCII is valid UTF-8 as it is: only other text is validated (the generic validation
    // was an eighth of a push's time in the server).
    if high < 0x80 { return String(decoding: text, as: UTF8.self) }
    return String(validating: text, as: UTF8.self)
  }

  /// A number as JSON writes it (`-`, digits without a leading zero, a fraction, an exponent),
  /// finite as a `Double`.
  mutating func number() -> Double? {
    skipSpace()
    let start = index
    func digits() -> Int {
      let first = index
      while index < end, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) {
        index += 1
      }
      return index - first
    }
    if index < end, bytes[index] == UInt8(ascii: "-") { index += 1 }
    let whole = index
    guard digits() > 0, bytes[whole] != UInt8(ascii: "0") || index == whole + 1 else {
      return nil
    }
    if index < end, bytes[index] == UInt8(ascii: ".") {
      index += 1
      guard digits() > 0 else { return nil }
    }
    if index < end, bytes[index] | 0x20 == UInt8(ascii: "e") {
      index += 1
      if index < end, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
        index += 1
      }
      guard digits() > 0 else { return nil }
    }
    let text = String(
      decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
    guard let value = Double(text), value.isFinite else { return nil }
    return value
  }
}
