import AudioCore
import ConcurrencyExtras
import Foundation
import GRDB
import MeetingRecorder
import SyncUpsFeatures
import TestSupport
import Testing

/// A meeting saved before its second pass caught up keeps its live transcript until the pass,
/// run again over its audio, replaces it: once, in one transaction, and never for a meeting
/// that was deleted meanwhile.
@Suite
struct SentencePassTests {
  let live = [
    Meeting.Segment(speaker: "Ana", start: 0.5, end: 2.0, text: "i fixed the"),
    Meeting.Segment(speaker: "Ana", start: 2.1, end: 3.9, text: "build today"),
    Meeting.Segment(speaker: "Ben", start: 6.2, end: 8.0, text: "no blockers"),
  ]
  let sentences = [
    Utterance(start: 0.5, end: 3.9, text: "i fixed the build today", words: []),
    Utterance(start: 6.1, end: 8.0, text: "no blockers", words: []),
  ]

  /// A finished recording with the live segments and its audio, its pass noted as late.
  private func lateMeeting(in database: SyncUpsDatabase) throws -> Meeting.ID {
    let syncUp = makeSyncUp()
    try insert([syncUp], into: database)
    let id = Meeting.ID(UUID())
    let meeting = Meeting(
      id: id, date: Date(timeIntervalSince1970: 1_790_000_000), transcript: "",
      audioFile: DataDirectory.audioFile(of: id))
    try database.begin(meeting, syncUpID: syncUp.id)
    for segment in live { try database.append(segment, meetingID: meeting.id) }
    try database.deferSentencePass(meeting.id)
    #expect(try database.pendingSentencePasses().isEmpty, "not before it is finished")
    try database.finish(meeting.id)
    return meeting.id
  }

  private func transcript(_ id: Meeting.ID, _ database: SyncUpsDatabase) throws -> Meeting? {
    try readSync(database) { db in try MeetingTranscriptRequest(meetingID: id).fetch(db) }
  }

  @Test func thePassReplacesTheLiveTranscriptOnce() async throws {
    let database = try SyncUpsDatabase.inMemory()
    let id = try lateMeeting(in: database)
    #expect(try database.pendingSentencePasses() == [id])
    let files = LockIsolated<[URL]>([])
    let lines = await withDependencies {
      $0.dataDirectory = DataDirectory(url: URL(fileURLWithPath: "/data"))
      $0.meetingRecorder.sentences = { url, _, _ in
        files.withValue { $0.append(url) }
        return sentences
      }
    } operation: {
      await SentencePass.runPending(in: database)
    }
    #expect(
      files.value == [
        URL(fileURLWithPath: "/data").appendingPathComponent(
          DataDirectory.audioFile(of: id))
      ])
    #expect(lines.count == 1)
    #expect(lines.first?.hasSuffix("the live transcript was replaced by 2 whole sentences") == true)
    let saved = try #require(try transcript(id, database))
    #expect(saved.segments.map(\.speaker) == ["Ana", "Ben"])
    #expect(saved.segments.map(\.text) == ["i fixed the build today", "no blockers"])
    #expect(saved.transcript == "i fixed the build today no blockers")
    #expect(try database.pendingSentencePasses().isEmpty)
    // Done once: a second run finds nothing to do.
    #expect(try database.finishSentencePass(id, sentences: []) == false)
  }

  @Test func aFailedPassKeepsTheLiveTranscriptAndSaysSo() async throws {
    struct Unreadable: Error, CustomStringConvertible {
      var description: String { "cannot read audio/late.flac" }
    }
    let database = try SyncUpsDatabase.inMemory()
    let id = try lateMeeting(in: database)
    let lines = await withDependencies {
      $0.meetingRecorder.sentences = { _, _, _ in throw Unreadable() }
    } operation: {
      await SentencePass.runPending(in: database)
    }
    #expect(
      lines.first?.hasSuffix(
        "the whole-sentence pass failed (cannot read audio/late.flac); the live transcript stays")
        == true)
    #expect(try transcript(id, database)?.segments == live)
    #expect(try database.pendingSentencePasses().isEmpty)
  }

  @Test func aDeletedMeetingTakesItsPassWithIt() throws {
    let database = try SyncUpsDatabase.inMemory()
    let id = try lateMeeting(in: database)
    let syncUpIDs = try readSync(database) { db in try SyncUpsRequest().fetch(db) }.ids
    _ = try database.deleteSyncUps(Array(syncUpIDs))
    #expect(try database.pendingSentencePasses().isEmpty)
    #expect(
      try database.finishSentencePass(id, sentences: SentencePass.attribute(sentences, like: live))
        == false)
  }

  /// Each sentence is said by the speaker of the live segment it starts in: one that runs on
  /// into the next speaker's words stays with the first; one in a pause goes to whoever spoke
  /// last; one that starts a moment early is not given to the speaker before.
  @Test func sentencesTakeTheSpeakersOfTheLiveSegments() {
    let spanning = Utterance(start: 1.8, end: 7.0, text: "a long one", words: [])
    let between = Utterance(start: 5.0, end: 5.5, text: "in a pause", words: [])
    let early = Utterance(start: 6.0, end: 8.0, text: "no blockers", words: [])
    let first = Utterance(start: 0.1, end: 1.0, text: "i fixed", words: [])
    let attributed = SentencePass.attribute(
      sentences + [spanning, between, early, first], like: live)
    #expect(attributed.map(\.speaker) == ["Ana", "Ben", "Ana", "Ana", "Ben", "Ana"])
    #expect(SentencePass.attribute(sentences, like: []).map(\.speaker) == ["Unknown", "Unknown"])
  }
}
