import Foundation

/// A hybrid logical clock reading: wall time in milliseconds, a counter for events within the
/// same millisecond, and the device that made it (so two devices never tie).
///
/// Encoded as one string whose order is the clock's order (`0001732406400000-0000-<device>`),
/// so the server compares stamps as text.
///
/// Valid by construction: whatever numbers it is made from, its text reads back as itself.
public struct HybridClock: Comparable, Hashable, Sendable, Codable, CustomStringConvertible {
  public private(set) var milliseconds: Int64
  public private(set) var counter: Int
  public var device: String

  /// A counter past its four digits carries into the next millisecond (which keeps the order:
  /// the result is later than every reading below it); milliseconds stay within their sixteen
  /// digits, and neither goes below zero.
  public init(milliseconds: Int64, counter: Int = 0, device: String) {
    let counter = max(0, counter)
    let carry = Int64(counter / (Self.largestCounter + 1))
    let (sum, overflow) = milliseconds.addingReportingOverflow(carry)
    self.milliseconds =
      overflow ? Self.largestMilliseconds : min(max(0, sum), Self.largestMilliseconds)
    self.counter =
      self.milliseconds == Self.largestMilliseconds && carry > 0
      ? Self.largestCounter : counter % (Self.largestCounter + 1)
    self.device = device
  }

  /// The largest counter its four digits hold: the next count moves to the next millisecond.
  public static let largestCounter = 9999
  /// The largest milliseconds its sixteen digits hold.
  public static let largestMilliseconds: Int64 = 9_999_999_999_999_999

  /// The next reading after this one on the same device (its counter plus one, carried into
  /// the next millisecond past `largestCounter`): what overrules a change at this clock.
  public var successor: HybridClock {
    HybridClock(milliseconds: milliseconds, counter: counter + 1, device: device)
  }

  /// The next reading on `device` after `self` (or now, if later): what a local change gets.
  public func tick(now: Date, device: String) -> HybridClock {
    let wall = Int64((now.timeIntervalSince1970 * 1000).rounded(.down))
    if wall > milliseconds { return HybridClock(milliseconds: wall, device: device) }
    return HybridClock(milliseconds: milliseconds, counter: counter + 1, device: device)
  }

  public var description: String {
    let wall = String(milliseconds)
    let count = String(counter)
    return String(repeating: "0", count: max(0, 16 - wall.count)) + wall + "-"
      + String(repeating: "0", count: max(0, 4 - count.count)) + count + "-" + device
  }

  public init?(_ text: String) {
    let parts = text.split(separator: "-", maxSplits: 2, omittingEmptySubsequences: false)
    guard parts.count == 3, parts[0].count == 16, parts[1].count == 4,
      let wall = Int64(parts[0]), let count = Int(parts[1]), wall >= 0, count >= 0,
      !parts[2].isEmpty, parts[2].count <= 64,
      parts[2].allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") })
    else { return nil }
    self.init(milliseconds: wall, counter: count, device: String(parts[2]))
  }

  public static func < (lhs: HybridClock, rhs: HybridClock) -> Bool {
    (lhs.milliseconds, lhs.counter, lhs.device) < (rhs.milliseconds, rhs.counter, rhs.device)
  }

  public init(from decoder: any Decoder) throws {
    let text = try decoder.singleValueContainer().decode(String.self)
    guard let clock = HybridClock(text) else {
      throw DecodingError.dataCorrupted(
        .init(
          codingPath: decoder.codingPath,
          debugDescription: "'\(text)' is not a clock reading (milliseconds-counter-device)"))
    }
    self = clock
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(description)
  }
}

/// A field's value with the clock of the change that set it: last writer wins, per field.
public struct Stamped<Value: Codable & Sendable & Equatable>: Codable, Sendable, Equatable {
  public var value: Value
  public var clock: HybridClock

  public init(_ value: Value, at clock: HybridClock) {
    self.value = value
    self.clock = clock
  }

  /// The later of the two writes.
  public func merged(with other: Stamped) -> Stamped { other.clock > clock ? other : self }
}
