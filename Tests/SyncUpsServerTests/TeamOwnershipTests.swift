import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import SyncUpsWire
import Testing

@testable import SyncUpsServer

/// Documents belong to one team: a push that names a sync-up, meeting or attendee id that is
/// another team's is refused with 409 in words (such a document can never be saved, however
/// often it is pushed) and writes nothing; what is learned of an attendee is kept only for an
/// attendee of a sync-up in the pushing team.
@Suite(.enabled(if: TestPostgres.available, "needs PostgreSQL (.ci/postgres)"))
struct TeamOwnershipTests {
  static func person(_ attendee: UUID, in syncUp: UUID, at time: Int64) -> PersonDocument {
    LearnedPeopleTests.person(attendee, in: syncUp, voice: nil, forgotten: Date(), at: time)
  }

  static func lower(_ id: UUID) -> String { id.uuidString.lowercased() }

  @Test func aSyncUpMeetingOrAttendeeIdOfAnotherTeamIs409InWords() async throws {
    let teams = try await TeamIsolationTests.TwoTeams.make()
    let (red, blue) = (teams.ours, teams.theirs)
    let redAttendee = red.syncUp.attendees.value[0].id
    let cases: [(documents: Push, words: String)] = [
      (
        Push(device: UUID(), pushID: UUID(), syncUps: [Fixture.syncUp(red.syncUp.id, at: 99)]),
        "sync-up \(Self.lower(red.syncUp.id)) is another team's"
      ),
      (
        Push(
          device: UUID(), pushID: UUID(),
          meetings: [Fixture.meeting(in: red.syncUp.id, said: [("Cy", "mine now")], at: 99)]),
        "sync-up \(Self.lower(red.syncUp.id)) is another team's"
      ),
      (
        Push(
          device: UUID(), pushID: UUID(),
          meetings: [
            Fixture.meeting(red.meeting.id, in: blue.syncUp.id, said: [("Cy", "moved")], at: 99)
          ]),
        "meeting \(Self.lower(red.meeting.id)) is in another team's sync-up"
      ),
      (
        Push(
          device: UUID(), pushID: UUID(),
          people: [Self.person(redAttendee, in: blue.syncUp.id, at: 99)]),
        "attendee \(Self.lower(redAttendee)) is another team's"
      ),
      (
        Push(
          device: UUID(), pushID: UUID(),
          people: [Self.person(redAttendee, in: red.syncUp.id, at: 99)]),
        "sync-up \(Self.lower(red.syncUp.id)) is another team's"
      ),
    ]
    try await teams.server.test { http, store in
      let version = try await store.currentVersion()
      for (push, words) in cases {
        let answer = try await http.push(push, token: teams.cy)
        #expect(answer.status == .conflict, "\(answer.text)")
        #expect(answer.errorMessage?.contains(words) == true, "\(answer.text)")
        #expect(answer.errorMessage?.contains("an id belongs to one team") == true)
      }
      #expect(try await store.currentVersion() == version)
      let red = try await http.send(
        .get, "/api/v1/sync/changes?since=0", token: teams.server.readerToken
      ).decode(ChangesPage.self)
      #expect(red.syncUps.map(\.title.value) == ["Morning Sync"])
      #expect(red.meetings.map(\.syncUpID) == [teams.ours.syncUp.id])
      #expect(red.people.isEmpty)
    }
  }

  @Test func whatIsLearnedIsKeptOnlyForAnAttendeeOfItsOwnSyncUp() async throws {
    let teams = try await TeamIsolationTests.TwoTeams.make()
    let blue = teams.theirs.syncUp
    let other = Fixture.syncUp(title: "Blue Retro")
    let attendee = blue.attendees.value[0].id
    try await teams.server.test { http, _ in
      let added = try await http.push(
        Push(device: UUID(), pushID: UUID(), syncUps: [other]), token: teams.cy)
      #expect(added.status == .ok, "\(added.text)")
      // Blue's own attendee, but under another of blue's sync-ups: never theirs there.
      let elsewhere = try await http.push(
        Push(device: UUID(), pushID: UUID(), people: [Self.person(attendee, in: other.id, at: 9)]),
        token: teams.cy)
      #expect(elsewhere.status == .conflict, "\(elsewhere.text)")
      #expect(
        elsewhere.errorMessage?.contains(
          "attendee \(Self.lower(attendee)) is not in sync-up \(Self.lower(other.id))") == true,
        "\(elsewhere.text)")
      // Under their own sync-up: kept; an attendee who is nowhere (removed meanwhile): passed
      // over, nothing kept.
      let kept = try await http.push(
        Push(
          device: UUID(), pushID: UUID(),
          people: [
            Self.person(attendee, in: blue.id, at: 10), Self.person(UUID(), in: blue.id, at: 10),
          ]), token: teams.cy)
      #expect(kept.status == .ok, "\(kept.text)")
      let pulled = try await http.send(.get, "/api/v1/sync/changes?since=0", token: teams.dee)
        .decode(ChangesPage.self)
      #expect(pulled.people.map(\.attendeeID) == [attendee])
      #expect(pulled.people.map(\.syncUpID) == [blue.id])
    }
  }
}
