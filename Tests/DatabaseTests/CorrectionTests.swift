import Foundation
import GRDB
import SyncUpsFeatures
import Testing

/// Corrections in the database: the correction is what the segment says (search, exports),
/// what was recognised is kept beside it until it is undone, and word times follow the text.
@Suite
struct CorrectionTests {
  let database = try! SyncUpsDatabase.inMemory()
  let meeting = makeMeeting(count: 3)

  init() throws {
    try insert([makeSyncUp("Morning Sync", meetings: [meeting])], into: database)
  }

  func segments() throws -> [Meeting.Segment] {
    try database.writer.read { db in try MeetingTranscriptRequest(meetingID: meeting.id).fetch(db)
    }?
    .segments ?? []
  }

  @Test func theOriginalIsKeptAndSearchAndExportsSeeTheCorrection() throws {
    let recognised = meeting.segments[2]
    let saved = try database.correctSegment(
      meeting.id, number: 3, SegmentChange(speaker: "Ana", text: "the Grafana server is down"))
    #expect(saved.speaker == "Ana" && saved.text == "the Grafana server is down")
    #expect(
      saved.original
        == .init(speaker: recognised.speaker, text: recognised.text, words: recognised.words))
    #expect(try segments()[2] == saved)
    #expect(try segments()[2].recognised == recognised)

    #expect(try database.search(TranscriptSearch("grafana")).map(\.segment) == [2])
    #expect(try database.search(TranscriptSearch("staging")).isEmpty)
    // The export holds the correction, and what was recognised beside it.
    let file = try JSONSerialization.jsonObject(with: try database.export()) as? [String: Any]
    let syncUps = file?["syncUps"] as? [[String: Any]]
    let meetings = syncUps?.first?["meetings"] as? [[String: Any]]
    let exported = try #require((meetings?.first?["segments"] as? [[String: Any]])?[2])
    #expect(exported["text"] as? String == "the Grafana server is down")
    #expect((exported["original"] as? [String: Any])?["text"] as? String == recognised.text)

    // Undone: the recognition again, nothing kept beside it, and search follows.
    let restored = try database.restoreRecognition(meeting.id, number: 3)
    #expect(restored == recognised)
    #expect(try segments() == meeting.segments)
    #expect(try database.search(TranscriptSearch("grafana")).isEmpty)
    #expect(try database.search(TranscriptSearch("staging")).map(\.segment) == [2])
  }

  @Test func wordsThatStillMatchKeepTheirTimesAndNewOnesShareTheReplacedTime() throws {
    // "the staging server is down": the, is and down are still there, in that order.
    let heard = meeting.segments[2].words
    let saved = try database.correctSegment(
      meeting.id, number: 3, SegmentChange(text: "The Grafana box is down!"))
    let words = saved.words
    #expect(words.map(\.word) == ["The", "Grafana", "box", "is", "down!"])
    #expect(words[0].start == heard[0].start && words[0].end == heard[0].end)
    #expect(words[3].start == heard[3].start && words[4].end == heard[4].end)
    // The two new words fill the time between "the" and "is", in order, the longer one longer.
    #expect(words[1].start == heard[0].end && abs(words[2].end - heard[3].start) < 1e-9)
    #expect(words[1].end - words[1].start > words[2].end - words[2].start)
    #expect(zip(words, words.dropFirst()).allSatisfy { $0.end <= $1.start })
    #expect(words.allSatisfy { $0.start >= saved.start && $0.end <= saved.end })
  }

  @Test func aCorrectionEntersTheOutboxAndNothingIsWrittenWhenNothingChanges() throws {
    func generation() throws -> Int? {
      try database.writer.read { db in
        try Int.fetchOne(
          db, sql: "SELECT generation FROM syncOutbox WHERE kind = 'meeting' AND entityId = ?",
          arguments: [meeting.id])
      }
    }
    let before = try generation()
    try database.correctSegment(meeting.id, number: 1, SegmentChange(speaker: "Ben"))
    let after = try #require(try generation())
    #expect(after > (before ?? 0))
    try database.correctSegment(meeting.id, number: 1, SegmentChange(speaker: "Ben"))
    #expect(try generation() == after)
  }

  @Test func badSegmentsAndPendingSentencesAreRefusedAndChangeNothing() throws {
    #expect(throws: CorrectionProblem.noSuchSegment(number: 4, count: 3)) {
      try database.correctSegment(meeting.id, number: 4, SegmentChange(text: "x"))
    }
    #expect(throws: CorrectionProblem.noSuchMeeting) {
      try database.correctSegment(Meeting.ID(UUID()), number: 1, SegmentChange(text: "x"))
    }
    try database.deferSentencePass(meeting.id)
    #expect(throws: CorrectionProblem.sentencesPending) {
      try database.correctSegment(meeting.id, number: 1, SegmentChange(text: "x"))
    }
    #expect(try segments() == meeting.segments)
  }
}
