import Foundation

/// The small text encodings every transcript output shares: subtitle files and JSON strings.
public enum TranscriptText {
  /// The two subtitle formats, each with its own rules for cue text.
  public enum SubtitleFormat: Sendable {
    /// SubRip: numbered cues, times `hh:mm:ss,mmm`.
    case srt
    /// WebVTT: a `WEBVTT` header, times `hh:mm:ss.mmm`.
    case vtt
  }

  /// One cue: times in seconds and its text.
  public struct Cue: Sendable, Equatable {
    public var start: Double
    public var end: Double
    public var text: String

    public init(start: Double, end: Double, text: String) {
      self.start = start
      self.end = end
      self.text = text
    }
  }

  /// A whole subtitle file: one cue per element, each ending after it starts, its text made
  /// safe for the format by `cueText`.
  public static func subtitles(_ cues: [Cue], format: SubtitleFormat) -> String {
    let separator: Character = format == .srt ? "," : "."
    var out = format == .vtt ? "WEBVTT\n\n" : ""
    for (index, cue) in cues.enumerated() {
      if format == .srt { out += "\(index + 1)\n" }
      let end = max(cue.end, cue.start + 0.001)
      out +=
        subtitleTime(cue.start, separator: separator) + " --> "
        + subtitleTime(end, separator: separator) + "\n"
      out += cueText(cue.text, format: format) + "\n\n"
    }
    return out
  }

  /// Cue text that can neither end its cue nor be read as a timing line or as markup:
  /// - on one line (a blank line ends a cue; line breaks become spaces);
  /// - WebVTT: `&`, `<` and `>` as `&amp;`, `&lt;` and `&gt;`, the escapes WebVTT defines (so
  ///   no `-->` is left either; a player shows the text as it was);
  /// - SRT has no escapes, and players read a line holding `-->` as a cue's times: `-->` is
  ///   written as the arrow `→`.
  public static func cueText(_ text: String, format: SubtitleFormat) -> String {
    let line = text.split(whereSeparator: \.isNewline).joined(separator: " ")
    switch format {
    case .srt:
      return line.replacingOccurrences(of: "-->", with: "→")
    case .vtt:
      return line.replacingOccurrences(of: "&", with: "&amp;")
        .replacingOccurrences(of: "<", with: "&lt;")
        .replacingOccurrences(of: ">", with: "&gt;")
    }
  }

  /// `hh:mm:ss,mmm` (SRT, separator ",") or `hh:mm:ss.mmm` (WebVTT, separator ".").
  public static func subtitleTime(_ seconds: Double, separator: Character) -> String {
    let milliseconds = Int(saturating: (max(0, seconds) * 1_000).rounded())
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
