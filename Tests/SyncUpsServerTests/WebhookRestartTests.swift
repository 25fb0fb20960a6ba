import Foundation
import PostgresNIO
import SyncUpsWire
import TestSupport
import Testing

@testable import SyncUpsServer

/// The team's chat across a restart and a deletion: a post waiting when the server stops (held
/// by a receiver that never answered, or waiting for its next try) is posted once by the next
/// server; a meeting deleted (or whose sync-up is deleted) before its post goes out is never
/// posted, and its post is not tried again and again.
@Suite(
  .enabled(
    if: TestPostgres.available,
    "skipped: no PostgreSQL for the server's tests (.ci/postgres could not start one)"))
struct WebhookRestartTests {
  @Test("a post held when the server stops is posted once by the next server")
  func aHeldPostIsPostedOnceAfterARestart() async throws {
    let server = try await TestServer.make()
    let hanging = try await ChatReceiver.start(hanging: true)
    defer { hanging.stop() }
    try await server.setWebhook(hanging.url())
    let syncUp = Fixture.syncUp()
    let meeting = Fixture.meeting(in: syncUp.id, said: Fixture.standUp)
    // The post waits for an answer longer than the test; its claim ends soon after a stop.
    var holding = WebhookSettings.quick.timing(out: .seconds(600))
    holding.lease = .seconds(2)
    try await server.test(webhooks: holding) { http, _ async throws in
      let push = Push(device: UUID(), pushID: UUID(), syncUps: [syncUp], meetings: [meeting])
      #expect(try await http.push(push, token: server.writerToken).status == .ok)
      #expect(await waitUntil { hanging.all.count == 1 })
    }
    // Stopped while the receiver held it: the post is still there, claimed.
    #expect(try await server.count("webhook_post") == 1)

    let receiver = try await ChatReceiver.start()
    defer { receiver.stop() }
    try await server.setWebhook(receiver.url())
    try await server.test(webhooks: .quick) { http, _ async throws in
      #expect(await waitUntil { receiver.taken.count == 1 })
      #expect(await waitUntil { (try? await server.count("webhook_post")) == 0 })
      // A later meeting is posted after it, and the first one was posted only the once.
      let next = Fixture.meeting(in: syncUp.id, said: [("Ben", "today i will ship it")])
      let push = Push(device: UUID(), pushID: UUID(), meetings: [next])
      #expect(try await http.push(push, token: server.writerToken).status == .ok)
      #expect(await waitUntil { receiver.taken.count == 2 })
    }
    let texts = receiver.all.compactMap(\.text)
    #expect(texts.count == 2)
    #expect(texts.filter { $0.contains("fixed the staging server") }.count == 1)
    #expect(hanging.all.count == 1)
  }

  @Test("a post waiting for its next try when the server stops is posted once by the next")
  func aPostWaitingToBeTriedAgainIsPostedOnceAfterARestart() async throws {
    let server = try await TestServer.make()
    let receiver = try await ChatReceiver.start(failures: 1)
    defer { receiver.stop() }
    try await server.setWebhook(receiver.url())
    let syncUp = Fixture.syncUp()
    // The next try is due long after the stop.
    var slow = WebhookSettings.quick
    slow.firstWait = .seconds(3600)
    slow.longestWait = .seconds(3600)
    try await server.test(webhooks: slow) { http, _ async throws in
      let meeting = Fixture.meeting(in: syncUp.id, said: Fixture.standUp)
      let push = Push(device: UUID(), pushID: UUID(), syncUps: [syncUp], meetings: [meeting])
      #expect(try await http.push(push, token: server.writerToken).status == .ok)
      #expect(await waitUntil { (try? await server.pendingPosts().first?.error) != nil })
    }
    #expect(receiver.all.count == 1 && receiver.taken.isEmpty)
    // Due now, as if the hour had passed while the server was down.
    try await server.store { store in
      _ = try await store.client.query("UPDATE webhook_post SET due_at = now()")
    }
    try await server.test(webhooks: .quick) { _, _ async throws in
      #expect(await waitUntil { receiver.taken.count == 1 })
      #expect(await waitUntil { (try? await server.count("webhook_post")) == 0 })
    }
    #expect(receiver.all.count == 2 && receiver.taken.count == 1)
  }

  @Test("a meeting deleted, or whose sync-up is deleted, before its post goes out is never posted")
  func aDeletedMeetingIsNeverPosted() async throws {
    let server = try await TestServer.make()
    // Every try fails until the webhook changes: the posts wait, tried again and again.
    let failing = try await ChatReceiver.start(failures: 1_000)
    defer { failing.stop() }
    try await server.setWebhook(failing.url())
    let receiver = try await ChatReceiver.start()
    defer { receiver.stop() }
    let syncUp = Fixture.syncUp()
    let other = Fixture.syncUp(title: "Evening Sync")
    let meeting = Fixture.meeting(in: syncUp.id, said: Fixture.standUp)
    let orphan = Fixture.meeting(in: other.id, said: [("Ana", "yesterday i painted the fence")])
    try await server.test(webhooks: .quick) { http, _ async throws in
      let push = Push(
        device: UUID(), pushID: UUID(), syncUps: [syncUp, other], meetings: [meeting, orphan])
      #expect(try await http.push(push, token: server.writerToken).status == .ok)
      #expect(await waitUntil { failing.all.count >= 2 })
      // The meeting deleted, and the other sync-up: then the webhook works again.
      var gone = meeting
      gone.deleted = true
      gone.clock = gone.clock.successor
      var deletedSyncUp = other
      deletedSyncUp.deleted = Stamped(true, at: other.deleted.clock.successor)
      let deletion = Push(
        device: UUID(), pushID: UUID(), syncUps: [deletedSyncUp], meetings: [gone])
      #expect(try await http.push(deletion, token: server.writerToken).status == .ok)
      try await server.setWebhook(receiver.url())
      // Neither post is kept to be tried again.
      #expect(await waitUntil { (try? await server.count("webhook_post")) == 0 })
      // A new meeting is posted: the only post the working receiver ever got.
      let next = Fixture.meeting(in: syncUp.id, said: [("Ben", "today i will ship it")])
      let later = Push(device: UUID(), pushID: UUID(), meetings: [next])
      #expect(try await http.push(later, token: server.writerToken).status == .ok)
      #expect(await waitUntil { receiver.taken.count == 1 })
      #expect(await waitUntil { (try? await server.count("webhook_post")) == 0 })
    }
    let texts = receiver.all.compactMap(\.text)
    #expect(texts.count == 1 && texts.first?.contains("ship it") == true, "\(texts)")
    #expect(!texts.contains { $0.contains("staging server") || $0.contains("fence") })
  }
}
