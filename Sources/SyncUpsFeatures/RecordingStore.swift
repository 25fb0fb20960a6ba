import Architecture
import ConcurrencyExtras
import Dependencies
import Foundation
import VoiceProfiles
import WorkerThreads

/// Where a meeting being recorded is kept durably, utterance by utterance, so that a recording
/// that dies (SIGKILL, power loss) loses nothing that was heard. `RecordMeeting`'s effects write
/// it; recovery finishes what a dead recording left. The live value is the database: an
/// unfinished meeting row, one committed segment per utterance (`SyncUpsDatabase` recording).
public struct RecordingStore: Sendable {
  /// Starts keeping a meeting: its id, sync-up, start date and audio file are durable from now on.
  public var begin: @Sendable (_ recording: MeetingRecording) async throws -> Void = unimplemented(
    "RecordingStore.begin")
  /// Adds one final utterance; durable when this returns.
  public var append:
    @Sendable (_ segment: Meeting.Segment, _ meetingID: Meeting.ID) async throws
      -> Void = unimplemented("RecordingStore.append")
  /// The meeting was saved: the save through the sync-up's reference finished its row (the
  /// store's one named write for it, `SyncUpsDatabase.finishRecording`), and the recording now
  /// lets it go (its lock), so nobody takes it for a recording still running.
  public var release: @Sendable (_ meetingID: Meeting.ID) async -> Void = unimplemented(
    "RecordingStore.release")
  /// The meeting's second pass had not caught up: it is to run again from the kept audio
  /// (`SentencePass`) once the meeting is saved.
  public var deferSentencePass:
    @Sendable (_ meetingID: Meeting.ID, _ learning: LearningUse) async throws -> Void =
      unimplemented("RecordingStore.deferSentencePass")
  /// The meeting was discarded: its rows go.
  public var discard: @Sendable (_ meetingID: Meeting.ID) async throws -> Void = unimplemented(
    "RecordingStore.discard")
  /// Finishes, once each, the meetings whose recording died (never one that still runs), with
  /// what they committed; returns them.
  public var recoverUnfinished: @Sendable () async throws -> [UnfinishedMeeting] = unimplemented(
    "RecordingStore.recoverUnfinished")
  /// What is known of the voices of a sync-up's attendees (none unless given).
  public var voices: @Sendable (_ syncUpID: SyncUp.ID) async throws -> [Attendee.ID: VoiceProfile] =
    unimplemented("RecordingStore.voices", placeholder: [:])
  /// Keeps voices refined by a meeting (once it is saved); dropped unless given.
  public var learnVoices: @Sendable (_ profiles: [Attendee.ID: VoiceProfile]) async throws -> Void =
    unimplemented("RecordingStore.learnVoices", placeholder: ())
  /// Whether any attendee of the sync-up, or its team, has an acoustic adaptation in use (none
  /// unless given).
  public var hasAdaptedVoices: @Sendable (_ syncUpID: SyncUp.ID) async throws -> Bool = { _ in false
  }

  public init(
    begin: @escaping @Sendable (_ recording: MeetingRecording) async throws -> Void,
    append:
      @escaping @Sendable (_ segment: Meeting.Segment, _ meetingID: Meeting.ID) async throws -> Void,
    release: @escaping @Sendable (_ meetingID: Meeting.ID) async -> Void,
    deferSentencePass:
      @escaping @Sendable (_ meetingID: Meeting.ID, _ learning: LearningUse) async throws -> Void,
    discard: @escaping @Sendable (_ meetingID: Meeting.ID) async throws -> Void,
    recoverUnfinished: @escaping @Sendable () async throws -> [UnfinishedMeeting],
    voices: @escaping @Sendable (_ syncUpID: SyncUp.ID) async throws -> [Attendee.ID: VoiceProfile],
    learnVoices: @escaping @Sendable (_ profiles: [Attendee.ID: VoiceProfile]) async throws -> Void
  ) {
    self.begin = begin
    self.append = append
    self.release = release
    self.deferSentencePass = deferSentencePass
    self.discard = discard
    self.recoverUnfinished = recoverUnfinished
    self.voices = voices
    self.learnVoices = learnVoices
  }

  /// Every endpoint unimplemented: calling one reports an issue (and throws, or returns a
  /// placeholder). The test value.
  public init() {}
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

extension RecordingStore: DependencyKey {
  public static var liveValue: RecordingStore {
    @Dependency(\.syncUpsDatabase) var database
    return .database(database)
  }

