import Foundation
import StandupDigest
import Testing

/// Cues the recogniser hears a little wrong: a name that sounds alike, "and" for "i'm" after a
/// leading cue, "him" for "and", a verb's object taken for a remark, a cue said alone.
struct MisheardCueTests {
  static func digest(_ lines: String, _ attendees: [String]) -> Digest {
    Digest(segments: StandupDigestTests.segments(lines), attendees: attendees)
  }

  @Test func aNameHeardAlikeStillNamesTheBlocker() {
    let digest = Self.digest(
      """
      Kai: yesterday i wrote the examples i need li to fix the signing keys
      """, ["Kai", "Lea", "Maya"])
    #expect(StandupDigestTests.texts(digest, "Kai", .yesterday) == ["wrote the examples"])
    let blockers = digest.people.first { $0.name == "Kai" }?.blockers ?? []
    #expect(blockers.map(\.text) == ["need li to fix the signing keys"])
    #expect(blockers.first?.person == "Lea")
  }

  @Test func aWordAlikeNamesNoOneOutsideANeed() {
    // "team" sounds like Tim, but "waiting for the network team" waits for no attendee.
    let digest = Self.digest(
      """
      Kai: i'm waiting for the network team to open the firewall
      """, ["Kai", "Tim"])
    let blockers = digest.people.first { $0.name == "Kai" }?.blockers ?? []
    #expect(blockers.map(\.text) == ["waiting for the network team to open the firewall"])
    #expect(blockers.first?.person == nil)
  }

  @Test func aWordThatSoundsLikeNoNameIsNoBlocker() {
    // "time" sounds like no attendee: "need time to" is no one else's help.
    let digest = Self.digest(
      """
      Kai: yesterday i wrote the examples i need time to fix the signing keys
      """, ["Kai", "Lea", "Maya"])
    #expect(StandupDigestTests.texts(digest, "Kai", .blockers).isEmpty)
  }

  @Test func andForIAmAfterALeadingCue() {
    let digest = Self.digest(
      """
      Jon: today and pairing with ivo on the reports
      """, ["Hana", "Ivo", "Jon"])
    #expect(StandupDigestTests.texts(digest, "Jon", .today) == ["pairing with ivo on the reports"])
  }

