import Foundation

/// HTML that is safe by construction: its markup can only be written as string literals in the
/// code (`StaticString`, which nothing at run time can make), and every value put into it is
/// text, escaped on the way in. There is no way to add a runtime `String` unescaped.
///
///     var page: Markup = "<h1 class=\"titled\">\(title)</h1>\n"
///     page += "<span data-start=\"\(seconds: word.start)\">\(word.text)</span>"
///
/// In an interpolation a `String` (or `Substring`) is text, an `Int` its digits, another
/// `Markup` is added as it is, and `seconds:`, `clock:`, `length:` and `time:` write numbers
/// and dates. Values go inside elements or inside quoted attribute values, never in a tag's
/// name or an unquoted attribute: the literal around them decides where they land.
struct Markup: Equatable, Sendable, ExpressibleByStringInterpolation, CustomStringConvertible {
  /// UTF-8, as the response sends it.
  private(set) var bytes: [UInt8] = []

  typealias StringInterpolation = Writer

  init() {}

  init(stringLiteral literal: StaticString) {
    append(literal)
  }

  init(stringInterpolation: Writer) {
    self = stringInterpolation.markup
  }

  /// The page as a `String`, as `Response.html` takes it.
  var description: String { String(decoding: bytes, as: UTF8.self) }

  var isEmpty: Bool { bytes.isEmpty }

  mutating func reserveCapacity(_ count: Int) {
    bytes.reserveCapacity(count)
  }

  static func += (markup: inout Markup, other: Markup) {
    markup.bytes += other.bytes
  }

  /// Markup from the code (a literal).
  mutating func append(_ literal: StaticString) {
    literal.withUTF8Buffer { bytes.append(contentsOf: $0) }
  }

  /// Text: `& < > " '` as entities, so it reads as itself in an element or a quoted attribute.
  mutating func text(_ text: some StringProtocol) {
    if text.utf8.withContiguousStorageIfAvailable({ escape($0) }) == nil {
      var copy = String(text)
      copy.withUTF8 { escape($0) }
    }
  }

  /// Copies runs of plain bytes whole (most words have nothing to escape); UTF-8 never has
  /// these ASCII bytes inside a longer character.
  private mutating func escape(_ utf8: UnsafeBufferPointer<UInt8>) {
    var plain = 0
    for index in utf8.indices {
      let entity: StaticString
      switch utf8[index] {
      case UInt8(ascii: "&"): entity = "&amp;"
      case UInt8(ascii: "<"): entity = "&lt;"
      case UInt8(ascii: ">"): entity = "&gt;"
      case UInt8(ascii: "\""): entity = "&quot;"
      case UInt8(ascii: "'"): entity = "&#39;"
      default: continue
      }
      bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[plain..<index]))
      append(entity)
      plain = index + 1
    }
    bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[plain...]))
  }

  /// A whole number's digits (never anything to escape).
  mutating func number(_ value: Int) {
    if value < 0 { bytes.append(UInt8(ascii: "-")) }
    var rest = value.magnitude
    var unit: UInt = 1
    while unit <= rest / 10 { unit *= 10 }
    repeat {
      bytes.append(UInt8(ascii: "0") + UInt8(truncatingIfNeeded: rest / unit))
      rest %= unit
      unit /= 10
    } while unit > 0
  }

  /// A number of two digits at least (`07`).
  mutating func twoDigits(_ value: Int) {
    if (0..<10).contains(value) { bytes.append(UInt8(ascii: "0")) }
    number(value)
  }

  /// Where values go into a literal: the literal's pieces are markup, the values text.
  struct Writer: StringInterpolationProtocol {
    fileprivate var markup = Markup()

    init(literalCapacity: Int, interpolationCount: Int) {
      markup.reserveCapacity(literalCapacity + interpolationCount * 16)
    }

    mutating func appendLiteral(_ literal: StaticString) {
      markup.append(literal)
    }

    mutating func appendInterpolation(_ text: some StringProtocol) {
      markup.text(text)
    }

    mutating func appendInterpolation(_ value: Int) {
      markup.number(value)
    }

    mutating func appendInterpolation(_ other: Markup) {
      markup += other
    }

    mutating func appendInterpolation(seconds value: Double) {
      markup.seconds(value)
    }

    mutating func appendInterpolation(clock value: Double) {
      markup.clock(value)
    }

    mutating func appendInterpolation(length value: Double) {
      markup.length(value)
    }

    mutating func appendInterpolation(time date: Date) {
      markup.time(date)
    }
  }
}

extension Markup {
  /// Seconds with two decimals (`12.34`), as `data-start`, `data-end` and `?t=` take them:
  /// integer arithmetic, as a page writes two of these for each of thousands of words.
  mutating func seconds(_ value: Double) {
    let hundredths = HTML.hundredths(value)
    number(hundredths / 100)
    bytes.append(UInt8(ascii: "."))
    twoDigits(hundredths % 100)
  }

  /// `m:ss`, or `h:mm:ss` from an hour.
  mutating func clock(_ value: Double) {
    text(HTML.clock(value))
  }

  /// A length in words: `45 s`, `12 min`, `1 h 5 min`.
  mutating func length(_ value: Double) {
    text(HTML.length(value))
  }

  /// `<time datetime="2026-11-21T14:01:00Z">2026-11-21 14:01 UTC</time>`.
  mutating func time(_ date: Date) {
    let parts = HTML.utc.dateComponents(
      [.year, .month, .day, .hour, .minute, .second], from: date)
    func day(_ markup: inout Markup) {
      markup.number(parts.year ?? 0)
      markup.append("-")
      markup.twoDigits(parts.month ?? 0)
      markup.append("-")
      markup.twoDigits(parts.day ?? 0)
    }
    func time(_ markup: inout Markup) {
      markup.twoDigits(parts.hour ?? 0)
      markup.append(":")
      markup.twoDigits(parts.minute ?? 0)
    }
    append("<time datetime=\"")
    day(&self)
    append("T")
    time(&self)
    append(":")
    twoDigits(parts.second ?? 0)
    append("Z\">")
    day(&self)
    append(" ")
    time(&self)
    append(" UTC</time>")
  }
}
