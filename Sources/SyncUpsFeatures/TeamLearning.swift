import Dependencies
import Foundation
import WorkerThreads

/// What a sync-up learns once its transcripts change, whatever front end changed them (the
/// `record` command, the interactive app, a correction, a `forget`): its own language model, the
/// team's words, is learned again from its transcripts. The features run it (`RecordMeeting`'s
/// save, `CorrectSegment`, `Forgetting`), never a front end; the live value is the build in the
/// command-line layer (`TeamWordsBuild`, which links the language-model toolkit), installed as
/// this key's live value there.
public struct TeamLearning: Sendable {
  /// Learns the sync-up's words again from its transcripts: nothing when what it would learn
  /// from did not change; its model goes when nothing is left to learn from.
  public var learnWords: @Sendable (_ syncUpID: SyncUp.ID) async throws -> Void = unimplemented(
    "TeamLearning.learnWords")
  /// Learns again the words of these sync-ups only (those a sync's pull or a sentence pass
  /// changed: the cost is what changed, not the history), and removes the models of sync-ups
  /// that are gone.
  public var learnWordsOf: @Sendable (_ changed: Set<SyncUp.ID>) async throws -> Void =
    unimplemented("TeamLearning.learnWordsOf")

  public init(
    learnWords: @escaping @Sendable (_ syncUpID: SyncUp.ID) async throws -> Void,
    learnWordsOf: @escaping @Sendable (_ changed: Set<SyncUp.ID>) async throws -> Void
  ) {
    self.learnWords = learnWords
    self.learnWordsOf = learnWordsOf
  }

  /// Every endpoint unimplemented: calling one reports an issue (and throws). The test value.
  public init() {}

  /// Learns the sync-up's words again; nil when it worked, else one line saying what was not
  /// learned (the words are derived: the next change rebuilds them).
  public func relearnWords(_ syncUpID: SyncUp.ID) async -> String? {
    do {
      try await learnWords(syncUpID)
      return nil
    } catch {
      return "the team's words were not learned again (\(error)); the next change tries again"
    }
  }
}

extension TeamLearning: TestDependencyKey {
  public static let testValue = TeamLearning()
}

extension DependencyValues {
  public var teamLearning: TeamLearning {
    get { self[TeamLearning.self] }
    set { self[TeamLearning.self] = newValue }
  }
}

/// What the background pass does after a meeting (`syncups sentences`, started by the save of
/// a meeting whose sentences are late or whose voices are used, whatever front end recorded
/// it): the sentence passes left to do, the team's words they change, then the attendees'
/// voices adapted from what is now confirmed. One line per thing done, for whoever listens, and
/// whether a transcript was replaced (a change to sync).
public enum BackgroundLearning {
  public static func run(
    in database: SyncUpsDatabase
  ) async -> (lines: [String], replacedTranscripts: Bool) {
    @Dependency(\.teamLearning) var teamLearning
    var lines: [String] = []
    // A pass left to do must not hear its own meeting's live transcript: its sync-up's words
    // leave out meetings whose sentences are still to come.
    let pending = (try? database.pendingSentencePasses()) ?? []
    let syncUps = (try? database.syncUpIDs(ofMeetings: pending)) ?? []
    if !syncUps.isEmpty { try? await teamLearning.learnWordsOf(syncUps) }
    let done = await SentencePass.runPending(in: database)
    lines += done
    // The finished meetings' sentences teach their sync-ups' words.
    if !done.isEmpty {
      do {
        try await teamLearning.learnWordsOf(syncUps)
      } catch {
        lines.append("the team's words were not learned again: \(error)")
      }
    }
    // Then the attendees' voices learn from what is now confirmed (kept locally).
    lines += await VoiceAdaptation.estimatePending(in: database)
    return (lines, !done.isEmpty)
  }
}

/// `syncups forget`'s rule, for any front end: what was learned of one attendee (voice,
/// adaptation) or of a whole sync-up (every attendee's, and its words) is forgotten in one
/// transaction, and the sync-up's words are learned again from what may still be learned.
public enum Forgetting {
  /// Returns a line when the words could not be learned again (the forgetting is done).
  public static func forget(
    _ syncUpID: SyncUp.ID, attendee: Attendee.ID?, in database: SyncUpsDatabase
  ) async throws -> String? {
    try await WorkerThread.run(name: "syncups-forget") {
      if let attendee {
        try database.forgetLearned(attendee: attendee)
      } else {
        try database.forgetLearned(syncUp: syncUpID)
      }
    }
    guard attendee == nil else { return nil }
    @Dependency(\.teamLearning) var teamLearning
    return await teamLearning.relearnWords(syncUpID)
  }
}