  /// Tests keep recordings in memory.
  public static var testValue: RecordingStore { .inMemory() }

  /// The database's recording calls, each on a thread of its own (SQLite waits for the disk).
  public static func database(_ database: SyncUpsDatabase) -> RecordingStore {
    let worker = WorkerThread(name: "syncups-recording")
    var store = RecordingStore(
      begin: { recording in
        try await worker.run {
          let meeting = Meeting(
            id: recording.meetingID, date: recording.started, transcript: "",
            audioFile: recording.audioFile)
          try database.begin(meeting, syncUpID: recording.syncUpID)
        }
      },
      append: { segment, id in
        try await worker.run { _ = try database.append(segment, meetingID: id) }
      },
      release: { id in database.releaseRecording(id) },
      deferSentencePass: { id, learning in
        try await worker.run { try database.deferSentencePass(id, learning: learning.rawValue) }
      },
      discard: { id in try await worker.run { _ = try database.discard(id) } },
      recoverUnfinished: { try await worker.run { try database.recoverUnfinished() } },
      voices: { id in try await worker.run { try database.voiceProfiles(id) } },
      learnVoices: { profiles in try await worker.run { try database.learnVoices(profiles) } }
    )
    store.hasAdaptedVoices = { id in
      try await worker.run {
        try !database.speakerAdaptations(id).isEmpty
          || database.teamAdaptation(id)?.isUsed == true
      }
    }
    return store
  }

  /// Keeps recordings in memory: what feature tests use, and what they inspect. Recovery
  /// returns what is kept (as not running) and drops it.
  public static func inMemory(
    _ recordings: LockIsolated<[Meeting.ID: UnfinishedMeeting]> = LockIsolated([:]),
    voices: LockIsolated<[Attendee.ID: VoiceProfile]> = LockIsolated([:])
  ) -> RecordingStore {
    RecordingStore(
      begin: { recording in
        recordings.withValue {
          $0[recording.meetingID] = UnfinishedMeeting(
            syncUpID: recording.syncUpID, syncUpTitle: "", meetingID: recording.meetingID,
            date: recording.started, segmentCount: 0, audioFile: recording.audioFile,
            isActive: true)
        }
      },
      append: { _, id in recordings.withValue { $0[id]?.segmentCount += 1 } },
      // Memory has no sync-up to save into: the save's finish is the recording going.
      release: { id in recordings.withValue { $0[id] = nil } },
      deferSentencePass: { _, _ in },
      discard: { id in recordings.withValue { $0[id] = nil } },
      recoverUnfinished: {
        recordings.withValue { kept in
          defer { kept = [:] }
          return kept.values.sorted { $0.date < $1.date }
        }
      },
      voices: { _ in voices.value },
      learnVoices: { profiles in voices.withValue { $0.merge(profiles) { $1 } } }
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
  /// Finishes what dead recordings left and returns one line per meeting for the user (or one
  /// line saying why it could not look).
  public func recover() async -> [String] {
    let recovered: [UnfinishedMeeting]
    do {
      recovered = try await recoverUnfinished()
    } catch {
      return ["cannot finish the meetings of recordings that stopped: \(error)"]
    }
    return recovered.map { meeting in
      let count = meeting.segmentCount
      let which =
        "of '\(meeting.syncUpTitle)' (\(meeting.syncUpID.rawValue.lowercasedString.prefix(8))) "
        + "started \(meeting.date.formatted(date: .abbreviated, time: .shortened))"
      guard !meeting.isEmpty else {
        return "dropped a recording \(which): it stopped before anything was heard or kept"
      }
      return "recovered an unfinished meeting \(which) "
        + "(\(count) \(count == 1 ? "utterance" : "utterances"))"
    }
  }
}

extension Meeting {
  /// A recorded meeting, saved normally or recovered after a crash: its date is when the
  /// recording started; its length is how long it ran, at least until its last word.
  public static func recorded(
    _ recording: MeetingRecording, segments: [Segment], length: Double?
  ) -> Meeting {
    Meeting(
      id: recording.meetingID,
      date: recording.started,
      transcript: segments.map(\.text).joined(separator: " "),
      segments: segments,
      audioFile: recording.audioFile,
      length: max(length ?? 0, segments.map(\.end).max() ?? 0)
    )
  }
}
