import Foundation
import SyncUpsFeatures
import Testing

@Suite
struct SearchTests {
  let database = try! SyncUpsDatabase.inMemory()
  let morning = makeSyncUp("Morning Sync")
  let platform = makeSyncUp("Platform")
  let monday = Date(timeIntervalSince1970: 1_790_000_000)
  let friday = Date(timeIntervalSince1970: 1_790_345_600)

  init() throws {
    var morning = self.morning
    morning.meetings = [
      makeMeeting(
        date: friday, count: 2,
        texts: ["the staging server is down again", "we should migrate the logs"]),
      makeMeeting(
        date: monday, count: 2, texts: ["the server in staging is slow", "migration finished"]),
    ]
    var platform = self.platform
    platform.meetings = [
      makeMeeting(
        date: friday, count: 2, texts: ["staging server staging server staging server", "lunch"])
    ]
    try insert([morning, platform], into: database)
  }

  @Test func aPhraseMatchesOnlyItsWordsInOrderBestFirst() throws {
    let hits = try database.search(TranscriptSearch("\"staging server\""))
    #expect(hits.count == 2)
    #expect(hits.first?.syncUpTitle == "Platform")  // three matches in one short segment
    #expect(hits.allSatisfy { $0.text.contains("[staging server]") }, "\(hits.map(\.text))")
    #expect(!hits.contains { $0.text.contains("in staging is slow") })
  }

  @Test func wordsMatchInAnyOrderAndPrefixesMatchTheirWords() throws {
    let words = try database.search(TranscriptSearch("server staging"))
    #expect(words.count == 3)
    let prefix = try database.search(TranscriptSearch("migr*"))
    #expect(Set(prefix.map(\.text)) == ["we should [migrate] the logs", "[migration] finished"])
  }

  @Test func filtersBySyncUpSpeakerAndDate() throws {
    let inMorning = try database.search(TranscriptSearch("staging", syncUpID: morning.id))
    #expect(inMorning.count == 2)
    #expect(inMorning.allSatisfy { $0.syncUpID == morning.id })
    let byBen = try database.search(TranscriptSearch("migr*", speaker: "ben"))
    #expect(byBen.map(\.speaker) == ["Ben", "Ben"])
    let byAna = try database.search(TranscriptSearch("migr*", speaker: "ANA"))
    #expect(byAna.isEmpty)
    let recent = try database.search(TranscriptSearch("staging", since: friday))
    #expect(recent.count == 2)
    #expect(recent.allSatisfy { $0.date == friday })
    let early = try database.search(TranscriptSearch("staging", until: friday))
    #expect(early.map(\.date) == [monday])
  }

  @Test func aHitNamesItsMeetingAndTimes() throws {
    let hit = try #require(try database.search(TranscriptSearch("slow")).first)
    #expect(hit.syncUpTitle == "Morning Sync")
    #expect(hit.date == monday)
    #expect(hit.speaker == "Ana")
    #expect(hit.start == 0)
    #expect(hit.end == 4)
    let meeting = try database.exportedSyncUps()[id: morning.id]?.meetings[id: hit.meetingID]
    #expect(meeting?.segments.first?.text == "the server in staging is slow")
  }

  @Test func queryPunctuationIsNeverASyntaxError() throws {
    for text in ["(", "\"unclosed", "a AND", "NOT", "*", "-x", "col:x", "\"\"", "   "] {
      _ = try database.search(TranscriptSearch(text))
    }
    #expect(try database.search(TranscriptSearch("\"staging server")).count == 2)
  }

  @Test func unfinishedMeetingsAreNotFound() throws {
    let meeting = Meeting(id: Meeting.ID(UUID()), date: friday, transcript: "")
    try database.begin(meeting, syncUpID: morning.id)
    try database.append(
      .init(speaker: "Ana", start: 0, end: 1, text: "zebra"), meetingID: meeting.id)
    #expect(try database.search(TranscriptSearch("zebra")).isEmpty)
    #expect(try database.search(TranscriptSearch("zebra", syncUpID: morning.id)).isEmpty)
    try database.finish(meeting.id)
    #expect(try database.search(TranscriptSearch("zebra")).count == 1)
  }

  /// The limit keeps the best matches; among equally good ones, the most recently recorded.
  @Test func theLimitKeepsTheBestAndAmongEqualsTheNewest() throws {
    let days = (1...6).map { monday.addingTimeInterval(Double($0) * 86_400) }
    for (index, day) in days.enumerated() {
      let meeting = Meeting(id: Meeting.ID(UUID()), date: day, transcript: "")
      try database.begin(meeting, syncUpID: morning.id)
      // The third meeting's is the best match (a short segment); the others tie.
      let text = index == 2 ? "retro" : "retro notes for the team today"
      try database.append(
        .init(speaker: "Ana", start: 0, end: 1, text: text), meetingID: meeting.id)
      try database.finish(meeting.id)
    }
    let hits = try database.search(TranscriptSearch("retro", limit: 3))
    #expect(hits.map(\.date) == [days[2], days[5], days[4]])
    #expect(
      hits.map(\.text) == [
        "[retro]", "[retro] notes for the team today", "[retro] notes for the team today",
      ])
    let filtered = try database.search(TranscriptSearch("retro", syncUpID: morning.id, limit: 3))
    #expect(filtered == hits)
  }
}