  @Test func andStillJoinsTwoThingsDoneAfterAnObject() {
    let digest = Self.digest(
      """
      Ben: yesterday i finished the export and fixed the upload test
      """, ["Ana", "Ben"])
    #expect(
      StandupDigestTests.texts(digest, "Ben", .yesterday) == [
        "finished the export", "fixed the upload test",
      ])
  }

  @Test func himForAndBeforeASecondThingDone() {
    let digest = Self.digest(
      """
      Dara: yesterday i wrote the incident report him shared it with the team
      Eli: yesterday i wrote an updated guide
      """, ["Dara", "Eli"])
    #expect(
      StandupDigestTests.texts(digest, "Dara", .yesterday) == [
        "wrote the incident report", "shared it with the team",
      ])
    #expect(StandupDigestTests.texts(digest, "Eli", .yesterday) == ["wrote an updated guide"])
  }

  @Test func theObjectOfAVerbIsNoRemark() {
    let digest = Self.digest(
      """
      Jon: yesterday i finished this could change
      Ivo: yesterday i fixed the login it was a null pointer
      """, ["Ivo", "Jon"])
    #expect(StandupDigestTests.texts(digest, "Jon", .yesterday) == ["finished this could change"])
    #expect(StandupDigestTests.texts(digest, "Ivo", .yesterday) == ["fixed the login"])
  }

  @Test func aBlockerCueAloneIsNoItem() {
    let digest = Self.digest(
      """
      Lea: yesterday i tested the refund flow
      Lea: november blockers
      """, ["Kai", "Lea"])
    #expect(StandupDigestTests.texts(digest, "Lea", .yesterday) == ["tested the refund flow"])
    #expect(StandupDigestTests.texts(digest, "Lea", .blockers).isEmpty)
  }

  @Test func butForTheAfterAVerbKeepsTheThingDone() {
    let digest = Self.digest(
      """
      Cleo: yesterday i profiled but checkout page
      Ben: yesterday i fixed the upload test but the export still fails
      """, ["Ben", "Cleo"])
    #expect(StandupDigestTests.texts(digest, "Cleo", .yesterday) == ["profiled but checkout page"])
    #expect(StandupDigestTests.texts(digest, "Ben", .yesterday) == ["fixed the upload test"])
  }

  @Test func offersAfterARequestAreForToday() {
    let digest = Self.digest(
      """
      Hana: i need ivo to pause the batch jobs tonight
      Ivo: i can pause them at eight
      Femi: i need gus to update the build scripts
      Gus: okay i'll do that today
      """, ["Femi", "Gus", "Hana", "Ivo"])
    #expect(StandupDigestTests.texts(digest, "Ivo", .today) == ["pause them at eight"])
    #expect(StandupDigestTests.texts(digest, "Gus", .today) == ["do that"])
  }

  @Test func looserWordingOfPlansAndBlockers() {
    let digest = Self.digest(
      """
      Marco: the plan for today is to triage the first bug reports
      Marco: i ran into an issue with the staging certificates
      Nadia: i'm going to need a hand from marco with the database dump
      Lina: same as yesterday still on the billing export
      Lina: i ran into ben at lunch
      """, ["Lina", "Marco", "Nadia"])
    #expect(
      StandupDigestTests.texts(digest, "Marco", .today) == ["triage the first bug reports"])
    #expect(
      StandupDigestTests.texts(digest, "Marco", .blockers) == [
        "ran into an issue with the staging certificates"
      ])
    let blockers = digest.people.first { $0.name == "Nadia" }?.blockers ?? []
    #expect(blockers.map(\.text) == ["need a hand from marco with the database dump"])
    #expect(blockers.first?.person == "Marco")
    #expect(StandupDigestTests.texts(digest, "Lina", .today) == ["on the billing export"])
    #expect(StandupDigestTests.texts(digest, "Lina", .blockers).isEmpty)
  }

  @Test func moreWaysToSayAPlanOrABlocker() {
    let digest = Self.digest(
      """
      Xavier: this morning i'll verify the backups
      Theo: same as yesterday cleaning up certificates
      Uma: the domain transfer is still pending
      Yusuf: can someone give me access to the warehouse
      Yusuf: yesterday wendy and i shipped the referral flow
      Wendy: still no review from design so that's my blocker
      Wendy: working on the billing export today
      Ben: i reviewed the pending pull requests
      """, ["Ben", "Theo", "Uma", "Wendy", "Xavier", "Yusuf"])
    #expect(StandupDigestTests.texts(digest, "Xavier", .today) == ["verify the backups"])
    #expect(StandupDigestTests.texts(digest, "Theo", .today) == ["cleaning up certificates"])
    #expect(
      StandupDigestTests.texts(digest, "Uma", .blockers) == ["domain transfer is still pending"])
    #expect(
      StandupDigestTests.texts(digest, "Yusuf", .blockers) == ["give me access to the warehouse"])
    #expect(StandupDigestTests.texts(digest, "Yusuf", .yesterday) == ["shipped the referral flow"])
    #expect(StandupDigestTests.texts(digest, "Wendy", .blockers) == ["no review from design"])
    #expect(StandupDigestTests.texts(digest, "Wendy", .today) == ["working on the billing export"])
    #expect(
      StandupDigestTests.texts(digest, "Ben", .yesterday) == ["reviewed the pending pull requests"])
    #expect(StandupDigestTests.texts(digest, "Ben", .blockers).isEmpty)
  }

  @Test func mineForMyAndOverInsideAThingDone() {
    let digest = Self.digest(
      """
      Xavier: i can't finish the cooked over until zara proves the maintenance window
      Wendy: still no review from design said that's mine blocker
      """, ["Wendy", "Xavier", "Zara"])
    #expect(
      StandupDigestTests.texts(digest, "Xavier", .blockers) == [
        "can't finish the cooked over until zara proves the maintenance window"
      ])
    #expect(StandupDigestTests.texts(digest, "Xavier", .today).isEmpty)
    #expect(StandupDigestTests.texts(digest, "Wendy", .blockers) == ["no review from design said"])
  }
}
