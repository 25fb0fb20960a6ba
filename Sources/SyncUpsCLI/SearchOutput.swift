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
