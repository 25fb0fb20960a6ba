import AudioCore
import ChildProcesses
import Dependencies
import Foundation
import IssueReporting
import MeetingRecorder
import VoiceProfiles

#if canImport(Glibc)
  import Glibc
#endif

/// The second pass, finished late: a meeting saved before its whole sentences were ready keeps
/// its live transcript until this runs the pass again over the meeting's kept audio and
/// replaces it. One process at a time does a meeting; a process killed meanwhile leaves it to
/// the next one (any `syncups` command starts one in the background).
public enum SentencePass {
  /// Runs every pass still to do in `database`; one line per meeting for whoever listens.
  /// When its recording used the voices (`--use-learning`), the sentences of attendees with an
  /// acoustic adaptation are decoded again with it once who spoke is known.
  public static func runPending(in database: SyncUpsDatabase) async -> [String] {
    let pending: [Meeting.ID]
    do {
      pending = try database.pendingSentencePasses()
    } catch {
      return ["cannot look for unfinished sentence passes: \(error)"]
    }
    var lines: [String] = []
    for meetingID in pending where database.claimSentencePass(meetingID) {
      defer { database.releaseSentencePass(meetingID) }
      lines.append(await run(meetingID, in: database))
    }
    return lines
  }

  private static func run(
    _ meetingID: Meeting.ID, in database: SyncUpsDatabase
  ) async -> String {
    @Dependency(\.meetingRecorder) var meetingRecorder
    @Dependency(\.dataDirectory) var dataDirectory
    let name = "meeting \(meetingID.rawValue.lowercasedString.prefix(8))"
    do {
      let found = try database.meetingAndItsSyncUp(meetingID)
      let learning = LearningUse(rawValue: try database.sentencePassLearning(meetingID))
      guard let (meeting, syncUp) = found, let audioFile = meeting.audioFile
      else {
        try database.dropSentencePass(meetingID)
        return "\(name): its audio is gone; the live transcript stays"
      }
      // What the recording that left it used (`--use-learning`).
      let teamModel =
        learning.contains(.words)
        ? dataDirectory.url.appendingPathComponent(DataDirectory.teamWordsFile(of: syncUp.id))
        : nil
      let utterances = try await meetingRecorder.sentences(
        dataDirectory.url.appendingPathComponent(audioFile), syncUp.transcriptionVocabulary,
        teamModel)
      var sentences = attribute(utterances, like: meeting.segments)
      // By voice, with the slot each sentence's live segment was given as the prior.
      let attendees = Array(syncUp.attendees)
      var learned: [Attendee.ID: VoiceProfile] = [:]
      if !attendees.isEmpty, utterances.contains(where: { $0.voice != nil }) {
        let slots = sentences.map { sentence in
          attendees.firstIndex { $0.name == sentence.speaker } ?? 0
        }
        let known = (try? database.voiceProfiles(syncUp.id)) ?? [:]
        if let told = try? await VoiceAttribution.tell(
          utterances, slots: slots, attendees: attendees, known: known)
        {
          sentences = told.segments
          learned = told.learned
        }
      }
      let adaptations =
        learning.contains(.voices) ? (try? database.speakerAdaptations(syncUp.id)) ?? [:] : [:]
      let team =
        learning.contains(.voices) ? (try? database.teamAdaptation(syncUp.id)) ?? nil : nil
      if !adaptations.isEmpty || team?.isUsed == true {
        sentences = await VoiceAdaptation.redecode(
          sentences, audioFile: dataDirectory.url.appendingPathComponent(audioFile),
          attendees: Array(syncUp.attendees), adaptations: adaptations, team: team,
          vocabulary: syncUp.transcriptionVocabulary, teamModel: teamModel)
      }
      guard try database.finishSentencePass(meetingID, sentences: sentences) else {
        return "\(name): deleted meanwhile"
      }
      // A voice that cannot be kept now is learned at the next meeting.
      try? database.learnVoices(learned)
      return "\(name): the live transcript was replaced by \(sentences.count) whole sentences"
    } catch {
      try? database.dropSentencePass(meetingID)
      return "\(name): the whole-sentence pass failed (\(error)); the live transcript stays"
    }
  }

  /// Whole sentences as segments, each said by the speaker of the live segment it starts in
  /// (the live segments were given to speakers by the slot each started in): the last one to
  /// start by then, give or take `jitter` (the two passes place a boundary slightly apart).
  public static func attribute(
    _ sentences: [Utterance], like live: [Meeting.Segment], jitter: Double = 0.3
  ) -> [Meeting.Segment] {
    sentences.map { sentence in
      let speaker =
        live.last { $0.start <= sentence.start + jitter }?.speaker ?? live.first?.speaker
      return Meeting.Segment(
        speaker: speaker ?? "Unknown", start: sentence.start, end: sentence.end,
        text: sentence.text, words: sentence.words)
    }
  }
}

/// Starts the sentence passes still to do in a process of their own, in the background, so
/// that no command waits for them.
public struct SentencePasses: Sendable {
  public var startInBackground: @Sendable () -> Void = unimplemented(
    "SentencePasses.startInBackground")

  public init(
    startInBackground: @escaping @Sendable () -> Void
  ) {
    self.startInBackground = startInBackground
  }

  /// Every endpoint unimplemented: calling one reports an issue (and throws, or returns a
  /// placeholder). The test value.
  public init() {}
}

extension SentencePasses: DependencyKey {
  /// `syncups sentences`, this very program, detached from the terminal (its own session, no
  /// input or output): it outlives the command that started it.
  public static let liveValue = SentencePasses {
    let started = CleanSpawn.spawn("/proc/self/exe", ["syncups", "sentences"], newSession: true) {
      actions in
      for fd in Int32(0)...2 {
        posix_spawn_file_actions_addopen(
          &actions, fd, "/dev/null", fd == 0 ? O_RDONLY : O_WRONLY, 0)
      }
    }
    guard let pid = started else { return }  // the next command tries again
    // Reaped when it ends, so a long-lived app leaves no zombie.
    let child = pid
    Thread.detachNewThread {
      var status: Int32 = 0
      while waitpid(child, &status, 0) == -1, errno == EINTR {}
    }
  }
  public static let testValue = SentencePasses()
}

extension DependencyValues {
  public var sentencePasses: SentencePasses {
    get { self[SentencePasses.self] }
    set { self[SentencePasses.self] = newValue }
  }
}
