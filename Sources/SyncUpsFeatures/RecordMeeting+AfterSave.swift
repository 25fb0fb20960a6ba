import Foundation
import VoiceProfiles

/// What follows the save of a recorded meeting, whatever front end recorded it (`record`, the
/// interactive app): the features run it, never a front end. Before the save, a sentence pass
/// the background is to run again is noted with the meeting; after it, the recording lets its
/// meeting go, the voices it taught are kept, the sync-up's words are learned again, and the
/// background pass (`syncups sentences`) finishes late sentences and adapts the voices.
struct AfterSave: Sendable {
  var recording: MeetingRecording
  /// The second pass had not caught up, and the audio is kept to run it again from.
  var sentencesLate: Bool
  /// The attendees' voices are used (`--use-learning`) and the audio is kept to learn from.
  var usesVoices: Bool
  var learnedVoices: [Attendee.ID: VoiceProfile]
  var learning: LearningUse
  var recordingStore: RecordingStore
  var sentencePasses: SentencePasses
  var teamLearning: TeamLearning

  /// Before the save: with an attendee's adaptation, the sentences are decoded again in the
  /// background pass, as late sentences are.
  func prepare(_ syncUpID: SyncUp.ID) async throws {
    let adapted =
      usesVoices ? (try? await recordingStore.hasAdaptedVoices(syncUpID)) == true : false
    if sentencesLate || adapted {
      try await recordingStore.deferSentencePass(recording.meetingID, learning)
    }
  }

  /// After the save; a line when the words could not be learned again (the meeting is saved).
  func learn(_ syncUpID: SyncUp.ID) async -> String? {
    await recordingStore.release(recording.meetingID)
    // A voice that cannot be kept now is learned at the next meeting.
    try? await recordingStore.learnVoices(learnedVoices)
    let problem = await teamLearning.relearnWords(syncUpID)
    if sentencesLate || usesVoices { sentencePasses.startInBackground() }
    return problem
  }
}
