import Foundation
import StandupDigest
import Testing

/// Blockers across meetings: raised in one, resolved by their owner in a later one.
struct BlockerLogTests {
  static func meeting(_ id: String, day: Int, _ said: [(String, String)]) -> BlockerLog.Meeting {
    BlockerLog.Meeting(
      id: id, syncUp: "Team", date: Date(timeIntervalSince1970: Double(day) * 86_400),
      segments: said.enumerated().map { index, pair in
        DigestSegment(number: index + 1, speaker: pair.0, start: Double(index * 5), text: pair.1)
      },
      attendees: ["Ivo", "Jon", "Femi"])
  }

  @Test func aBlockerRaisedInOneMeetingIsResolvedInALaterOne() {
    let first = Self.meeting(
      "m1", day: 1,
      [
        ("Ivo", "i am blocked on the finance team they still haven't sent the tax rules"),
        ("Jon", "i am waiting on legal to approve the new terms"),
      ])
    let second = Self.meeting(
      "m2", day: 2,
      [
        ("Jon", "still waiting on legal for the terms"),
        ("Ivo", "i finally got the tax rules from finance"),
      ])
    let entries = BlockerLog.entries([second, first])
    #expect(entries.count == 2, "Jon's blocker raised again is one entry")
    let ivo = entries.first { $0.person == "Ivo" }
    #expect(ivo?.raised.meeting == "m1")
    #expect(ivo?.resolved?.meeting == "m2")
    #expect(ivo?.resolved?.text == "i finally got the tax rules from finance")
    let jon = entries.first { $0.person == "Jon" }
    #expect(jon?.resolved == nil)
    #expect(jon?.raised.text == "waiting on legal to approve the new terms")
  }

  @Test func onlyTheOwnerSayingItIsResolvedClosesIt() {
    let first = Self.meeting(
      "m1", day: 1, [("Jon", "i am waiting on femi for the new icons")])
    let second = Self.meeting(
      "m2", day: 2,
      [
        ("Femi", "i sent the icons to jon yesterday"),
        ("Jon", "i haven't got the icons yet"),
        ("Jon", "i fixed a bug with femi"),
      ])
    let entries = BlockerLog.entries([first, second])
    #expect(entries.count == 1)
    #expect(entries.first?.named == "Femi")
    #expect(entries.first?.resolved == nil)
    let third = Self.meeting("m3", day: 3, [("Jon", "i got the icons from femi")])
    #expect(BlockerLog.entries([first, second, third]).first?.resolved?.meeting == "m3")
  }
}

/// Rules taken from the development recordings: what the recogniser hears for stand-up words.
struct RecognisedWordingTests {
  static func digest(_ text: String) -> DigestPerson? {
    Digest(
      segments: [DigestSegment(number: 1, speaker: "Dara", start: 0, text: text)],
      attendees: ["Dara", "Eli"]
    ).people.first
  }

  @Test func aNeedOfSomeoneElseAsTheRecogniserHearsIt() {
    #expect(Self.digest("i need to eli to confirm his dates")?.blockers.first?.person == "Eli")
    #expect(
      Self.digest("i needed design review from eli before i can ship")?.blockers.map(\.text)
        == ["needed design review from eli before i can ship"])
    #expect(Self.digest("i need to finish the report")?.blockers == [])
    #expect(Self.digest("i need to finish the report")?.today.map(\.text) == ["finish the report"])
  }

  @Test func noOtherBlockersAndAnOfferForToday() {
    let dara = Self.digest("i will fix the keys this morning no other blockers")
    #expect(dara?.blockers == [])
    #expect(dara?.today.map(\.text) == ["fix the keys"])
    #expect(
      Self.digest("i can give you access after this")?.today.map(\.text) == ["give you access"])
  }
}
