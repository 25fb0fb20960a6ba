import Foundation
import StandupDigest
import Testing

/// The extractor on recogniser-style text (lower case, no punctuation) and on typed text.
struct StandupDigestTests {
  /// Segments, one per line: `SPEAKER: text`; starts 10 s apart.
  static func segments(_ lines: String) -> [DigestSegment] {
    lines.split(separator: "\n").enumerated().map { index, line in
      let parts = line.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        .map(String.init)
      return DigestSegment(
        number: index + 1, speaker: parts[0],
        start: Double(index * 10), text: parts.count > 1 ? parts[1] : "")
    }
  }

  static func texts(_ digest: Digest, _ name: String, _ question: DigestQuestion) -> [String] {
    digest.people.first { $0.name == name }?[question].map(\.text) ?? []
  }

  @Test func theBundledStandUpAsRecognised() {
    // Samples/standup.recorded.txt's words (the recogniser's, mistakes and all), by speaker.
    let digest = Digest(
      segments: Self.segments(
        """
        Ana: the mining everyone let's start the stand up
        Ben: yesterday i finished the lagoon page and fixed two bugs in the report
        Cleo: i worked on the database migration it is almost done
        Ana: today i will review the pull request and right release notes
        Ben: today i want to add tests for the new search feature
        Cleo: i am blocked by the build server it has been very slow since monday
        Ana: thank you let's talk about the build server after the meeting
        """),
      attendees: ["Ana", "Ben", "Cleo"])
    #expect(digest.people.map(\.name) == ["Ana", "Ben", "Cleo"])
    #expect(
      Self.texts(digest, "Ben", .yesterday) == [
        "finished the lagoon page", "fixed two bugs in the report",
      ])
    #expect(Self.texts(digest, "Ben", .today) == ["add tests for the new search feature"])
    #expect(Self.texts(digest, "Cleo", .yesterday) == ["worked on the database migration"])
    #expect(Self.texts(digest, "Cleo", .blockers) == ["blocked by the build server"])
    #expect(
      Self.texts(digest, "Ana", .today) == ["review the pull request and right release notes"])
    #expect(Self.texts(digest, "Ana", .yesterday).isEmpty)
    #expect(Self.texts(digest, "Ana", .blockers).isEmpty)
    let blocker = digest.people[2].blockers[0]
    #expect(blocker.segment == 6 && blocker.time == 50 && blocker.person == nil)
  }

  @Test func aBlockerNamesTheAttendeeItWaitsFor() {
    let digest = Digest(
      segments: Self.segments(
        """
        Eli: yesterday i worked on the mobile app login today i'm going to fix the crash on android i'm waiting on femi for the new icons
        Gus: i need dara to give me the vault token
        Dara: no blockers for me today i will write the incident report
        """),
      attendees: ["Dara", "Eli", "Femi", "Gus"])
    let eli = digest.people.first { $0.name == "Eli" }
    #expect(eli?.blockers.map(\.text) == ["waiting on femi for the new icons"])
    #expect(eli?.blockers.first?.person == "Femi")
    #expect(eli?.today.map(\.text) == ["fix the crash on android"])
    let gus = digest.people.first { $0.name == "Gus" }
    #expect(gus?.blockers.map(\.person) == ["Dara"])
    let dara = digest.people.first { $0.name == "Dara" }
    #expect(dara?.blockers == [])
    #expect(dara?.today.map(\.text) == ["write the incident report"])
    #expect(digest.people.map(\.name) == ["Dara", "Eli", "Gus"], "Femi said nothing")
  }

  @Test func noBlockersIsNoItemInAnyWording() {
    for said in [
      "no blockers", "nothing blocking me", "i'm not blocked", "i don't have any blockers",
      "blockers none", "no blockers today",
    ] {
      let digest = Digest(
        segments: Self.segments("Ana: yesterday i fixed the login bug \(said)"), attendees: ["Ana"])
      #expect(Self.texts(digest, "Ana", .blockers).isEmpty, "\(said)")
      #expect(Self.texts(digest, "Ana", .yesterday) == ["fixed the login bug"], "\(said)")
    }
  }

  @Test func aCueHoldsUntilTheSpeakerChangesAndTenseWins() {
    let digest = Digest(
      segments: Self.segments(
        """
        Ana: today code review and the retro
        Ana: i am pairing with ben on the reports
        Ana: i finished the roadmap this morning
        Ben: the tests are green
        """),
      attendees: ["Ana", "Ben"])
    #expect(
      Self.texts(digest, "Ana", .today) == [
        "code review and the retro", "pairing with ben on the reports",
      ])
    #expect(Self.texts(digest, "Ana", .yesterday) == ["finished the roadmap"])
    #expect(digest.people.first { $0.name == "Ben" }?.isEmpty == true)
  }

  @Test func typedPunctuationEndsClauses() {
    let digest = Digest(
      segments: Self.segments(
        "Cleo: I'll start. I merged the caching change; it works. Today I'll profile the checkout page!"
      ),
      attendees: ["Cleo"])
    #expect(Self.texts(digest, "Cleo", .yesterday) == ["merged the caching change"])
    #expect(Self.texts(digest, "Cleo", .today) == ["profile the checkout page"])
  }

  @Test func nothingToReadIsAnEmptyDigest() {
    #expect(Digest(segments: [], attendees: ["Ana"]).people.isEmpty)
    let unnamed = Digest(
      segments: Self.segments(": yesterday i fixed the build\n :today i will ship it"),
      attendees: ["Ana"])
    #expect(unnamed.people.isEmpty)
    let silent = Digest(segments: Self.segments("Ana: \nAna:    "), attendees: ["Ana"])
    #expect(silent.isEmpty)
    #expect(
      silent.json(meeting: "m")
        == #"{"meeting":"m","people":[{"name":"Ana","yesterday":[],"today":[],"blockers":[],"sources":{"yesterday":[],"today":[],"blockers":[]}}]}"#
    )
  }

  @Test func theJSONHasEachItemAndWhereItWasSaid() throws {
    let digest = Digest(
      segments: [
        .init(
          number: 3, speaker: "Ana", start: 12.25, text: "yesterday i wrote the \"guide\"\u{7}"),
        .init(number: 4, speaker: "Ana", start: 15, text: "i need ben to approve it"),
      ],
      attendees: ["Ana", "Ben"])
    let json = digest.json(meeting: "abc")
    let object = try #require(
      JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
    #expect(object["meeting"] as? String == "abc")
    let people = try #require(object["people"] as? [[String: Any]])
    #expect(people.first?["yesterday"] as? [String] == ["wrote the guide"])
    #expect(people.first?["blockers"] as? [String] == ["need ben to approve it"])
    let sources = try #require(people.first?["sources"] as? [String: [[String: Any]]])
    #expect(sources["yesterday"]?.first?["segment"] as? Int == 3)
    #expect(sources["yesterday"]?.first?["time"] as? Double == 12.25)
    #expect(sources["blockers"]?.first?["person"] as? String == "Ben")
    #expect((sources["blockers"]?.first?["reason"] as? String)?.contains("need ben") == true)
  }

  @Test func hostileTextNeverCrashesAndStaysBounded() throws {
    let long = Array(repeating: "yesterday i fixed it and then i will", count: 5_000).joined(
      separator: " ")
    let odd = [
      "", "'''", "- - -", "\u{0}\u{1}\u{202E}", "i", "and and and", "blocked", "need",
      "today today today", "i'll", String(repeating: "a", count: 100_000), "🙂 i will 🙂 ship",
      "yesterday", "no", "waiting for", "until ben", "can't until",
    ]
    let segments = ([long] + odd).enumerated().map { index, text in
      DigestSegment(number: index + 1, speaker: "Ana", start: .nan, text: text)
    }
    let digest = Digest(segments: segments, attendees: ["Ana", "Ben", ""])
    let json = digest.json(meeting: "\u{0}\"")
    #expect(try JSONSerialization.jsonObject(with: Data(json.utf8)) is [String: Any])
    for item in digest.people.flatMap({ $0.yesterday + $0.today + $0.blockers }) {
      #expect(item.text.split(separator: " ").count <= 14)
    }
  }
}
