import Foundation
import HummingbirdTesting
import SyncUpsWire
import Testing
import VoiceProfiles

@testable import SyncUpsServer

/// What laptops learned of attendees (`PersonDocument`): pushed, pulled by the team only, the
/// later clock winning whole, bounded and checked.
@Suite(
  .enabled(
    if: TestPostgres.available,
    "skipped: no PostgreSQL for the server's tests (.ci/postgres could not start one)"))
struct LearnedPeopleTests {
  static func voice(seconds: Double = 30) throws -> PersonDocument.Voice {
    let model = GaussianMixture(
      dimension: 2, weights: [0.5, 0.5], means: [0, 0, 1, 1], variances: [1, 1, 1, 1],
      counts: [10, 10])
    return PersonDocument.Voice(
      meetings: 1, seconds: seconds,
      model: try VoiceProfile(model: model, meetings: 1, seconds: seconds).encoded())
  }

  static let transform = Data("1\n1\n2\n1 0\n0 1\n0 0\n1 1\n".utf8)

  static func person(
    _ attendee: UUID, in syncUp: UUID, voice: PersonDocument.Voice?,
    adaptation: PersonDocument.Adaptation? = nil, forgotten: Date? = nil, at time: Int64
  ) -> PersonDocument {
    PersonDocument(
      attendeeID: attendee, syncUpID: syncUp, voice: voice, adaptation: adaptation,
      forgotten: forgotten, clock: Fixture.clock(time))
  }

  @Test(
    "what a writer learned of an attendee reaches the team's pulls, the later write wins whole, and a forgetting beats an older push"
  )
  func learnedIsSyncedLastWriterWins() async throws {
    let server = try await TestServer.make()
    let syncUp = Fixture.syncUp()
    let ana = syncUp.attendees.value[0].id
    try await server.test { http, _ in
      func pulled() async throws -> [PersonDocument] {
        try await http.send(.get, "/api/v1/sync/changes?since=0", token: server.readerToken)
          .decode(ChangesPage.self).people
      }
      let learned = Self.person(
        ana, in: syncUp.id, voice: try Self.voice(),
        adaptation: .init(seconds: 42, transform: Self.transform), at: 5)
      let first = try await http.push(
        Push(device: UUID(), pushID: UUID(), syncUps: [syncUp], people: [learned]),
        token: server.writerToken)
      #expect(first.status == .ok, "\(first.text)")
      #expect(try await pulled() == [learned])
      let forgotten = Self.person(
        ana, in: syncUp.id, voice: nil, forgotten: Date(timeIntervalSince1970: 1_764_200_000),
        at: 7)
      let older = Self.person(ana, in: syncUp.id, voice: try Self.voice(seconds: 90), at: 6)
      for document in [forgotten, older] {
        let answer = try await http.push(
          Push(device: UUID(), pushID: UUID(), people: [document]), token: server.writerToken)
        #expect(answer.status == .ok, "\(answer.text)")
      }
      #expect(try await pulled() == [forgotten])
      // Someone no longer in the sync-up is passed over: nothing of them is kept.
      let stranger = Self.person(UUID(), in: syncUp.id, voice: try Self.voice(), at: 8)
      let passed = try await http.push(
        Push(device: UUID(), pushID: UUID(), people: [stranger]), token: server.writerToken)
      #expect(passed.status == .ok)
      #expect(try await pulled() == [forgotten])
    }
  }

  @Test(
    "a voice model over the bound, bytes that are no voice model and a transform that is not one are refused with a 4xx and write nothing"
  )
  func garbageIsRefused() async throws {
    let server = try await TestServer.make()
    let syncUp = Fixture.syncUp()
    let ana = syncUp.attendees.value[0].id
    try await server.test { http, store in
      let pushed = try await http.push(
        Push(device: UUID(), pushID: UUID(), syncUps: [syncUp]), token: server.writerToken)
      #expect(pushed.status == .ok)
      let version = try await store.currentVersion()
      let huge = PersonDocument.Voice(
        meetings: 1, seconds: 1, model: Data(repeating: 0x20, count: 10 << 20))
      let inconsistent =
        #"{"model":{"dimension":3,"weights":[1],"means":[0],"#
        + #""variances":[1],"counts":[1]},"meetings":1,"seconds":1}"#
      let cases: [(PersonDocument, String)] = [
        (Self.person(ana, in: syncUp.id, voice: huge, at: 5), "at most"),
        (
          Self.person(
            ana, in: syncUp.id,
            voice: .init(meetings: 1, seconds: 1, model: Data([0xFF, 0x00, 0x7B])), at: 5),
          "voice model is not one syncups can read"
        ),
        (
          Self.person(
            ana, in: syncUp.id,
            voice: .init(meetings: 1, seconds: 1, model: Data(inconsistent.utf8)), at: 5),
          "voice model is not one syncups can read"
        ),
        (
          Self.person(
            ana, in: syncUp.id, voice: nil,
            adaptation: .init(seconds: 3, transform: Data("rm -rf /".utf8)), at: 5),
          "adaptation is not a transform file"
        ),
      ]
      for (document, why) in cases {
        let answer = try await http.push(
          Push(device: UUID(), pushID: UUID(), people: [document]), token: server.writerToken)
        #expect((400..<500).contains(answer.status.code), "\(answer.status)")
        #expect(answer.errorMessage?.contains(why) == true, "\(answer.text.prefix(200))")
      }
      #expect(try await store.currentVersion() == version)
    }
  }

  @Test(
    "what is learned of another team's attendee cannot be pushed (409) and never reaches another team's pull"
  )
  func teamsAreApart() async throws {
    let teams = try await TeamIsolationTests.TwoTeams.make()
    let ours = teams.ours.syncUp
    let ana = ours.attendees.value[0].id
    try await teams.server.test { http, _ in
      let mine = Self.person(ana, in: ours.id, voice: try Self.voice(), at: 5)
      let pushed = try await http.send(
        .post, "/api/v1/sync/push", token: teams.server.writerToken,
        headers: [TeamIsolationTests.header: "team"],
        body: WireJSON.encoder().encode(Push(device: UUID(), pushID: UUID(), people: [mine])))
      #expect(pushed.status == .ok, "\(pushed.text)")
      // Into our sync-up from blue; and our attendee's id under blue's sync-up.
      for document in [
        Self.person(ana, in: ours.id, voice: nil, forgotten: Date(), at: 9),
        Self.person(ana, in: teams.theirs.syncUp.id, voice: nil, forgotten: Date(), at: 9),
      ] {
        let answer = try await http.push(
          Push(device: UUID(), pushID: UUID(), people: [document]), token: teams.cy)
        #expect(answer.status == .conflict, "\(answer.text)")
        #expect(answer.errorMessage?.contains("another team's") == true, "\(answer.text)")
      }
      let blue = try await http.send(.get, "/api/v1/sync/changes?since=0", token: teams.dee)
      #expect(try blue.decode(ChangesPage.self).people.isEmpty)
      let team = try await http.send(
        .get, "/api/v1/sync/changes?since=0", token: teams.server.readerToken)
      #expect(try team.decode(ChangesPage.self).people == [mine])
    }
  }
}
