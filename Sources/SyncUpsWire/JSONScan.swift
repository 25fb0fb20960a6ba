/// A place in JSON bytes, read up to `end`: the steps every reader of JSON bytes here takes (the
/// server's push readers, `WireJSON.range(ofMember:in:)`).
public protocol JSONCursor {
  var bytes: UnsafeRawBufferPointer { get }
  var index: Int { get set }
  var end: Int { get }
}

extension JSONCursor {
  public mutating func skipSpace() {
    while index < end {
      switch bytes[index] {
      case 0x20, 0x09, 0x0A, 0x0D: index += 1
      default: return
      }
    }
  }

  /// Steps over `byte` (after any space) when it is next.
  public mutating func take(_ byte: UInt8) -> Bool {
    skipSpace()
    guard index < end, bytes[index] == byte else { return false }
    index += 1
    return true
  }
}

/// A walk over JSON that follows strings and brackets only (`JSONDecoder` checks the rest).
public struct JSONScan: JSONCursor {
  public let bytes: UnsafeRawBufferPointer
  public var index: Int
  /// Where the scan stops, as if the bytes ended there.
  public let end: Int

  public init(bytes: UnsafeRawBufferPointer, index: Int, end: Int) {
    (self.bytes, self.index, self.end) = (bytes, index, end)
  }

  /// A string's contents, between its quotes (escapes left as they are).
  public mutating func string() -> Range<Int>? {
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
  public mutating func value() -> Range<Int>? {
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
  public mutating func array() -> (array: Range<Int>, elements: [Range<Int>])? {
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
