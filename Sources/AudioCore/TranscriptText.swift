import Foundation

/// The small text encodings every transcript output shares: subtitle cue times and JSON strings.
public enum TranscriptText {
  /// `hh:mm:ss,mmm` (SRT, separator ",") or `hh:mm:ss.mmm` (WebVTT, separator ".").
  public static func subtitleTime(_ seconds: Double, separator: Character) -> String {
    let milliseconds = Int((max(0, seconds) * 1_000).rounded())
    let h = milliseconds / 3_600_000
    let m = milliseconds / 60_000 % 60
    let s = milliseconds / 1_000 % 60
    let ms = milliseconds % 1_000
    return String(format: "%02d:%02d:%02d%@%03d", h, m, s, String(separator), ms)
  }

  /// `string` as a JSON string literal, quotes included.
  public static func jsonString(_ string: String) -> String {
    var out = "\""
    for scalar in string.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      // Controls (C0, DEL, C1) escaped: the output may be read on a terminal.
      case _ where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value):
        out += String(format: "\\u%04x", scalar.value)
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out + "\""
  }
}
