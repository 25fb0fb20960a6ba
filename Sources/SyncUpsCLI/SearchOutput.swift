import Foundation
import SyncUpsFeatures

/// How `syncups search` prints hits: one line each, or one JSON object a line.
public enum SearchOutput {
  /// `Morning Sync · 2026-11-21 14:01 · 00:04 · Ana: the [staging server] is down`: sync-up,
  /// meeting date (local), time in the meeting, speaker and the segment with each match in bold
  /// (`bold`, for a terminal) or between brackets.
  public static func line(_ hit: TranscriptSearchHit, bold: Bool) -> String {
    [
      hit.syncUpTitle.visible, Format.date(hit.date), Format.clock(hit.start),
      hit.speaker.visible + ": " + marked(hit.text, bold: bold),
    ].joined(separator: " · ") + "\n"
  }

  /// `{"syncUp", "meeting", "date", "speaker", "start", "end", "text"}` on one line; the text
  /// without marks.
  public static func json(_ hit: TranscriptSearchHit) -> String {
    JSON.object([
      ("syncUp", .string(hit.syncUpTitle)),
      ("meeting", .string(hit.meetingID.rawValue.lowercasedString)),
      ("date", .string(Format.isoDate(hit.date))),
      ("speaker", .string(hit.speaker)),
      ("start", .number(hit.start)),
      ("end", .number(hit.end)),
      ("text", .string(plain(hit.text))),
    ]).rendered + "\n"
  }

  /// The text shown safely (`visible`), its matches in bold or between `[` and `]`.
  public static func marked(_ text: String, bold: Bool) -> String {
    let (open, close) = TranscriptSearchHit.marks
    return text.visible
      .replacingOccurrences(of: open, with: bold ? ANSI.bold : "[")
      .replacingOccurrences(of: close, with: bold ? ANSI.reset : "]")
  }

  /// The text without its match marks.
  public static func plain(_ text: String) -> String {
    let (open, close) = TranscriptSearchHit.marks
    return text.replacingOccurrences(of: open, with: "").replacingOccurrences(of: close, with: "")
  }
}

extension Parse {
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
