import AudioCore
import Foundation
import SyncUpsFeatures

/// Turns what the user typed into model values, with errors that say what would be accepted.
public enum Parse {
  /// A `--limit` value: at least 1.
  public static func limit(_ value: Int) throws(CLIError) -> Int {
    guard value > 0 else { throw CLIError("--limit must be at least 1") }
    return value
  }

  /// `5m`, `90s`, `1m30s`, `1h`, `300` (plain seconds); within `SyncUp.durationRange`.
  public static func duration(_ text: String) throws(CLIError) -> Duration {
    let input = text.trimmingCharacters(in: .whitespaces).lowercased()
    let invalid = CLIError(
      "invalid duration '\(text)': use minutes and seconds like 5m, 90s or 1m30s, "
        + "or plain seconds like 300"
    )
    guard !input.isEmpty else { throw invalid }
    var seconds = 0
    if input.allSatisfy(\.isNumber) {
      guard let value = Int(input) else { throw invalid }
      seconds = value
    } else {
      // Units in decreasing order, each at most once: [Nh][Nm][Ns].
      var remaining = Substring(input)
      var lastUnit = Int.max
      while !remaining.isEmpty {
        let digits = remaining.prefix(while: \.isNumber)
        guard !digits.isEmpty, let value = Int(digits) else { throw invalid }
        remaining = remaining.dropFirst(digits.count)
        guard let unit = remaining.first else { throw invalid }
        let scale: Int
        switch unit {
        case "h": scale = 3600
        case "m": scale = 60
        case "s": scale = 1
        default: throw invalid
        }
        guard scale < lastUnit else { throw invalid }
        lastUnit = scale
        remaining = remaining.dropFirst()
        let (product, overflow) = value.multipliedReportingOverflow(by: scale)
        let (sum, sumOverflow) = seconds.addingReportingOverflow(product)
        guard !overflow, !sumOverflow else {
          throw CLIError("invalid duration '\(text)': \(SyncUpProblem.durationOutOfRange)")
        }
        seconds = sum
      }
    }
    guard SyncUp.durationRange.contains(.seconds(seconds)) else {
      throw CLIError("invalid duration '\(text)': \(SyncUpProblem.durationOutOfRange)")
    }
    return .seconds(seconds)
  }

  /// A theme by name, ignoring case.
  public static func theme(_ text: String) throws(CLIError) -> Theme {
    let name = text.trimmingCharacters(in: .whitespaces).lowercased()
    guard let theme = Theme(rawValue: name) else {
      throw CLIError(
        "unknown theme '\(text)'; choose one of: "
          + Theme.allCases.map(\.rawValue).joined(separator: ", ")
      )
    }
    return theme
  }

  /// `--since`: a day, `2026-11-20` (from its midnight, local time), or a span back from `now`:
  /// `7d` (days) or `2w` (weeks).
  public static func since(_ text: String, now: Date = Date()) throws(CLIError) -> Date {
    let input = text.trimmingCharacters(in: .whitespaces).lowercased()
    let invalid = CLIError(
      "invalid date '\(text.visible)' for --since: use a day as YYYY-MM-DD (like 2026-11-20), "
        + "or days or weeks back like 7d or 2w"
    )
    if let unit = input.last, unit == "d" || unit == "w",
      let count = Int(input.dropLast()), count >= 0, count <= 36_500
    {
      return now.addingTimeInterval(-Double(count * (unit == "w" ? 7 : 1)) * 86_400)
    }
    let parts = input.split(separator: "-", omittingEmptySubsequences: false)
    guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
      parts.allSatisfy({ $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
      let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2])
    else { throw invalid }
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = .current
    let components = DateComponents(year: year, month: month, day: day)
    // The calendar would roll 2026-02-30 over into March: only real days are accepted.
    guard components.isValidDate(in: calendar), let date = calendar.date(from: components) else {
      throw invalid
    }
    return date
  }
}

/// How durations and times are shown.
public enum Format {
  /// `5m`, `1m30s`, `45s`, `1h2m`: the form `add` accepts. A part of a second (a share of a
  /// short meeting) shows to a tenth, never as 0: `0.3s`, `1m2.5s`, `<0.1s`.
  public static func duration(_ duration: Duration) -> String {
    let tenths = Int(saturating: (max(0, duration.seconds) * 10).rounded())
    if tenths == 0, duration.seconds > 0 { return "<0.1s" }
    let total = tenths / 10
    let h = total / 3600
    let m = total / 60 % 60
    let s = total % 60
    var text = ""
    if h > 0 { text += "\(h)h" }
    if m > 0 { text += "\(m)m" }
    if tenths % 10 != 0 {
      text += "\(s).\(tenths % 10)s"
    } else if s > 0 || text.isEmpty {
      text += "\(s)s"
    }
    return text
  }

  /// `1 attendee`, `3 attendees`, `0 meetings`: a count with its noun, singular only for one.
  public static func count(_ number: Int, _ noun: String) -> String {
    "\(number) \(noun)" + (number == 1 ? "" : "s")
  }

  /// `mm:ss`, or `h:mm:ss` from an hour on: a position in a meeting.
  public static func clock(_ seconds: Double) -> String {
    let total = Int(saturating: max(0, seconds).rounded(.down))
    let h = total / 3600
    let m = total / 60 % 60
    let s = total % 60
    return h > 0
      ? "\(h):" + pad(m) + ":" + pad(s)
      : pad(m) + ":" + pad(s)
  }

  /// A meeting's date as people read it, in the local time zone: `2026-11-21 14:05`.
  public static func date(_ date: Date) -> String {
    formatters.withLock { $0.readable.string(from: date) }
  }

  /// ISO 8601 in UTC, as `sync-ups.json` stores it: `2026-11-21T14:05:00Z`.
  public static func isoDate(_ date: Date) -> String {
    formatters.withLock { $0.iso.string(from: date) }
  }

  /// Made once: a formatter costs about 50 µs to make (ICU), which a list of 250 meetings
  /// paid 250 times (`make bench-store`). Formatters are not thread-safe: used under a lock.
  private static let formatters = LockedFormatters()

  static func pad(_ value: Int, width: Int = 2) -> String {
    let text = String(value)
    return String(repeating: "0", count: max(0, width - text.count)) + text
  }
}

private final class LockedFormatters: @unchecked Sendable {
  struct Formatters {
    let readable: DateFormatter
    let iso = ISO8601DateFormatter()
  }

  private let lock = NSLock()
  private lazy var formatters: Formatters = {
    let readable = DateFormatter()
    readable.locale = Locale(identifier: "en_US_POSIX")
    readable.timeZone = .current
    readable.dateFormat = "yyyy-MM-dd HH:mm"
    return Formatters(readable: readable)
  }()

  func withLock<T>(_ body: (Formatters) -> T) -> T {
    lock.withLock { body(formatters) }
  }
}
