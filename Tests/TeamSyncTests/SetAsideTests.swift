import Foundation
import GRDB
import SyncClient
import SyncUpsFeatures
import SyncUpsWire
import Testing

@testable import SyncUpsStore
@testable import TeamSync

/// A document the team server refuses for good (404, 409, 422 naming it) is set aside: said
/// once, kept here, listed by the status, left out of the next pushes while the rest goes on,
/// and tried again at its next change or `retrySetAside`. Transient failures keep the retry.
@Suite("Team sync: documents refused for good are set aside")
struct SetAsideTests {
  /// The words the real server refuses an attendee id of another team with (409).
  static func anotherTeams(_ syncUp: SyncUp) -> String {
    "the attendee '\(syncUp.attendees[0].name)' of sync-up \(syncUp.id.rawValue.uuidString.lowercased()) has "
      + "the id \(syncUp.attendees[0].id.rawValue.uuidString.lowercased()), which is another team's; an id "
      + "belongs to one team: remove the attendee and add them again, which gives them a new id"
  }

  @Test func aSyncUpRefusedForGoodIsSetAsideOnceAndTheRestGoesOn() async throws {
    let server = FakeTeamServer()
    let laptop = try Laptop()
    let (refused, other) = (standup("Refused"), standup("Other"))
    try laptop.database.add(refused)
    try laptop.database.add(other)
    try laptop.record(into: refused.id, segments: [segment("Ana", "held back", at: 1)])
    try laptop.record(into: other.id, segments: [segment("Ana", "goes through", at: 1)])
    await server.refuse(refused.id.rawValue, status: 409, Self.anotherTeams(refused))

    let first = try await laptop.sync(server)
    #expect(first.setAside.count == 1, "\(first.line)")
    #expect(first.line.contains("set aside 1 document"), "\(first.line)")
    #expect(first.line.contains("sync-up 'Refused' (409: the attendee 'Ana'"), "\(first.line)")
    #expect(first.pushedSyncUps == 1 && first.pushedMeetings == 1, "\(first.line)")
    #expect(await server.syncUp(other.id.rawValue) != nil)
    #expect(await server.syncUp(refused.id.rawValue) == nil)
    #expect(await server.meetings.count == 1)
    // Kept here: its outbox row, its meeting's, its rows; listed with the server's words.
    #expect(try laptop.outbox().map(\.kind) == ["syncUp", "meeting"])
    #expect(try laptop.syncUps().map(\.title).sorted() == ["Other", "Refused"])
    let status = try TeamSyncStatus.read(laptop.database)
    #expect(status.setAside.map(\.what) == ["sync-up 'Refused'"])
    #expect(status.setAside.first?.reason.hasPrefix("409: the attendee 'Ana' of sync-up") == true)
    #expect(status.waiting == 1, "its meeting waits with it")

    // Said once: the next sync sends nothing of it and says nothing of it.
    let bodies = await server.bodies.count
    let second = try await laptop.sync(server)
    #expect(second.line == "up to date: nothing to push or pull", "\(second.line)")
    #expect(await server.bodies.count == bodies)

    // Its next change tries it again, with its meeting.
    await server.stopRefusing(refused.id.rawValue)
    var renamed = refused
    renamed.title = "Refused No More"
    _ = try laptop.database.edit(from: refused, to: renamed)
    let third = try await laptop.sync(server)
    #expect(third.setAside.isEmpty && third.pushedSyncUps == 1 && third.pushedMeetings == 1)
    #expect(try laptop.outbox().isEmpty)
    #expect(try TeamSyncStatus.read(laptop.database).setAside.isEmpty)
    #expect(await server.syncUp(refused.id.rawValue)?.title.value == "Refused No More")
  }

