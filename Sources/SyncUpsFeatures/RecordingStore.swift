import Architecture
import ConcurrencyExtras
import Dependencies
import DependenciesMacros
import Foundation
import WorkerThreads

/// Where a meeting being recorded is kept durably, utterance by utterance, so that a recording
/// that dies (SIGKILL, power loss) loses nothing that was heard. `RecordMeeting`'s effects write
/// it; recovery reads what a dead recording left. Today's live value is a journal of JSON lines
/// (`JournalRecordingStore`); a database can implement the same client.
@DependencyClient
public struct RecordingStore: Sendable {
  /// Starts keeping a meeting: its id, sync-up, start date and audio file are durable from now on.
  public var begin: @Sendable (_ recording: MeetingRecording) async throws -> Void
  /// Adds one final utterance; durable when this returns.
  public var append:
    @Sendable (_ segment: Meeting.Segment, _ meetingID: Meeting.ID) async throws
      -> Void
  /// The meeting was saved normally: its durable traces go.
  public var finish: @Sendable (_ meetingID: Meeting.ID) async throws -> Void
  /// The meeting was discarded: its durable traces go.
  public var discard: @Sendable (_ meetingID: Meeting.ID) async throws -> Void
  /// What recordings that died left behind (never one that is still running).
  public var unfinished: @Sendable () async throws -> [UnfinishedRecording]
}

/// What is known of a meeting from the moment its recording starts.
public struct MeetingRecording: Codable, Equatable, Sendable {
  public var meetingID: Meeting.ID
  public var syncUpID: SyncUp.ID
  public var started: Date
  /// The meeting's audio, relative to the data directory, when it is kept.
  public var audioFile: String?

  public init(meetingID: Meeting.ID, syncUpID: SyncUp.ID, started: Date, audioFile: String?) {
    self.meetingID = meetingID
    self.syncUpID = syncUpID
    self.started = started
    self.audioFile = audioFile
  }
}

/// A recording that never finished, as the store kept it.
public struct UnfinishedRecording: Equatable, Sendable {
  public var recording: MeetingRecording
  public var segments: [Meeting.Segment]
  /// Where it is kept, for messages.
  public var location: String

  public init(recording: MeetingRecording, segments: [Meeting.Segment], location: String) {
    self.recording = recording
    self.segments = segments
    self.location = location
  }
}

extension RecordingStore: DependencyKey {
  public static var liveValue: RecordingStore {
    @Dependency(\.dataDirectory) var dataDirectory
    return .journal(in: dataDirectory.url.appendingPathComponent("journal", isDirectory: true))
  }

  /// Tests keep recordings in memory.
  public static var testValue: RecordingStore { .inMemory() }

  /// Keeps recordings in memory: what tests use, and what they inspect.
  public static func inMemory(
    _ recordings: LockIsolated<[Meeting.ID: UnfinishedRecording]> = LockIsolated([:])
  ) -> RecordingStore {
    RecordingStore(
      begin: { recording in
        recordings.withValue {
          $0[recording.meetingID] = UnfinishedRecording(
            recording: recording, segments: [], location: "memory"
          )
        }
      },
      append: { segment, id in recordings.withValue { $0[id]?.segments.append(segment) } },
      finish: { id in recordings.withValue { $0[id] = nil } },
      discard: { id in recordings.withValue { $0[id] = nil } },
      unfinished: {
        recordings.value.values.sorted { $0.recording.started < $1.recording.started }
      }
    )
  }
}

extension DependencyValues {
  public var recordingStore: RecordingStore {
    get { self[RecordingStore.self] }
    set { self[RecordingStore.self] = newValue }
  }
}

// MARK: Recovery

extension RecordingStore {
  /// Turns what dead recordings left into meetings of their sync-ups, built as a normal save
  /// builds them (`Meeting.recorded`), saves, and drops the traces. Returns one line per
  /// recording for the user.
  public func recoverUnfinishedMeetings(
    into syncUps: Shared<IdentifiedArrayOf<SyncUp>>
  ) async -> [String] {
    let unfinished: [UnfinishedRecording]
    do {
      unfinished = try await self.unfinished()
    } catch {
      return ["cannot look for unfinished meetings: \(error)"]
    }
    var report: [String] = []
    for item in unfinished {
      let recording = item.recording
      guard let syncUp = Shared(syncUps[id: recording.syncUpID]) else {
        report.append(
          "an unfinished meeting in \(item.location) belongs to a deleted sync-up; "
            + "it was left there"
        )
        continue
      }
      let meeting = Meeting.recorded(recording, segments: item.segments, length: nil)
      syncUp.withLock {
        guard $0.meetings[id: meeting.id] == nil else { return }
        $0.meetings.insert(meeting, at: 0)
      }
      do {
        try await WorkerThread.run(name: "syncups-save") { try syncUps.save() }
      } catch {
        report.append("cannot save the recovered meeting in \(item.location): \(error)")
        continue
      }
      try? await finish(recording.meetingID)
      let count = item.segments.count
      report.append(
        "recovered an unfinished meeting of '\(syncUp.wrappedValue.title)' "
          + "(\(syncUp.wrappedValue.id.rawValue.uuidString.lowercased().prefix(8))) started "
          + "\(recording.started.formatted(date: .abbreviated, time: .shortened)) "
          + "(\(count) \(count == 1 ? "utterance" : "utterances"))"
      )
    }
    return report
  }
}
