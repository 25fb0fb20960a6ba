import Foundation
import MeetingRecorder
import SyncUpsFeatures

/// What the live recording screen shows for a `RecordMeeting` state (with each source's level):
/// a pure function of the state, so it is tested without a terminal.
public struct RecordScreen {
  public var state: RecordMeeting.State
  /// The terminal's columns and rows, at least 1 each.
  public var width: Int, height: Int

  public init(state: RecordMeeting.State, width: Int = 80, height: Int = 24) {
    self.state = state
    (self.width, self.height) = (max(width, 1), max(height, 1))
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
    ]
    lines += meterLines.map { " " + $0 }
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

  /// The level meter: one bar for one source (a warning instead when it has been silent for
  /// 10 s), one named bar per source for several (each saying how long it has been silent).
  var meterLines: [String] {
    if case .catchingUp(let fraction) = state.secondPass {
      let percent = Int((min(max(fraction, 0), 1) * 100).rounded(.down))
      return [
        "Whole sentences " + bar(fraction, cells: max(min(30, width - 22), 0)) + " \(percent)%"
      ]
    }
    guard state.isRecording else {
      return [ANSI.dim + "Microphone off: the meeting is timed but not transcribed" + ANSI.reset]
    }
    let levels = state.levels
    guard levels.count > 1 else {
      if let silentFor = levels.first?.silentFor, silentFor >= Self.silenceWarning {
        return [
          ANSI.yellow + "⚠ The microphone has been silent for \(Int(silentFor)) s: "
            + "is it muted or the wrong source?" + ANSI.reset
        ]
      }
      return ["Mic " + bar(levels.first?.loudness ?? 0, cells: max(min(30, width - 6), 0))]
    }
    let nameWidth = min(levels.map { $0.source.visible.columns }.max() ?? 0, max(width / 3, 4))
    return levels.map { level in
      let silent =
        level.silentFor >= Self.silenceWarning
        ? ANSI.yellow + " silent for \(Int(level.silentFor)) s" + ANSI.reset : ""
      return Text.pad(level.source.visible, to: nameWidth) + " "
        + bar(level.loudness, cells: max(min(30, width - nameWidth - 22), 0)) + silent
    }
  }

  /// `cells` cells filled in proportion to `loudness` (0…1).
  private func bar(_ loudness: Double, cells: Int) -> String {
    let filled = Int((min(max(loudness, 0), 1) * Double(cells)).rounded())
    return String(repeating: "█", count: filled) + String(repeating: "░", count: cells - filled)
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
