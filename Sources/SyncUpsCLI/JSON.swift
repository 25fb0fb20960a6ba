import AudioCore
import Foundation

/// A JSON value whose objects keep their keys in the order written, so outputs read (and
/// compare) the same every time.
public indirect enum JSON: Equatable, Sendable {
  case string(String)
  case number(Double)
  case bool(Bool)
  case null
  case array([JSON])
  case object([(String, JSON)])

  public static func == (lhs: JSON, rhs: JSON) -> Bool { lhs.rendered == rhs.rendered }

  /// One line, no spaces.
  public var rendered: String {
    switch self {
    case .string(let text): return TranscriptText.jsonString(text)
    case .number(let value): return Self.number(value)
    case .bool(let value): return value ? "true" : "false"
    case .null: return "null"
    case .array(let items): return "[" + items.map(\.rendered).joined(separator: ",") + "]"
    case .object(let fields):
      return "{"
        + fields.map { TranscriptText.jsonString($0.0) + ":" + $0.1.rendered }.joined(
          separator: ",") + "}"
    }
  }

  /// Whole numbers without a fraction; others with at most three decimals (milliseconds).
  static func number(_ value: Double) -> String {
    guard value.isFinite else { return "0" }
    let rounded = (value * 1000).rounded() / 1000
    if rounded == rounded.rounded(), abs(rounded) < 1e15 { return String(Int(saturating: rounded)) }
    return String(rounded)
  }

}
