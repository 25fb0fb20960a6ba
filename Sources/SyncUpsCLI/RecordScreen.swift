import Foundation
import SyncUpsFeatures

/// What the live recording screen shows for a `RecordMeeting` state: a pure function of the
/// state and the microphone level, so it is tested without a terminal.
public struct RecordScreen {
  public var state: RecordMeeting.State
  /// The input level, 0…1 (RMS of the last chunk, scaled).
  public var level: Double
  /// Seconds since the microphone last heard anything; nil while not recording.
  public var silentFor: Double?
  public var width: Int
  public var height: Int

  public init(
    state: RecordMeeting.State, level: Double = 0, silentFor: Double? = nil, width: Int = 80,
    height: Int = 24
  ) {
    self.state = state
    self.level = level
    self.silentFor = silentFor
    self.width = max(width, 40)
    self.height = max(height, 12)
  }

  /// Silence longer than this gets a warning.
  public static let silenceWarning: Double = 10

  public var lines: [String] {
    let syncUp = state.syncUp
    let theme = ANSI.colors(foreground: syncUp.theme.accentColor, background: syncUp.theme.mainColor)
    let recording = state.isRecording ? "● REC" : "not recording"
    var lines = [
      theme + ANSI.bold + pad(" \(syncUp.title)", to: width - recording.count - 1) + recording + " "
        + ANSI.reset,
      " \(Format.clock(Double(state.secondsElapsed))) elapsed"
        + "   \(Format.clock(max(0, state.durationRemaining.seconds))) remaining",
      " " + progressBar(width: width - 2),
      " " + ANSI.bold + speakerLine + ANSI.reset,
      " " + meterLine,
      "",
    ]
    if let notice = state.notice {
      lines.insert(ANSI.yellow + " ⚠ " + notice + ANSI.reset, at: lines.count - 1)
    }
    if let alert = state.alert {
      lines += alertLines(alert)
    } else {
      lines.append(ANSI.dim + " n next speaker · e end meeting · q end and save" + ANSI.reset)
    }
    lines.append(" " + String(repeating: "─", count: width - 2))
    let transcript = transcriptLines
    lines += transcript.suffix(max(0, height - lines.count))
    return lines
  }

  public var speakerLine: String {
    let attendees = state.syncUp.attendees
    let index = min(state.speakerIndex, max(attendees.count - 1, 0))
    let name = attendees.isEmpty ? "nobody" : attendees[index].name
    return "Speaker \(index + 1) of \(attendees.count): \(name)"
  }

  var meterLine: String {
    guard state.isRecording else {
      return ANSI.dim + "Microphone off: the meeting is timed but not transcribed" + ANSI.reset
    }
    if let silentFor, silentFor >= Self.silenceWarning {
      return ANSI.yellow
        + "⚠ The microphone has been silent for \(Int(silentFor)) s: is it muted or the wrong source?"
        + ANSI.reset
    }
    let cells = 30
    let filled = Int((min(max(level, 0), 1) * Double(cells)).rounded())
    return "Mic " + String(repeating: "█", count: filled) + String(repeating: "░", count: cells - filled)
  }

  var transcriptLines: [String] {
    var lines: [String] = []
    for segment in state.segments {
      lines += wrap("[\(Format.clock(segment.start))] \(segment.speaker): \(segment.text)")
    }
    if !state.partial.isEmpty {
      lines += wrap("… \(state.partial)").map { ANSI.dim + $0 + ANSI.reset }
    }
    return lines
  }

  func alertLines(_ alert: AlertState<RecordMeeting.Action.Alert>) -> [String] {
    var lines = [ANSI.bold + " " + alert.title.string + ANSI.reset]
    if let message = alert.message { lines += wrap(message.string) }
    lines.append(
      " " + alert.buttons.map { "[\(Self.key(for: $0))] \($0.label.string)" }.joined(separator: "   ")
    )
    return lines
  }

  /// The key that picks a button: the first letter of its label.
  public static func key(for button: ButtonState<RecordMeeting.Action.Alert>) -> Character {
    Character(button.label.string.prefix(1).lowercased())
  }

  func progressBar(width: Int) -> String {
    let total = max(state.syncUp.duration.seconds, 1)
    let filled = Int((Double(state.secondsElapsed) / total * Double(width)).rounded())
    let clamped = min(max(filled, 0), width)
    return String(repeating: "█", count: clamped) + String(repeating: "░", count: width - clamped)
  }

  func wrap(_ text: String) -> [String] {
    var lines: [String] = []
    var line = ""
    for word in text.split(separator: " ") {
      if line.count + word.count + 1 > width - 2, !line.isEmpty {
        lines.append(" " + line)
        line = ""
      }
      line += line.isEmpty ? String(word) : " " + word
    }
    if !line.isEmpty { lines.append(" " + line) }
    return lines
  }

  func pad(_ text: String, to width: Int) -> String {
    text.count >= width ? String(text.prefix(width)) : text + String(repeating: " ", count: width - text.count)
  }
}
