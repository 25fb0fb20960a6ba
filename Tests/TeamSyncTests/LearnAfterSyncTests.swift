import Dependencies
import Foundation
import SyncUpsFeatures
import Testing

@testable import TeamSync

/// What a sync teaches: the sync-ups its pull changed, and only those, are handed to the
/// learning that follows (so a sync costs what it brought, not the history); a sync that
/// pulled nothing learns nothing.
@Suite("Team sync: what a pull changed is learned again")
struct LearnAfterSyncTests {
  @Test func aSyncLearnsTheSyncUpsItsPullChangedAndNoOthers() async throws {
    let server = FakeTeamServer()
    let a = try Laptop()
    let b = try Laptop()
    let core = standup("Core")
    let web = standup("Web")
    try a.database.add(core)
    try a.database.add(web)
    _ = try a.record(into: core.id, segments: [segment("Ana", "the build is green", at: 1)])
    _ = try await a.sync(server)

    let learned = LockIsolated<[Set<SyncUp.ID>]>([])
    let sync = TeamSync(database: b.database, team: testTeam, client: server.client()) {
      changed in learned.withValue { $0.append(changed) }
    }
    let first = try await sync.run()
    #expect(first.changedSyncUps == [core.id, web.id])
    #expect(learned.value == [[core.id, web.id]])

    // A meeting of one sync-up recorded on A: B learns that sync-up's words again, not the other's.
    _ = try a.record(into: web.id, segments: [segment("Ben", "the page is live", at: 1)])
    _ = try await a.sync(server)
    let second = try await sync.run()
    #expect(second.pulledMeetings == 1)
    #expect(learned.value.last == [web.id])

    // Nothing new: nothing to learn.
    let third = try await sync.run()
    #expect(third.changedSyncUps.isEmpty)
    #expect(learned.value.count == 2)
  }
}
