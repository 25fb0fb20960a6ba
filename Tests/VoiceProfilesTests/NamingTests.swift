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

  /// The development meeting of seven in the human-speech bench (its groups, slots and frames
  /// as `syncups` heard them): Alison, Mike, Brett, Jack, Bob, Alan and Sam, listed in the order
  /// they first speak, in a minute of equal slots that the turns ignore (Mike twice for 16 s,
  /// Jack 11 s, Brett a digit at a time). Brett's digits and Bob's two short sentences are heard
  /// as one group, so there are six for seven attendees; matched by the speech in their slots,
  /// Mike was named Brett, Jack Bob, and Brett and Bob Jack (45 of 93 words right). So little of
  /// the speech is in the slots that the groups are named by the turn they are first heard in.
  @Test("groups whose turns ignore the slots are named by the turn they are first heard in")
  func groupsWhoseTurnsIgnoreTheSlotsAreNamedByTurn() {
    let named = SpeakerLabels.named(
      groups: [0, 1, 2, 3, 3, 3, 1, 1, 1, 2, 4, 5, 5, 2, 5, 5, 6],
      slots: [0, 1, 1, 2, 2, 2, 3, 3, 4, 4, 5, 5, 5, 5, 6, 6, 6],
      frames: [607, 163, 21, 131, 74, 355, 56, 211, 44, 84, 218, 21, 39, 86, 33, 42, 169],
      attendees: 7)
    // Bob, heard with Brett, has no group; Brett's last digits (a fragment) go on the turn
    // they are heard in.
    #expect(named == [0, 1, 2, 3, 3, 3, 1, 1, 1, 2, 5, 5, 5, 2, 2, 2, 6])
  }

  /// Team beta's second stand-up in the digest bench (its groups' scores under the stored
  /// voices, nats a frame, as `syncups` heard them): Dara, Femi and Gus speak, Eli says nothing,
  /// and Dara's voice is heard as two groups. Named by the standardised scores, her first group
  /// went to Eli; her own stored voice explains it 1.6 nats a frame better than Eli's.
  @Test("a voice heard as two groups while someone says nothing keeps its name")
  func aVoiceHeardAsTwoGroupsKeepsItsName() {
    let perFrame: [[Double?]] = [
      [-0.58, -2.19, -2.75, -3.11], [0.04, -2.23, -2.59, -2.78],
      [-4.60, -2.41, -3.14, -0.10], [-3.01, -2.35, -0.66, -3.66],
    ]
    #expect(
      SpeakerLabels.reunited([1, 0, 3, 2], perFrame: perFrame, margin: 1) == [0, 0, 3, 2])
    // Named right, nothing moves; a voice better by less than the margin moves nothing.
    #expect(
      SpeakerLabels.reunited([0, 0, 3, 2], perFrame: perFrame, margin: 1) == [0, 0, 3, 2])
    #expect(
      SpeakerLabels.reunited([1, 0, 3, 2], perFrame: perFrame, margin: 2) == [1, 0, 3, 2])
    // The better voice names no other group here: it is no voice heard twice.
    #expect(
      SpeakerLabels.reunited([1, 3, nil, 2], perFrame: perFrame, margin: 1) == [1, 3, nil, 2])
    // Team delta's second stand-up: Nora never heard before (her voice is new to the stored
    // ones), Kai's voice heard as two groups, the second named after Maya; were Maya never
    // heard either, Kai's stored voice explains that group about as well as his own, and
    // Nora's far worse.
    let delta: [[Double?]] = [
      [-4.63, -6.60, nil, nil], [-0.95, -3.32, nil, nil],
      [-1.22, -3.27, nil, nil], [-4.22, -2.44, nil, nil],
    ]
    #expect(SpeakerLabels.reunited([3, 0, 2, 1], perFrame: delta, margin: 1) == [3, 0, 0, 1])
    // Bad input: names out of range or scores missing leave the names as they are.
    #expect(SpeakerLabels.reunited([7, 0], perFrame: [[0.5], []], margin: 1) == [7, 0])
  }

  /// End to end: after a first meeting of four voices, a later one where Di says nothing. The
  /// meeting's voices are grouped into as many groups as attendees, so one voice is heard as
  /// two; every sentence still goes to the person who said it. So too when Di said nothing in
  /// the first meeting either (no voice of hers is stored).
  @Test("a later meeting with an attendee who says nothing names no one else's voice after them")
  func aLaterMeetingWithASilentAttendee() {
    var voices = Voices(state: 0x5EED_0045)
    var time = 0.0
    func meeting(_ said: [(voice: Int, slot: Int, seconds: Double)]) -> [SpeakerLabels.Sentence] {
      time = 0
      return said.map { voice, slot, seconds in
        defer { time += seconds + 0.5 }
        return voices.sentence(voice, slot: slot, seconds: seconds, start: time)
      }
    }
    let later: [(voice: Int, slot: Int, seconds: Double)] = [
      (0, 0, 2.5), (0, 0, 3.0), (0, 0, 2.0), (1, 1, 4.0), (1, 1, 3.5), (1, 1, 2.0),
      (2, 2, 3.0), (2, 2, 2.5), (2, 3, 3.5),
    ]
    let first = meeting((0..<4).flatMap { voice in [(voice, voice, 4.0), (voice, voice, 3.5)] })
    let learned = SpeakerLabels.label(first, attendees: 4, profiles: [:]).learned
    #expect(learned.count == 4)
    for stored in [learned, learned.filter { $0.key != 3 }] {
      let outcome = SpeakerLabels.label(meeting(later), attendees: 4, profiles: stored)
      #expect(outcome.parts.map { $0.map(\.speaker) } == later.map { [$0.voice] })
    }
  }
}
