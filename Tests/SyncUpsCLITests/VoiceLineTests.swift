import Foundation
import SyncUpsCLI
import SyncUpsFeatures
import Testing

/// `syncups show` says how much of each voice is known, once one is.
@Suite struct VoiceLineTests {
  @Test func showSaysHowMuchOfEachVoiceIsKnown() {
    let ana = Attendee(id: Attendee.ID(UUID()), name: "Ana")
    let ben = Attendee(id: Attendee.ID(UUID()), name: "Ben")
    let cy = Attendee(id: Attendee.ID(UUID()), name: "Cy")
    let syncUp = SyncUp(id: SyncUp.ID(UUID()), attendees: [ana, ben, cy], title: "Daily")
    let shown = Listing.show(
      syncUp,
      voices: [
        ana.id: VoiceSummary(meetings: 2, seconds: 94.4),
        ben.id: VoiceSummary(meetings: 1, seconds: 30),
      ])
    #expect(
      shown.contains(
        """
        Voices:       Ana: known from 2 meetings, 94 s of speech
                      Ben: known from 1 meeting, 30 s of speech
                      Cy: not heard yet
        Meetings:     0

        """), "\(shown)")
    #expect(!Listing.show(syncUp).contains("Voices:"))
  }
}
