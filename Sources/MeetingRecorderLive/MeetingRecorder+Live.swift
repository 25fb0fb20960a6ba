import AudioCaptureClient
import AudioCaptureClientLive
import AudioFilesClient
import AudioFilesClientLive
import ConcurrencyExtras
import Dependencies
import Foundation
import MeetingRecorder
import TranscriptionClient
import TranscriptionClientLive

extension MeetingRecorder: DependencyKey {
  public static let liveValue = MeetingRecorder.live()

  /// Records with the audio capture, audio files and transcription clients in force where
  /// `record` is called (the live ones in the app, others in tests), and the continuous clock
  /// for a real-time file and the second pass's bound.
  public static func live() -> MeetingRecorder {
    let stops = StopRequests()
    return MeetingRecorder(
      record: { request in
        @Dependency(\.audioCapture) var audioCapture
        @Dependency(\.audioFiles) var audioFiles
        @Dependency(\.transcription) var transcription
        @Dependency(\.continuousClock) var clock
        let (events, continuation) = AsyncStream.makeStream(of: RecordingEvent.self)
        let recording = Recording(
          request: request, stop: stops.request(for: request.id), audioCapture: audioCapture,
          audioFiles: audioFiles, transcription: transcription, clock: clock,
          emit: { continuation.yield($0) }
        )
        let task = Task {
          await recording.run()
          stops.remove(request.id)
          continuation.finish()
        }
        continuation.onTermination = { _ in task.cancel() }
        return events
      },
      stop: { id in stops.stop(id) },
      sentences: { audioFile, vocabulary, teamModel in
        @Dependency(\.audioFiles) var audioFiles
        @Dependency(\.transcription) var transcription
        return try await transcription.transcribeSentences(
          try await audioFiles.read(audioFile),
          TranscriptionOptions(vocabulary: vocabulary, teamModel: teamModel?.path))
      },
      voice: { audioFile, from, to in
        @Dependency(\.transcription) var transcription
        return try await transcription.voiceFrames(audioFile, from, to)
      }
    )
  }

  /// How long the second pass may take after the input ended before the recording finishes
  /// without it (`.sentencesLate`): Ctrl-C ends any recording within about this.
  public static let catchUpBound: Duration = .seconds(1)
}

/// "Stop" for one recording: set once, from anywhere; what must happen then (stopping the
/// capture) runs once, at once.
final class StopRequest: Sendable {
  private struct State {
    var isStopped = false
    var handlers: [@Sendable () -> Void] = []
  }
  private let state = LockIsolated(State())

  var isStopped: Bool { state.value.isStopped }

  /// Runs `handler` when the recording is stopped (now, if it is already).
  func onStop(_ handler: @escaping @Sendable () -> Void) {
    let stopped = state.withValue {
      if !$0.isStopped { $0.handlers.append(handler) }
      return $0.isStopped
    }
    if stopped { handler() }
  }

  func stop() {
    let handlers = state.withValue { state in
      defer { state.handlers = [] }
      state.isStopped = true
      return state.handlers
    }
    for handler in handlers { handler() }
  }
}

/// The stop requests of the recordings running, by id; a stop that comes before its recording
/// starts is kept for it.
final class StopRequests: Sendable {
  private let requests = LockIsolated<[UUID: StopRequest]>([:])

  func request(for id: UUID) -> StopRequest {
    requests.withValue { requests in
      if let request = requests[id] { return request }
      let request = StopRequest()
      requests[id] = request
      return request
    }
  }

  func stop(_ id: UUID) { request(for: id).stop() }

  func remove(_ id: UUID) { requests.withValue { $0[id] = nil } }
}
