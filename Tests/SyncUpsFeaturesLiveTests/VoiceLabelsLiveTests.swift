import AudioCore
import AudioFilesClient
import AudioFilesClientLive
import Foundation
import MeetingRecorder
import MeetingRecorderLive
import SyncUpsFeatures
import SyncUpsTestSupport
import TestSupport
import Testing
import TranscriptionClient
import TranscriptionClientLive
import VoiceProfiles
import WorkerThreads

/// A stand-up of two flite voices recorded with the real decoders: Ana (rms) talks on into
/// Ben's slot, Ben (slt) speaks, then Ana answers once more, out of turn. The saved sentences
/// name the voice that said them, not the slot they fell in.
@MainActor
struct VoiceLabelsLiveTests {
  nonisolated static let script = [
    ("rms", "Good morning, yesterday I finished the login page."),
    ("rms", "I also fixed two bugs in the report screen."),
    ("rms", "Today I will write tests for the search feature."),
    ("rms", "Then I will review the database migration."),
    ("rms", "And I will update the wiki page for the new team."),
    ("slt", "I worked on the build server, it is much faster now."),
    ("slt", "Today I will write the release notes."),
    ("rms", "One more thing, the demo moved to Friday."),
  ]

  @Test func aTurnIntoTheNextSlotAndAnAnswerOutOfTurnGetTheirSpeakersNames() async throws {
    let home = try TemporaryDirectory().url
    defer { try? FileManager.default.removeItem(at: home) }
    let (file, spoken) = try await WorkerThread.run(name: "flite") {
      try speak(Self.script, in: home)
    }
    let duration = (spoken.last!.end + 0.6).rounded(.up)
    let syncUp = Shared(
      value: SyncUp(
        id: SyncUp.ID(UUID(0)),
        attendees: [
          Attendee(id: Attendee.ID(UUID(1)), name: "Ana"),
          Attendee(id: Attendee.ID(UUID(2)), name: "Ben"),
        ],
        duration: .seconds(duration), title: "Voices"))
    let learned = LockIsolated<[Attendee.ID: VoiceProfile]>([:])
    let store = try await recordToTheEnd(
      syncUp, input: .file(file, pace: .fast), now: Date(timeIntervalSince1970: 1_234_567_890)
    ) {
      $0.audioFiles = .liveValue
      $0.transcription = .live()
      $0.meetingRecorder = .liveValue
      $0.dataDirectory = DataDirectory(url: home)
      $0.recordingStore = .inMemory(voices: learned)
    }
    #expect(store.isDismissed)
    let meeting = try #require(syncUp.wrappedValue.meetings.first)
    let bensSlot = (duration / 2).rounded(.up)
    // Ana speaks in Ben's slot twice: where she runs over and where she answers again.
    #expect(spoken.filter { $0.voice == "rms" && $0.start >= bensSlot }.count == 2)
    let names = ["rms": "Ana", "slt": "Ben"]
    var words = 0
    for segment in meeting.segments {
      for word in segment.words {
        let middle = (word.start + word.end) / 2
        let said = spoken.min { distance(middle, $0) < distance(middle, $1) }!
        #expect(segment.speaker == names[said.voice], "\(word.word) at \(middle) s: \(segment)")
        words += 1
      }
    }
    #expect(words >= 40, "\(meeting.segments)")
    // What was learned of both voices is kept once the meeting is saved.
    #expect(Set(learned.value.keys) == [Attendee.ID(UUID(1)), Attendee.ID(UUID(2))])
  }
}

private func distance(_ time: Double, _ sentence: Spoken) -> Double {
  time < sentence.start ? sentence.start - time : max(0, time - sentence.end)
}

struct Spoken: Sendable {
  var voice: String
  var start: Double
  var end: Double
}

/// The script spoken by flite, sentence after sentence with 0.6 s between them, as one 16 kHz
/// WAV file; where each sentence is in it.
func speak(_ script: [(String, String)], in folder: URL) throws -> (URL, [Spoken]) {
  var parts: [String] = []
  var spoken: [Spoken] = []
  let pause = folder.appendingPathComponent("pause.wav").path
  try tool("sox", ["-n", "-r", "16000", "-c", "1", "-b", "16", pause, "trim", "0", "0.6"])
  var time = 0.6
  parts.append(pause)
  for (index, (voice, text)) in script.enumerated() {
    let raw = folder.appendingPathComponent("raw\(index).wav").path
    let sentence = folder.appendingPathComponent("s\(index).wav").path
    try tool("flite", ["-voice", voice, "-t", text, "-o", raw])
    try tool("sox", [raw, "-r", "16000", "-c", "1", "-b", "16", sentence])
    let length = try AudioFileReader(path: sentence).info.duration
    spoken.append(Spoken(voice: voice, start: time, end: time + length))
    time += length + 0.6
    parts += [sentence, pause]
  }
  let file = folder.appendingPathComponent("meeting.wav")
  try tool("sox", parts + [file.path])
  return (file, spoken)
}

func tool(_ name: String, _ arguments: [String]) throws {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
  process.arguments = [name] + arguments
  process.standardError = FileHandle.nullDevice
  try process.run()
  process.waitUntilExit()
  try #require(process.terminationStatus == 0, "\(name) \(arguments) failed")
}
