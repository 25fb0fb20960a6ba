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
        #"{"word":\#(TranscriptText.jsonString(word.word)),"start":\#(number(word.start)),"end":\#(number(word.end)),"confidence":\#(number(word.confidence))}"#
      }
      return #"{"start":\#(number(utterance.start)),"end":\#(number(utterance.end)),"text":\#(TranscriptText.jsonString(utterance.text)),"words":[\#(words.joined(separator: ","))]}"#
    }
    return #"{"file":\#(TranscriptText.jsonString(file)),"duration":\#(number(transcript.duration)),"text":\#(TranscriptText.jsonString(transcript.text)),"utterances":[\#(utterances.joined(separator: ","))]}"#
  }

  /// SRT and WebVTT: one cue per utterance.
  static func subtitles(_ transcript: Transcript, header: String?, separator: Character, numbered: Bool) -> String {
    var lines: [String] = []
    if let header { lines += [header, ""] }
    for (index, utterance) in transcript.utterances.enumerated() {
      if numbered { lines.append(String(index + 1)) }
      let end = max(utterance.end, utterance.start + 0.001)
      lines.append("\(TranscriptText.subtitleTime(utterance.start, separator: separator)) --> \(TranscriptText.subtitleTime(end, separator: separator))")
      lines.append(utterance.text)
      lines.append("")
    }
    return lines.joined(separator: "\n") + (lines.isEmpty ? "" : "\n")
  }

  static func number(_ value: Double) -> String {
    guard value.isFinite else { return "0" }
    let rounded = (value * 10_000).rounded() / 10_000
    return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
  }

}
