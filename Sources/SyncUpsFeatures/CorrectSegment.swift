import Architecture
import Foundation
import SyncUpsWire

/// Correcting one segment of a past meeting: its speaker (one of the sync-up's attendees) and
/// its text. The rules live here, once: `syncups correct` and the interactive meeting screen
/// both send these actions. A saved correction is written by `SyncUpsDatabase.correctSegment`
/// (what the recogniser gave is kept beside it); a corrected speaker then teaches that
/// attendee's voice profile from the segment's audio.
public struct CorrectSegment: Reducer {
  public struct State: Equatable, Sendable {
    public let syncUp: SyncUp
    public let meetingID: Meeting.ID
    /// The meeting's audio (relative to the data directory), where a voice is learned from.
    public let audioFile: String?
    /// The segment's number: 1 = the meeting's first.
    public let number: Int
    /// The segment as saved.
    public var segment: Meeting.Segment
    /// The speaker and text being written.
    public var speaker: String
    public var text: String
    public var isSaving = false
    /// Why the correction cannot be saved, in one line.
    public var problem: String?
    /// What the saved correction taught the speaker's voice (nil: nothing was to learn).
    public var voice: VoiceOutcome?
    /// Why the sync-up's words were not learned again from the saved correction, in one line
    /// (the correction is saved).
    public var notice: String?

    public init(syncUp: SyncUp, meeting: Meeting, number: Int, segment: Meeting.Segment) {
      self.syncUp = syncUp
      self.meetingID = meeting.id
      self.audioFile = meeting.audioFile
      self.number = number
      self.segment = segment
      self.speaker = segment.speaker
      self.text = segment.text
    }
  }

  /// What a corrected speaker taught their voice profile.
  public enum VoiceOutcome: Equatable, Sendable {
    case taught(name: String, VoiceSummary)
    /// The segment holds too little speech to learn from.
    case tooLittleSpeech(name: String)
    /// The meeting's audio was not kept.
    case noAudio(name: String)
    case failed(name: String, String)
  }

  public enum Action: Equatable, Sendable {
    case delegate(Delegate)
    case failed(String)
    /// The correction is saved; the sync-up's words could not be learned again from it.
    case learningFailed(String)
    case saveTapped
    case saved(Meeting.Segment)
    case speakerChanged(String)
    /// The next (or previous) attendee, in the sync-up's order.
    case speakerStepped(by: Int)
    case textChanged(String)
    case undoTapped
    case voiceTaught(VoiceOutcome)

    public enum Delegate: Equatable, Sendable {
      /// Saved (and any voice taught): the screen may close.
      case finished
    }
  }

  /// The most characters a corrected segment holds.
  public static let longestText = SegmentChange.longestText

  @Dependency(\.corrections) var corrections
  @Dependency(\.teamLearning) var teamLearning

  public init() {}

  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .delegate:
      return .none

    case .failed(let problem):
      state.isSaving = false
      state.problem = problem
      return .none

    case .learningFailed(let notice):
      state.notice = notice
      return .none

    case .saveTapped:
      return save(&state)

    case .saved(let segment):
      state.isSaving = false
      state.segment = segment
      state.speaker = segment.speaker
      state.text = segment.text
      return .none

    case .speakerChanged(let speaker):
      state.speaker = speaker
      state.problem = nil
      return .none

    case .speakerStepped(let offset):
      let names = state.syncUp.attendees.map(\.name)
      guard !names.isEmpty else { return .none }
      let current = names.firstIndex { $0.lowercased() == state.speaker.lowercased() } ?? -1
      let next = current < 0 ? (offset > 0 ? 0 : names.count - 1) : current + offset
      state.speaker = names[(next % names.count + names.count) % names.count]
      state.problem = nil
      return .none

    case .textChanged(let text):
      state.text = text
      state.problem = nil
      return .none

    case .undoTapped:
      guard !state.isSaving else { return .none }
      state.problem = nil
      state.isSaving = true
      return .run {
        [
          corrections, teamLearning, meetingID = state.meetingID, number = state.number,
          syncUpID = state.syncUp.id
        ] send in
        await send(.saved(try await corrections.restore(meetingID, number)))
        await Self.learnWords(syncUpID, teamLearning, send)
        await send(.delegate(.finished))
      } catch: { error, send in
        await send(.failed("\(error)"))
      }

