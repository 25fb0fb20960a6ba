import Foundation
import GRDB
import SyncUpsFeatures
import SyncUpsWire
import Testing

@testable import TeamSync

/// A correction is a change like any other: it enters the outbox, reaches the server with what
/// was recognised beside it, and another laptop pulls both.
@Suite("Team sync: corrections")
struct CorrectionSyncTests {
  @Test func aCorrectionReachesTheServerAndAnotherLaptop() async throws {
    let server = FakeTeamServer()
    let a = try Laptop()
    let b = try Laptop()
    let syncUp = standup()
    try a.database.add(syncUp)
    let heard = segment("Ana", "the staging server is down", at: 1)
    let id = try a.record(into: syncUp.id, segments: [heard, segment("Ben", "thanks", at: 5)])
    _ = try await a.sync(server)
    _ = try await b.sync(server)

    let corrected = try a.database.correctSegment(
      id, number: 1, SegmentChange(speaker: "Ben", text: "the grafana server is down"))
    #expect(try a.outbox().map(\.entityId) == [id.rawValue.lowercasedString])
    let report = try await a.sync(server)
    #expect(report.pushedMeetings == 1)

    let onServer = try #require(await server.meeting(id.rawValue))
    #expect(onServer.segments[0].speaker == "Ben")
    #expect(onServer.segments[0].text == "the grafana server is down")
    #expect(
      onServer.segments[0].original?.text == "the staging server is down"
        && onServer.segments[0].original?.speaker == "Ana")
    #expect(onServer.segments[0].words.map(\.text) == corrected.words.map(\.word))

    let pulled = try await b.sync(server)
    #expect(pulled.pulledMeetings == 1)
    let onB = try #require(
      try await b.database.writer.read { try MeetingTranscriptRequest(meetingID: id).fetch($0) })
    #expect(onB.segments[0] == corrected)
    #expect(onB.segments[0].recognised == heard)
    #expect(try b.database.search(TranscriptSearch("grafana")).map(\.meetingID) == [id])
    #expect(try b.database.search(TranscriptSearch("staging")).isEmpty)
    // The pulled correction does not bounce back.
    #expect(try b.outbox().isEmpty)

    // Undone on B: A pulls the recognition again.
    try b.database.restoreRecognition(id, number: 1)
    _ = try await b.sync(server)
    _ = try await a.sync(server)
    let onA = try #require(
      try await a.database.writer.read { try MeetingTranscriptRequest(meetingID: id).fetch($0) })
    #expect(onA.segments[0] == heard)
  }

  @Test("two laptops correcting different segments of one meeting both keep theirs")
  func correctionsOfDifferentSegmentsMerge() async throws {
    let server = FakeTeamServer()
    let a = try Laptop()
    let b = try Laptop()
    let syncUp = standup()
    try a.database.add(syncUp)
    let said = [
      segment("Ana", "the staging server is down", at: 1), segment("Ben", "thanks", at: 5),
      segment("Ana", "see you tomorrow", at: 8),
    ]
    let id = try a.record(into: syncUp.id, segments: said)
    _ = try await a.sync(server)
    _ = try await b.sync(server)

    let first = try a.database.correctSegment(
      id, number: 1, SegmentChange(text: "the grafana server is down"))
    let second = try b.database.correctSegment(id, number: 2, SegmentChange(speaker: "Ana"))
    _ = try await a.sync(server)
    let onB = try await b.sync(server)
    // B pulled A's correction of the first segment and kept its own of the second.
    #expect(onB.changedSegments == [id.rawValue: [0]])
    _ = try await a.sync(server)

    for laptop in [a, b] {
      let meeting = try #require(
        try await laptop.database.writer.read {
          try MeetingTranscriptRequest(meetingID: id).fetch($0)
        })
      #expect(meeting.segments == [first, second, said[2]])
      #expect(try laptop.outbox().isEmpty)
    }
    let onServer = try #require(await server.meeting(id.rawValue))
    #expect(onServer.segments.map(\.text) == [first.text, "thanks", "see you tomorrow"])
    #expect(onServer.segments.map(\.speaker) == ["Ana", "Ana", "Ana"])
  }

  @Test("the same segment corrected on two laptops keeps the later correction")
  func theSameSegmentKeepsTheLaterCorrection() async throws {
    let server = FakeTeamServer()
    let a = try Laptop()
    let b = try Laptop()
    let syncUp = standup()
    try a.database.add(syncUp)
    let said = [segment("Ana", "the staging server is down", at: 1), segment("Ben", "ok", at: 5)]
    let id = try a.record(into: syncUp.id, segments: said)
    _ = try await a.sync(server)
    _ = try await b.sync(server)

    try b.database.correctSegment(id, number: 1, SegmentChange(text: "the stage server is down"))
    // A corrects it later (a later clock), but pushes first.
    try await Task.sleep(for: .milliseconds(5))
    let later = try a.database.correctSegment(
      id, number: 1, SegmentChange(text: "the grafana server is down"))
    _ = try await a.sync(server)
    _ = try await b.sync(server)
    _ = try await a.sync(server)
    for laptop in [a, b] {
      let meeting = try #require(
        try await laptop.database.writer.read {
          try MeetingTranscriptRequest(meetingID: id).fetch($0)
        })
      #expect(meeting.segments == [later, said[1]])
    }
    #expect(try #require(await server.meeting(id.rawValue)).segments[0].text == later.text)
  }
}