  /// Break 2 of issue 43: what is learned of an attendee the server says is not here (404)
  /// blocked every sync; it is set aside, and the meetings recorded after it go.
  @Test func aPersonDocumentRefusedForGoodNeverBlocksTheMeetings() async throws {
    let server = FakeTeamServer()
    let laptop = try Laptop()
    let syncUp = standup()
    let ana = syncUp.attendees[0].id
    try laptop.database.add(syncUp)
    _ = try await laptop.sync(server)
    try laptop.database.forgetLearned(attendee: ana)
    await server.refuse(
      ana.rawValue, status: 404, "there is no attendee \(ana.rawValue.uuidString) here")
    try laptop.record(into: syncUp.id, segments: [segment("Ana", "recorded later", at: 1)])
    let report = try await laptop.sync(server)
    #expect(report.pushedMeetings == 1, "\(report.line)")
    #expect(
      report.setAside == [
        "what is learned of 'Ana' in 'Morning Sync' (404: there is no attendee \(ana.rawValue.uuidString) here)"
      ])
    #expect(await server.meetings.count == 1)
    #expect(try TeamSyncStatus.read(laptop.database).waiting == 0)
    // `team retry` tries it again: refused again, it is set aside again, said again.
    #expect(try TeamSyncStatus.retrySetAside(laptop.database) == 1)
    let again = try await laptop.sync(server)
    #expect(again.setAside.count == 1, "\(again.line)")
    await server.stopRefusing(ana.rawValue)
    #expect(try TeamSyncStatus.retrySetAside(laptop.database) == 1)
    let last = try await laptop.sync(server)
    #expect(last.setAside.isEmpty && last.pushedPeople == 1, "\(last.line)")
    #expect(await server.person(ana.rawValue)?.forgotten != nil)
  }

  /// The server down (5xx, no answer) or a refusal that names no document of the push: the
  /// sync fails as before, nothing is set aside, the next sync tries it all again.
  @Test func failuresThatAreNoDocumentsRefusalKeepTheRetry() async throws {
    let server = FakeTeamServer()
    let laptop = try Laptop()
    let syncUp = standup()
    try laptop.database.add(syncUp)
    for (status, message) in [
      (503, "the server cannot reach its database just now; sync-up \(syncUp.id.rawValue)"),
      (422, "the push is not JSON"), (500, "failed"),
    ] {
      await server.refuse(syncUp.id.rawValue, status: status, message)
      await #expect(throws: SyncFailure.refused(status: status, message: message)) {
        try await laptop.sync(server)
      }
      #expect(try TeamSyncStatus.read(laptop.database).setAside.isEmpty)
      #expect(try laptop.outbox().count == 1)
    }
    await server.stopRefusing(syncUp.id.rawValue)
    #expect(try await laptop.sync(server).pushedSyncUps == 1)
  }

  @Test func theRefusedDocumentIsTheFirstOfThePushTheWordsName() throws {
    let (syncUp, meeting, attendee) = (UUID(), UUID(), UUID())
    let push = Push(
      device: UUID(), pushID: UUID(),
      syncUps: [
        SyncUpDocument(
          id: syncUp, title: .init("T", at: StoredDocuments.zero),
          theme: .init("sky", at: StoredDocuments.zero),
          duration: .init(60, at: StoredDocuments.zero),
          attendees: .init([.init(id: attendee, name: "Ana")], at: StoredDocuments.zero),
          vocabulary: .init([], at: StoredDocuments.zero),
          deleted: .init(false, at: StoredDocuments.zero))
      ])
    let pending = Outbox.Pending(
      pushID: push.pushID, body: try WireJSON.encoder().encode(push), entries: [], audio: [],
      syncUps: 1, meetings: 0)
    func refusal(_ status: Int, _ message: String) -> Refusal? {
      Refusal(SyncFailure.refused(status: status, message: message), pending: pending)
    }
    let named = "the attendee 'Ana' of sync-up \(syncUp.uuidString) has the id \(attendee)"
    #expect(refusal(409, named)?.kind == "syncUp")
    #expect(refusal(409, named)?.entityID == syncUp.uuidString.lowercased())
    #expect(
      refusal(404, "there is no meeting \(meeting) here, nor sync-up \(syncUp)")?.kind == "syncUp")
    #expect(refusal(409, "there is no meeting \(meeting) here") == nil)
    #expect(refusal(503, named) == nil)
    #expect(refusal(401, named) == nil)
    #expect(Refusal.ids(in: "x\(syncUp)y-\(meeting.uuidString.lowercased())") == [syncUp, meeting])
    // A space before an id, or a group cut short, is no id of its own.
    #expect(Refusal.ids(in: "sync-up \(syncUp) here") == [syncUp])
    #expect(Refusal.ids(in: " " + syncUp.uuidString.dropLast()).isEmpty)
    #expect(Refusal.ids(in: String(repeating: "-", count: 100_000) + syncUp.uuidString).isEmpty)
  }
}
