import AudioCore
import ConcurrencyExtras
import Foundation
import MeetingRecorder
import SyncUpsFeatures

// What the recording suites share: a scripted recorder, a fixed moment, the meeting's id.

/// The meeting recorder as the test drives it: `record` gives the events the test sends, and
/// every request and stop is noted. It also stands in for what follows a save (the team's
/// words learned again, the background pass started), noted in `afterSave` in order.
final class ScriptedRecorder: Sendable {
  private let events: AsyncStream<RecordingEvent>
  private let feed: AsyncStream<RecordingEvent>.Continuation
  let requests = LockIsolated<[RecordingRequest]>([])
  let stops = LockIsolated(0)
  let afterSave = LockIsolated<[String]>([])

  init() {
    (events, feed) = AsyncStream.makeStream()
  }

  func send(_ event: RecordingEvent) { feed.yield(event) }

  /// The recording's last event: the stream ends after it.
  func end(_ event: RecordingEvent) {
    feed.yield(event)
    feed.finish()
  }

  func install(_ dependencies: inout DependencyValues) {
    dependencies.meetingRecorder.record = { request in
      self.requests.withValue { $0.append(request) }
      return self.events
    }
    dependencies.meetingRecorder.stop = { _ in self.stops.withValue { $0 += 1 } }
    dependencies.teamLearning.learnWords = { id in
      self.afterSave.withValue { $0.append("words \(id == SyncUp.mock.id ? "mock" : "\(id)")") }
    }
    dependencies.sentencePasses.startInBackground = {
      self.afterSave.withValue { $0.append("background") }
    }
  }
}

struct CaptureFailure: Error, CustomStringConvertible {
  var description: String { "PulseAudio is not running: connection refused." }
}

let now = Date(timeIntervalSince1970: 1_234_567_890)
let meetingID = Meeting.ID(UUID(0))

/// What `onTask` records about the meeting before anything else.
func started(audio: Bool = false, syncUp: SyncUp = .mock) -> MeetingRecording {
  MeetingRecording(
    meetingID: meetingID, syncUpID: syncUp.id, started: now,
    audioFile: audio ? DataDirectory.audioFile(of: meetingID) : nil
  )
}
