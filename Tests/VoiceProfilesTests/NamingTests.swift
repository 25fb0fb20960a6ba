import AudioCore
import Foundation
import Testing
import VoiceProfiles

/// A first meeting's voices named after the attendees: an attendee who says nothing, and
/// attendees who do not speak in the order they are listed.
@Suite struct NamingTests {
  /// Team delta's first stand-up in the digest bench (its groups, slots and frames as `syncups`
  /// heard them): Kai, Lea and Maya speak, Nora says nothing, and Kai's last short sentence is
  /// heard as a group of its own. Four groups for four attendees named in the order they first
  /// speak gave Kai's sentence to Lea, Lea's to Maya and Maya's to Nora.
  @Test("a silent attendee and a voice heard as two groups shift no name")
  func aSilentAttendeeAndAVoiceHeardAsTwoGroupsShiftNoName() {
    let frames = [52, 222, 151, 89, 271, 218, 171, 166, 246]
    let slots = [0, 0, 0, 1, 1, 2, 2, 3, 3]
    let named = SpeakerLabels.named(
      groups: [0, 0, 0, 1, 2, 2, 3, 3, 3], slots: slots, frames: frames, attendees: 4)
    #expect(named == [0, 0, 0, 0, 1, 1, 2, 2, 2])
    // Grouped right, three groups: Maya's turn, mostly in Nora's slot, keeps Maya's name, and
    // Nora's slot does not stand for her.
    let grouped = SpeakerLabels.named(
      groups: [0, 0, 0, 0, 2, 2, 3, 3, 3], slots: slots, frames: frames, attendees: 4)
    #expect(grouped == [0, 0, 0, 0, 1, 1, 2, 2, 2])
  }

  /// Attendees not listed in the order they first speak: Cy opens with a word in Ana's slot,
  /// then everyone speaks in their own slot. The turns follow the slots, so each voice is
  /// named after the slot it fills, not after the order of first words.
  @Test("a meeting whose turns follow the slots names voices by slot, whoever spoke first")
  func aMeetingWhoseTurnsFollowTheSlotsNamesVoicesBySlot() {
    let named = SpeakerLabels.named(
      groups: [5, 3, 3, 3, 4, 4, 5, 5, 5], slots: [0, 0, 0, 0, 1, 1, 2, 2, 2],
      frames: [120, 300, 300, 300, 300, 300, 300, 300, 300], attendees: 3)
    #expect(named == [2, 0, 0, 0, 1, 1, 2, 2, 2])
  }

  /// Three voices, four attendees, the last says nothing: Kai ends his turn with a short
  /// sentence, and the turns run on past the slots (each slot a quarter of the meeting).
  /// Every sentence goes to its speaker, Nora gets none and no voice of hers is learned.
  @Test("a silent attendee gets no sentence and shifts no one")
  func aSilentAttendeeGetsNoSentence() {
    var voices = Voices(state: 4242)
    let said: [(voice: Int, seconds: Double)] = [
      (0, 1), (0, 3.5), (0, 3), (0, 1.3), (1, 4.5), (1, 4), (2, 3.5), (2, 3), (2, 4),
    ]
    let length = said.reduce(0) { $0 + $1.seconds + 0.5 }
    var time = 0.0
    let sentences = said.map { voice, seconds in
      defer { time += seconds + 0.5 }
      return voices.sentence(
        voice, slot: min(Int(time / (length / 4)), 3), seconds: seconds, start: time)
    }
    let outcome = SpeakerLabels.label(sentences, attendees: 4, profiles: [:])
    #expect(outcome.parts.map { $0.map(\.speaker) } == said.map { [$0.voice] })
    #expect(Set(outcome.learned.keys) == [0, 1, 2])
  }
}
