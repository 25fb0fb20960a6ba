import AudioCore
import Foundation

/// How `syncups transcribe` writes a transcript.
public enum TranscriptFormat: String, CaseIterable, Sendable {
  case txt, json, srt, vtt

  /// The whole output for one file. `json` is one line; the others end with a newline.
  public func render(_ transcript: Transcript, file: String) -> String {
    switch self {
    case .txt: transcript.text + "\n"
    case .json: Self.json(transcript, file: file) + "\n"
    case .srt: Self.subtitles(transcript, header: nil, separator: ",", numbered: true)
    case .vtt: Self.subtitles(transcript, header: "WEBVTT", separator: ".", numbered: false)
    }
  }

  static func json(_ transcript: Transcript, file: String) -> String {
    let utterances = transcript.utterances.map { utterance in
      let words = utterance.words.map { word in
        #"{"word":\#(quote(word.word)),"start":\#(number(word.start)),"end":\#(number(word.end)),"confidence":\#(number(word.confidence))}"#
      }
      return #"{"start":\#(number(utterance.start)),"end":\#(number(utterance.end)),"text":\#(quote(utterance.text)),"words":[\#(words.joined(separator: ","))]}"#
    }
    return #"{"file":\#(quote(file)),"duration":\#(number(transcript.duration)),"text":\#(quote(transcript.text)),"utterances":[\#(utterances.joined(separator: ","))]}"#
  }

  /// SRT and WebVTT: one cue per utterance.
  static func subtitles(_ transcript: Transcript, header: String?, separator: String, numbered: Bool) -> String {
    var lines: [String] = []
    if let header { lines += [header, ""] }
    for (index, utterance) in transcript.utterances.enumerated() {
      if numbered { lines.append(String(index + 1)) }
      let end = max(utterance.end, utterance.start + 0.001)
      lines.append("\(timestamp(utterance.start, separator)) --> \(timestamp(end, separator))")
      lines.append(utterance.text)
      lines.append("")
    }
    return lines.joined(separator: "\n") + (lines.isEmpty ? "" : "\n")
  }

  /// hh:mm:ss,mmm (SRT) or hh:mm:ss.mmm (WebVTT).
  static func timestamp(_ seconds: Double, _ separator: String) -> String {
    let milliseconds = Int((max(0, seconds) * 1_000).rounded())
    let h = milliseconds / 3_600_000
    let m = milliseconds / 60_000 % 60
    let s = milliseconds / 1_000 % 60
    let ms = milliseconds % 1_000
    return String(format: "%02d:%02d:%02d%@%03d", h, m, s, separator, ms)
  }

  static func number(_ value: Double) -> String {
    guard value.isFinite else { return "0" }
    let rounded = (value * 10_000).rounded() / 10_000
    return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
  }

  static func quote(_ string: String) -> String {
    var out = "\""
    for scalar in string.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      case _ where scalar.value < 0x20: out += String(format: "\\u%04x", scalar.value)
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out + "\""
  }
}
