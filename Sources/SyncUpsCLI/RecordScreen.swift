import Foundation
import MeetingRecorder
import SyncUpsFeatures

/// What the live recording screen shows for a `RecordMeeting` state (with its microphone level):
/// a pure function of the state, so it is tested without a terminal.
public struct RecordScreen {
  public var state: RecordMeeting.State
  /// The input level, 0…1 (RMS of the last chunk, scaled); the state's unless given.
  public var level: Double
  /// Seconds since the microphone last heard anything; the state's unless given.
  public var silentFor: Double?
  public var width: Int
  public var height: Int

  public init(
    state: RecordMeeting.State, level: Double? = nil, silentFor: Double? = nil, width: Int = 80,
    height: Int = 24
  ) {
    self.state = state
    self.level = level ?? state.level?.loudness ?? 0
    self.silentFor = silentFor ?? state.level?.silentFor
    self.width = max(width, 1)
    self.height = max(height, 1)
  }

  /// Silence longer than this gets a warning.
  public static let silenceWarning: Double = 10

  public var lines: [String] {
    let syncUp = state.syncUp
    let recording = state.isRecording ? "● REC" : "not recording"
    var lines = [
      Text.header(syncUp.title.visible, right: recording, theme: syncUp.theme, width: width),
      " \(Format.clock(Double(state.secondsElapsed))) elapsed"
        + "   \(Format.clock(max(0, state.durationRemaining.seconds))) remaining",
      " " + progressBar(width: width - 2),
      " " + ANSI.bold + speakerLine + ANSI.reset,
      " " + meterLine,
    ]
    if let notice = state.notice {
      lines.append(ANSI.yellow + " ⚠ " + notice.visible + ANSI.reset)
    }
    if let alert = state.alert {
      lines += AlertView.lines(alert, width: width)
    } else {
      lines += ["", Text.hint("n next speaker · e end meeting · q end and save", width: width)]
    }
    lines.append(" " + String(repeating: "─", count: max(width - 2, 0)))
    let transcript = transcriptLines
    lines += transcript.suffix(max(0, height - lines.count))
    return Text.frame(lines, columns: width, rows: height)
  }

  public var speakerLine: String {
    let attendees = state.syncUp.attendees
    let index = min(state.speakerIndex, max(attendees.count - 1, 0))
    let name = attendees.isEmpty ? "nobody" : attendees[index].name.visible
    return "Speaker \(index + 1) of \(attendees.count): \(name)"
  }

  var meterLine: String {
    guard state.isRecording else {
      return ANSI.dim + "Microphone off: the meeting is timed but not transcribed" + ANSI.reset
    }
    if let silentFor, silentFor >= Self.silenceWarning {
      return ANSI.yellow
        + "⚠ The microphone has been silent for \(Int(silentFor)) s: "
        + "is it muted or the wrong source?"
        + ANSI.reset
    }
    let cells = max(min(30, width - 6), 0)
    let filled = Int((min(max(level, 0), 1) * Double(cells)).rounded())
    return "Mic " + String(repeating: "█", count: filled)
      + String(repeating: "░", count: cells - filled)
  }

  var transcriptLines: [String] {
    var lines: [String] = []
    for segment in state.segments {
      lines += Text.wrap(
        "[\(Format.clock(segment.start))] \(segment.label): \(segment.oneLine)", width: width)
    }
    if !state.partial.isEmpty {
      lines += Text.wrap("… \(state.partial.oneLine)", width: width).map {
        ANSI.dim + $0 + ANSI.reset
      }
    }
    return lines
  }

  func progressBar(width: Int) -> String {
    let width = max(width, 0)
    let total = max(state.syncUp.duration.seconds, 1)
    let filled = Int((Double(state.secondsElapsed) / total * Double(width)).rounded())
    let clamped = min(max(filled, 0), width)
    return String(repeating: "█", count: clamped) + String(repeating: "░", count: width - clamped)
  }

  /// What a key does on the recording screen, the same in `syncups record` and in the app:
  /// with an alert shown, the alert's rule (`AlertView`); otherwise `n` next speaker, `e` end
  /// meeting, `q` end and save.
  public static func action(for key: Key, in state: RecordMeeting.State) -> RecordMeeting.Action? {
    if let alert = state.alert {
      return AlertView.action(for: key, in: alert).map { .alert($0) }
    }
    switch key {
    case .character("n"): return .nextButtonTapped
    case .character("e"): return .endMeetingButtonTapped
    case .character("q"): return .endAndSaveRequested
    default: return nil
    }
  }
}
