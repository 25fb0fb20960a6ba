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
    case .srt: TranscriptText.subtitles(Self.cues(transcript), format: .srt)
    case .vtt: TranscriptText.subtitles(Self.cues(transcript), format: .vtt)
    }
  }

  static func json(_ transcript: Transcript, file: String) -> String {
    let utterances = transcript.utterances.map { utterance in
      let words = utterance.words.map { word in
        #"{"word":\#(TranscriptText.jsonString(word.word)),"start":\#(number(word.start)),"end":\#(number(word.end)),"confidence":\#(number(word.confidence))}"#
      }
      return
        #"{"start":\#(number(utterance.start)),"end":\#(number(utterance.end)),"text":\#(TranscriptText.jsonString(utterance.text)),"words":[\#(words.joined(separator: ","))]}"#
    }
    return
      #"{"file":\#(TranscriptText.jsonString(file)),"duration":\#(number(transcript.duration)),"text":\#(TranscriptText.jsonString(transcript.text)),"utterances":[\#(utterances.joined(separator: ","))]}"#
  }

  /// SRT and WebVTT: one cue per utterance.
  static func cues(_ transcript: Transcript) -> [TranscriptText.Cue] {
    transcript.utterances.map { TranscriptText.Cue(start: $0.start, end: $0.end, text: $0.text) }
  }

  static func number(_ value: Double) -> String {
    guard value.isFinite else { return "0" }
    let rounded = (value * 10_000).rounded() / 10_000
    return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
  }
}
