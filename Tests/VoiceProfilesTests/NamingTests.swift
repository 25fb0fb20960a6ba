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
}