    case .voiceTaught(let outcome):
      state.voice = outcome
      return .none
    }
  }

  /// Checks the change and saves it; the voice is then taught and the words learned again.
  private func save(_ state: inout State) -> Effect<Action> {
    guard !state.isSaving else { return .none }
    let change: SegmentChange
    do {
      change = try state.change()
    } catch {
      state.problem = error.description
      return .none
    }
    state.problem = nil
    state.isSaving = true
    let lesson = state.lesson(for: change)
    return .run {
      [
        corrections, teamLearning, meetingID = state.meetingID, number = state.number,
        syncUpID = state.syncUp.id
      ] send in
      await send(.saved(try await corrections.correct(meetingID, number, change)))
      if let lesson {
        await send(.voiceTaught(await Self.teach(lesson, corrections)))
      }
      await Self.learnWords(syncUpID, teamLearning, send)
      await send(.delegate(.finished))
    } catch: { error, send in
      await send(.failed("\(error)"))
    }
  }

  /// The sync-up's words learn from the saved transcript, whichever front end corrected it.
  private static func learnWords(
    _ syncUpID: SyncUp.ID, _ teamLearning: TeamLearning, _ send: Send<Action>
  ) async {
    if let problem = await teamLearning.relearnWords(syncUpID) {
      await send(.learningFailed(problem))
    }
  }

  /// Teaches the voice; what came of it.
  private static func teach(
    _ lesson: (name: String, lesson: VoiceLesson?), _ corrections: CorrectionsClient
  ) async -> VoiceOutcome {
    guard let voice = lesson.lesson else { return .noAudio(name: lesson.name) }
    do {
      guard let summary = try await corrections.teachVoice(voice) else {
        return .tooLittleSpeech(name: lesson.name)
      }
      return .taught(name: lesson.name, summary)
    } catch {
      return .failed(name: lesson.name, "\(error)")
    }
  }
}

// The cases reached by key path (see `Scope`): scoped, presented, stacked or received in tests.
extension CorrectSegment.Action {
  public var delegate: Delegate? {
    get { if case .delegate(let value) = self { value } else { nil } }
    set { if let newValue { self = .delegate(newValue) } }
  }

  public var failed: String? {
    get { if case .failed(let value) = self { value } else { nil } }
    set { if let newValue { self = .failed(newValue) } }
  }

  public var learningFailed: String? {
    get { if case .learningFailed(let value) = self { value } else { nil } }
    set { if let newValue { self = .learningFailed(newValue) } }
  }

  public var saved: Meeting.Segment? {
    get { if case .saved(let value) = self { value } else { nil } }
    set { if let newValue { self = .saved(newValue) } }
  }

  public var voiceTaught: CorrectSegment.VoiceOutcome? {
    get { if case .voiceTaught(let value) = self { value } else { nil } }
    set { if let newValue { self = .voiceTaught(newValue) } }
  }
}

extension CorrectSegment.Action.Delegate {
  public var finished: Void? {
    get { if case .finished = self { () } else { nil } }
    set { if newValue != nil { self = .finished } }
  }
}

/// Why a correction cannot be saved.
typealias CorrectionRule = CorrectionRefused

extension CorrectSegment.State {
  /// The correction being written, by the rules (`SegmentCorrection.checked`, the same as the
  /// team server's meeting page).
  func change() throws(CorrectionRule) -> SegmentChange {
    try SegmentChange.checked(
      speaker: speaker, text: text, current: (segment.speaker, segment.text),
      attendees: syncUp.attendees.map(\.name), syncUpTitle: syncUp.title)
  }

  /// The voice a changed speaker teaches (the lesson nil: the meeting has no audio); nil when
  /// the speaker stays.
  func lesson(for change: SegmentChange) -> (name: String, lesson: VoiceLesson?)? {
    guard let name = change.speaker,
      let attendee = syncUp.attendees.first(where: { $0.name == name })
    else { return nil }
    return (
      name,
      audioFile.map {
        VoiceLesson(
          attendeeID: attendee.id, syncUpID: syncUp.id, audioFile: $0, start: segment.start,
          end: segment.end)
      }
    )
  }
}
