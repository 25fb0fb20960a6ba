import Foundation
import SyncUpsFeatures

/// How a recording shows itself: a live screen on a terminal, plain lines otherwise.
@MainActor
protocol RecordOutput {
  var wantsKeys: Bool { get }
  func start(_ state: RecordMeeting.State)
  func update(_ state: RecordMeeting.State)
  func finish()
}

/// For scripts and CI: one line when the meeting starts (and one naming the sources when several
/// are mixed), on each change of speaker and for each
/// final utterance (shown once the recording store has it), written (unbuffered) as it happens.
@MainActor
final class LineOutput: RecordOutput {
  private var printedSegments = 0
  private var speakerIndex = -1
  /// How far the whole sentences are, while a file's recording waits for them (on a terminal).
  private let progress = ProgressBar.forStandardError()
  var wantsKeys: Bool { false }

  func start(_ state: RecordMeeting.State) {
    let syncUp = state.syncUp
    write(
      "Recording \(syncUp.label): \(Format.count(syncUp.attendees.count, "attendee")), "
        + "\(Format.clock(syncUp.duration.seconds)); Ctrl-C ends and saves the meeting."
    )
    // Several sources (a remote stand-up, `--call`'s picks): which, since no meter shows them.
    if case .mix(let sources, _) = state.input {
      write("Sources, mixed: " + sources.map(\.visible).joined(separator: ", "))
    }
  }

  func update(_ state: RecordMeeting.State) {
    if state.speakerIndex != speakerIndex {
      speakerIndex = state.speakerIndex
      let elapsed = Format.clock(Double(state.secondsElapsed))
      write("[\(elapsed)] " + RecordScreen(state: state).speakerLine)
    }
    while printedSegments < state.segments.count {
      let segment = state.segments[printedSegments]
      write("[\(Format.clock(segment.start))] \(segment.label): \(segment.oneLine)")
      printedSegments += 1
    }
    if case .catchingUp(let fraction) = state.secondPass {
      progress?.update(fraction, of: "of the whole sentences")
    } else {
      progress?.finish()
    }
  }

  func finish() { progress?.finish() }

  private func write(_ line: String) {
    // A stdout that cannot be written does not stop the recording: the line saying where the
    // meeting was saved fails too, and says so.
    try? Console.out(line + "\n")
  }
}

/// The live screen: redrawn on every change (the level meter's too) and a few times a second.
@MainActor
final class ScreenOutput: RecordOutput {
  private var session: Terminal.Session?

  var wantsKeys: Bool { true }

  func start(_ state: RecordMeeting.State) {
    session = Terminal.Session()
    update(state)
  }

  func update(_ state: RecordMeeting.State) {
    let size = Terminal.size
    let screen = RecordScreen(state: state, width: size.columns, height: size.rows)
    session?.draw(screen.lines)
  }

  func finish() {
    session?.restore()
    session = nil
  }
}
