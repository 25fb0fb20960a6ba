import AudioCore
import ConcurrencyExtras
import Dependencies
import Foundation
import MeetingRecorder
import SyncUpsFeatures
import Testing

@Suite("Voice adaptation")
struct VoiceAdaptationTests {
  @Test("The second pass decodes each adapted attendee's sentences again with their own transform")
  func secondPassPicksTheSpeakersTransform() async {
    let ana = Attendee(id: Attendee.ID(UUID()), name: "Ana")
    let ben = Attendee(id: Attendee.ID(UUID()), name: "Ben")
    let cy = Attendee(id: Attendee.ID(UUID()), name: "Cy")
    func segment(_ speaker: String, _ start: Double, _ text: String) -> Meeting.Segment {
      Meeting.Segment(speaker: speaker, start: start, end: start + 2, text: text)
    }
    let segments = [
      segment("Ana", 0, "one"), segment("Ben", 2, "two"), segment("Ana", 4, "three"),
      segment("Cy", 6, "four"),
    ]
    let calls = LockIsolated<[String: [SpokenSpan]]>([:])
    let adapted = await withDependencies {
      $0.speakerAdapter.redecode = { _, spans, transform, _, _ in
        let owner = String(decoding: transform, as: UTF8.self)
        calls.withValue { $0[owner, default: []] += spans }
        return spans.map { span in
          let word = Transcription.Word(
            word: owner, start: span.start, end: span.end, confidence: 1)
          return Utterance(start: span.start, end: span.end, text: owner, words: [word])
        }
      }
    } operation: {
      await VoiceAdaptation.redecode(
        segments, audioFile: URL(fileURLWithPath: "/nonexistent.flac"),
        attendees: [ana, ben, cy],
        adaptations: [
          ana.id: SpeakerAdaptation(seconds: 60, transform: Data("ana".utf8)),
          ben.id: SpeakerAdaptation(seconds: 60, transform: Data("ben".utf8)),
        ], vocabulary: [])
    }
    #expect(adapted.map(\.text) == ["ana", "ben", "ana", "four"])
    #expect(adapted.map(\.speaker) == ["Ana", "Ben", "Ana", "Cy"])
    #expect(calls.value["ana"] == [SpokenSpan(start: 0, end: 2), SpokenSpan(start: 4, end: 6)])
    #expect(calls.value["ben"] == [SpokenSpan(start: 2, end: 4)])
    #expect(calls.value["Cy"] == nil)
  }

  @Test("A sentence the adapted decoder hears nothing in keeps its words")
  func silentRedecodeKeepsTheWords() async {
    let ana = Attendee(id: Attendee.ID(UUID()), name: "Ana")
    let segments = [Meeting.Segment(speaker: "Ana", start: 0, end: 2, text: "one")]
    let adapted = await withDependencies {
      $0.speakerAdapter.redecode = { _, spans, _, _, _ in spans.map { _ in nil } }
    } operation: {
      await VoiceAdaptation.redecode(
        segments, audioFile: URL(fileURLWithPath: "/nonexistent.flac"), attendees: [ana],
        adaptations: [ana.id: SpeakerAdaptation(seconds: 60, transform: Data("x".utf8))],
        vocabulary: [])
    }
    #expect(adapted == segments)
  }
}
