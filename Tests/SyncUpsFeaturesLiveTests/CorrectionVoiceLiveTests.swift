import AudioCore
import Dependencies
import Foundation
import MeetingRecorder
import MeetingRecorderLive
import SyncUpsFeatures
import TestSupport
import Testing
import TranscriptionClient
import TranscriptionClientLive
import VoiceProfiles
import WorkerThreads

/// A corrected speaker teaches that attendee's voice from the segment's audio (the real front
/// end over a kept meeting of two flite voices): the profile learns Ben's voice, which it then
/// prefers to Ana's, and every further correction adds to it.
struct CorrectionVoiceLiveTests {
  static let script = [
    ("slt", "I worked on the build server, it is much faster now."),
    ("rms", "Yesterday I finished the login page and fixed two bugs."),
    ("slt", "Today I will write the release notes for the new version."),
    ("rms", "Then I will review the database migration with the team."),
  ]

  @Test func aCorrectedSpeakerTeachesThatAttendeesVoice() async throws {
    let home = try TemporaryDirectory().url
    defer { try? FileManager.default.removeItem(at: home) }
    let (file, spoken) = try await WorkerThread.run(name: "flite") {
      try speak(Self.script, in: home)
    }
    let directory = DataDirectory(url: home)
    let database = try SyncUpsDatabase.open(directory)
    defer { database.close() }
    let ben = Attendee(id: Attendee.ID(UUID()), name: "Ben")
    let meetingID = Meeting.ID(UUID())
    let audio = DataDirectory.audioFile(of: meetingID)
    try FileManager.default.createDirectory(
      at: home.appendingPathComponent("audio"), withIntermediateDirectories: true)
    try FileManager.default.copyItem(at: file, to: home.appendingPathComponent(audio))
    // Everything was put down to Ana (her slot).
    let meeting = Meeting(
      id: meetingID, date: Date(timeIntervalSince1970: 1_790_000_000), transcript: "",
      segments: zip(spoken, Self.script).map { said, line in
        Meeting.Segment(speaker: "Ana", start: said.start, end: said.end, text: line.1)
      }, audioFile: audio)
    let syncUp = SyncUp(
      id: SyncUp.ID(UUID()), attendees: [Attendee(id: Attendee.ID(UUID()), name: "Ana"), ben],
      meetings: [meeting], title: "Voices")
    try database.add(syncUp)

    try await withDependencies {
      $0.transcription = .live()
    } operation: {
      let recorder = MeetingRecorder.liveValue
      let corrections = CorrectionsClient.live(database, directory: directory, recorder: recorder)
      func lesson(_ index: Int) -> VoiceLesson {
        VoiceLesson(
          attendeeID: ben.id, syncUpID: syncUp.id, audioFile: audio, start: spoken[index].start,
          end: spoken[index].end)
      }
      #expect(try database.voiceProfiles(syncUp.id).isEmpty)
      _ = try await corrections.correct(meetingID, 1, SegmentChange(speaker: "Ben"))
      let first = try #require(try await corrections.teachVoice(lesson(0)))
      #expect(first.meetings == 1 && first.seconds > 1 && first.seconds <= spoken[0].end)
      let profile = try #require(try database.voiceProfiles(syncUp.id)[ben.id])

      // Ben's other sentence (slt) fits his profile better than Ana's sentences (rms).
      func fit(_ index: Int) async throws -> Double {
        let voice = try await recorder.voice(
          home.appendingPathComponent(audio), spoken[index].start, spoken[index].end)
        let frames = SpeechFrames(voice).frames
        let scores = profile.model.logLikelihoods(frames)
        return scores.reduce(0, +) / Double(scores.count)
      }
      let his = try await fit(2)
      let hers = [try await fit(1), try await fit(3)]
      #expect(hers.allSatisfy { his > $0 }, "Ben \(his), Ana \(hers)")

      let second = try #require(try await corrections.teachVoice(lesson(2)))
      #expect(second.meetings == 1 && second.seconds > first.seconds + 1)
      #expect(try database.voiceSummaries(syncUp.id)[ben.id] == second)
    }
  }
}
