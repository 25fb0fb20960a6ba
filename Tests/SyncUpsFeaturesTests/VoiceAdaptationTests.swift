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
      segment("Cy", 6, "four"), segment("Unknown", 8, "five"),
    ]
    let calls = LockIsolated<[String: [SpokenSpan]]>([:])
    let adapted = await withDependencies {
      $0.speakerAdapter.redecode = Self.hearingTheTransform(calls)
    } operation: {
      await VoiceAdaptation.redecode(
        segments, audioFile: URL(fileURLWithPath: "/nonexistent.flac"),
        attendees: [ana, ben, cy],
        adaptations: [
          ana.id: SpeakerAdaptation(seconds: 60, transform: Data("ana".utf8)),
          ben.id: SpeakerAdaptation(seconds: 60, transform: Data("ben".utf8)),
        ], vocabulary: [])
    }
    #expect(adapted.map(\.text) == ["ana", "ben", "ana", "four", "five"])
    #expect(adapted.map(\.speaker) == ["Ana", "Ben", "Ana", "Cy", "Unknown"])
    #expect(calls.value["ana"] == [SpokenSpan(start: 0, end: 2), SpokenSpan(start: 4, end: 6)])
    #expect(calls.value["ben"] == [SpokenSpan(start: 2, end: 4)])
    #expect(calls.value.count == 2)

    // With the team's transform, everyone without one of their own is heard with it.
    calls.setValue([:])
    let withTeam = await withDependencies {
      $0.speakerAdapter.redecode = Self.hearingTheTransform(calls)
    } operation: {
      await VoiceAdaptation.redecode(
        segments, audioFile: URL(fileURLWithPath: "/nonexistent.flac"),
        attendees: [ana, ben, cy],
        adaptations: [ana.id: SpeakerAdaptation(seconds: 60, transform: Data("ana".utf8))],
        team: SpeakerAdaptation(seconds: 90, transform: Data("team".utf8)), vocabulary: [])
    }
    #expect(withTeam.map(\.text) == ["ana", "team", "ana", "team", "team"])
    #expect(
      calls.value["team"] == [
        SpokenSpan(start: 2, end: 4), SpokenSpan(start: 6, end: 8), SpokenSpan(start: 8, end: 10),
      ])
    // A team's transform that was not kept is not used.
    let notKept = await withDependencies {
      $0.speakerAdapter.redecode = { _, _, _, _, _ in
        Issue.record("nothing to decode again")
        return []
      }
    } operation: {
      await VoiceAdaptation.redecode(
        segments, audioFile: URL(fileURLWithPath: "/nonexistent.flac"), attendees: [ana, ben, cy],
        adaptations: [:], team: .notKept(seconds: 90), vocabulary: [])
    }
    #expect(notKept == segments)
  }

  /// A decoder that hears, in every span, the transform's name as its one word, and notes the
  /// spans each transform decoded.
  static func hearingTheTransform(_ calls: LockIsolated<[String: [SpokenSpan]]>)
    -> @Sendable (URL, [SpokenSpan], Data?, [String], URL?) async throws -> [Utterance?]
  {
    { _, spans, transform, _, _ in
      let owner = String(decoding: transform ?? Data(), as: UTF8.self)
      calls.withValue { $0[owner, default: []] += spans }
      return spans.map { span in
        let word = Transcription.Word(
          word: owner, start: span.start, end: span.end, confidence: 1)
        return Utterance(start: span.start, end: span.end, text: owner, words: [word])
      }
    }
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

  /// Daily with Ana and Ben: Ana said 25 s in an older meeting and 10 s (six words) in the
  /// newest, each meeting's audio kept.
  static func twoMeetingsOfAna(thenBen: Bool = false) throws -> (SyncUpsDatabase, SyncUp) {
    let ana = Attendee(id: Attendee.ID(UUID(1)), name: "Ana")
    let ben = Attendee(id: Attendee.ID(UUID(2)), name: "Ben")
    func meeting(_ number: Int, _ segments: [Meeting.Segment]) -> Meeting {
      Meeting(
        id: Meeting.ID(UUID(10 + number)), date: Date(timeIntervalSince1970: Double(number)),
        transcript: "", segments: segments, audioFile: "audio/\(number).flac")
    }
    let ben3 = Meeting.Segment(speaker: "Ben", start: 0, end: 5, text: "no blockers for me today")
    let syncUp = SyncUp(
      id: SyncUp.ID(UUID(0)), attendees: [ana, ben],
      meetings: (thenBen ? [meeting(3, [ben3])] : []) + [
        meeting(
          2, [Meeting.Segment(speaker: "Ana", start: 0, end: 10, text: "We shipped the login page")]
        ),
        meeting(
          1,
          [
            Meeting.Segment(speaker: "Ana", start: 0, end: 25, text: "the export queue is slow"),
            Meeting.Segment(speaker: "Ben", start: 25, end: 30, text: "no blockers"),
          ]),
      ], title: "Daily")
    let database = try SyncUpsDatabase.inMemory()
    try database.add(syncUp)
    return (database, syncUp)
  }

  static func audioName(_ number: Int) -> String {
    Meeting.ID(UUID(10 + number)).rawValue.uuidString.lowercased() + ".flac"
  }

  /// A decoder that hears each meeting as it was said with a transform whose name is `good`,
  /// and the newest one as "we shipped a log in page" (three errors) otherwise; the transforms
  /// are named after the meetings they were estimated from. Asked for whole files only.
  static func decoders(good: String, estimated: LockIsolated<[[String]]>) -> (
    inout DependencyValues
  ) -> Void {
    // The store names a meeting's audio after the meeting: back to the meetings' numbers.
    @Sendable func number(_ file: URL) -> String {
      (1...2).first { file.lastPathComponent == audioName($0) }.map { "\($0).flac" }
        ?? file.lastPathComponent
    }
    let said = [
      "1.flac": [("the export queue is slow", 0.0), ("no blockers", 25.0)],
      "2.flac": [("We shipped the login page", 0.0)],
    ]
    return { values in
      values.dataDirectory = DataDirectory(url: URL(fileURLWithPath: "/data"))
      values.speakerAdapter.estimate = { recordings in
        let files = recordings.map { number($0.audioFile) }
        estimated.withValue { $0.append(files) }
        let seconds = recordings.flatMap(\.spans).reduce(0) { $0 + $1.end - $1.start }
        return .init(transform: Data(files.joined(separator: "+").utf8), seconds: seconds)
      }
      values.speakerAdapter.redecode = { file, spans, transform, vocabulary, teamModel in
        #expect(vocabulary == ["Ana", "Ben"] && teamModel == nil)
        #expect(spans.count == 1 && spans[0].start == 0)
        let hearsWell = transform.map { String(decoding: $0, as: UTF8.self) } == good
        let words = (said[number(file)] ?? []).flatMap { text, start in
          let heard = hearsWell || number(file) == "1.flac" ? text : "we shipped a log in page"
          return heard.split(separator: " ").enumerated().map { index, word in
            Transcription.Word(
              word: String(word), start: start + Double(index), end: start + Double(index) + 1,
              confidence: 1)
          }
        }
        return [Utterance(start: 0, end: 30, text: "", words: words)]
      }
    }
  }

  @Test("A transform that lowers the errors of the newest meeting's sentences is kept")
  func aTransformIsKeptWhenItLowersTheHeldOutErrors() async throws {
    let (database, syncUp) = try Self.twoMeetingsOfAna()
    let estimated = LockIsolated<[[String]]>([])
    let lines = await withDependencies(Self.decoders(good: "1.flac", estimated: estimated)) {
      await VoiceAdaptation.estimatePending(in: database)
    }
    // The trial is estimated without the held-out meeting; the transform kept, from all of it.
    // Ana's first, then the team's (Ana's and Ben's speech together).
    #expect(
      estimated.value == [["1.flac"], ["2.flac", "1.flac"], ["1.flac"], ["2.flac", "1.flac"]])
    #expect(
      lines == [
        "attendee 00000000: voice adapted from 35 s of speech (on their sentences of 1 "
          + "meeting held out in turn (5 words), 0 errors with it, 3 without)",
        "the team of sync-up 00000000: voice adapted from 40 s of speech (on their sentences of 1 "
          + "meeting held out in turn (5 words), 0 errors with it, 3 without)",
      ])
    let ana = syncUp.attendees[0].id
    #expect(
      try database.speakerAdaptations(syncUp.id)
        == [ana: SpeakerAdaptation(seconds: 35, transform: Data("2.flac+1.flac".utf8))])
    #expect(try database.learned(syncUp.id).people[ana]?.adaptationUsed == true)
    let team = SpeakerAdaptation(seconds: 40, transform: Data("2.flac+1.flac".utf8))
    #expect(try database.confirmedSpeech(limit: 300, team: true).first?.adaptedSeconds == 40)
    #expect(try database.teamAdaptation(syncUp.id) == team)
    #expect(try database.learned(syncUp.id).team == team)

    // Forgetting anyone forgets the team's too: it learned from their voice.
    try database.forgetLearned(attendee: syncUp.attendees[1].id)
    #expect(try database.teamAdaptation(syncUp.id) == nil)
    #expect(try database.speakerAdaptations(syncUp.id).count == 1)
    // The team learns again from what may still be learned: Ben's speech before it is not.
    let left = try database.confirmedSpeech(limit: 300, team: true)
    #expect(left.map(\.seconds) == [35] && left.first?.attendeeID == nil)
    #expect(left.first?.adaptedSeconds == nil)
  }

  @Test("A transform that does not lower them is not used, and not tried again until speech grows")
  func aTransformIsNotUsedWhenItDoesNotLowerTheHeldOutErrors() async throws {
    let (database, syncUp) = try Self.twoMeetingsOfAna()
    let estimated = LockIsolated<[[String]]>([])
    let lines = await withDependencies(Self.decoders(good: "none", estimated: estimated)) {
      await VoiceAdaptation.estimatePending(in: database)
    }
    #expect(estimated.value == [["1.flac"], ["1.flac"]])
    #expect(
      lines == [
        "attendee 00000000: voice adaptation not kept: on their sentences of 1 meeting "
          + "held out in turn (5 words), 3 errors with it, 3 without",
        "the team of sync-up 00000000: voice adaptation not kept: on their sentences of 1 "
          + "meeting held out in turn (5 words), 3 errors with it, 3 without",
      ])
    #expect(try database.speakerAdaptations(syncUp.id).isEmpty)
    let learned = try database.learned(syncUp.id)
    let ana = learned.people[syncUp.attendees[0].id]
    #expect(ana?.adaptationSeconds == 35 && ana?.adaptationUsed == false)
    #expect(learned.team == .notKept(seconds: 40))
    // Nothing new was said: nothing is estimated again.
    let again = await withDependencies(Self.decoders(good: "none", estimated: estimated)) {
      await VoiceAdaptation.estimatePending(in: database)
    }
    #expect(again.isEmpty && estimated.value.count == 2)
  }

  @Test("A team not adapted is tried again after its next meeting; a person waits for half again")
  func aTeamIsTriedAgainAfterEachMeeting() async throws {
    let (database, syncUp) = try Self.twoMeetingsOfAna(thenBen: true)
    try database.saveSpeakerAdaptations([syncUp.attendees[0].id: .notKept(seconds: 35)])
    try database.saveTeamAdaptation(syncUp.id, .notKept(seconds: 40))
    let estimated = LockIsolated<[[String]]>([])
    let lines = await withDependencies(Self.decoders(good: "none", estimated: estimated)) {
      await VoiceAdaptation.estimatePending(in: database)
    }
    // Ben's 5 s more: the team (45 s) is tried again, Ana (35 s, as before) is not.
    #expect(lines.count == 1 && lines[0].hasPrefix("the team of sync-up 00000000: "), "\(lines)")
    #expect(!estimated.value.isEmpty)
    #expect(try database.teamAdaptation(syncUp.id)?.seconds == 45)
  }
}
