import Foundation
import PostgresNIO
import SyncUpsWire
import TestSupport
import Testing

@testable import SyncUpsServer

/// The team's chat: each meeting new to the server has its digest posted once to the team's
/// incoming webhook (a local receiver here), in the background: tried again after failures,
/// never again for a later push of the same meeting, and never holding up a push.
@Suite(
  .enabled(
    if: TestPostgres.available,
    "skipped: no PostgreSQL for the server's tests (.ci/postgres could not start one)"))
struct WebhookTests {
  @Test("a new meeting's digest is posted once; the same meeting pushed again is not")
  func aNewMeetingIsPostedOnce() async throws {
    let server = try await TestServer.make()
    let receiver = try await ChatReceiver.start()
    defer { receiver.stop() }
    try await server.setWebhook(receiver.url())
    let syncUp = Fixture.syncUp()
    let meeting = Fixture.meeting(in: syncUp.id, said: Fixture.standUp)
    try await server.test(webhooks: .quick) { http, _ in
      let push = Push(device: UUID(), pushID: UUID(), syncUps: [syncUp], meetings: [meeting])
      #expect(try await http.push(push, token: server.writerToken).status == .ok)
      #expect(await waitUntil { receiver.taken.count == 1 })
      #expect(await waitUntil { (try? await server.count("webhook_post")) == 0 })
      let post = try #require(receiver.taken.first)
      #expect(post.path == "/hooks/T000-B000-secret-key")
      #expect(post.contentType == "application/json")
      #expect(
        post.text == """
          *Digest of Morning Sync: 2025-11-26 08:00 UTC (team team)*

          *Ana*
          Yesterday:
          • fixed the staging server [00:05, segment 2]
          Today:
          • write the runbook [00:05, segment 2]
          Blockers: nothing found

          *Ben*
          Yesterday: nothing found
          Today: nothing found
          Blockers:
          • waiting for ana to review my pull request (Ana) [00:10, segment 3]

          """)

      // A correction pushed from a laptop: the meeting is not new, so nothing is scheduled.
      let corrected = Fixture.meeting(
        meeting.id, in: syncUp.id, said: [("Ana", "yesterday i fixed the grafana alerts")], at: 3)
      let again = Push(device: UUID(), pushID: UUID(), meetings: [corrected])
      #expect(try await http.push(again, token: server.writerToken).status == .ok)
      #expect(try await server.count("webhook_post") == 0)
      // Another new meeting is posted, and the first was posted only the once.
      let next = Fixture.meeting(in: syncUp.id, said: [("Ben", "today i will ship it")])
      let third = Push(device: UUID(), pushID: UUID(), meetings: [next])
      #expect(try await http.push(third, token: server.writerToken).status == .ok)
      #expect(await waitUntil { receiver.taken.count == 2 })
      let texts = receiver.all.compactMap(\.text)
      #expect(texts.count == 2)
      #expect(texts.filter { $0.contains("fixed the staging server") }.count == 1)
      #expect(!texts.contains { $0.contains("grafana") })
      #expect(texts.last?.contains("• ship it [00:00, segment 1]") == true)
    }
  }

  @Test("refused connections, then two 500s: the post arrives after retries, the key never said")
  func aFailingReceiverGetsItAfterRetries() async throws {
    let server = try await TestServer.make()
    let receiver = try await ChatReceiver.start(failures: 2)
    defer { receiver.stop() }
    let closed = try ClosedPort.find()
    try await server.setWebhook("http://127.0.0.1:\(closed)/hooks/refused-secret-key")
    // AsyncHTTPClient tries a refused connection again until the post's timeout: a short one.
    try await server.test(webhooks: .quick.timing(out: .seconds(1))) { http, _ in
      let syncUp = Fixture.syncUp()
      let meeting = Fixture.meeting(in: syncUp.id, said: Fixture.standUp)
      let push = Push(device: UUID(), pushID: UUID(), syncUps: [syncUp], meetings: [meeting])
      #expect(try await http.push(push, token: server.writerToken).status == .ok)
      // Tried twice against a port where nothing listens, each failure kept in words.
      #expect(await waitUntil { (try? await server.pendingPosts().first?.attempts ?? 0) ?? 0 >= 2 })
      let pending = try #require(try await server.pendingPosts().first)
      #expect(pending.error?.isEmpty == false)
      #expect(pending.error?.contains("refused-secret-key") == false, "\(pending.error ?? "")")
      // The team's webhook fixed: the next try goes there, and gets through after two 500s.
      try await server.setWebhook(receiver.url())
      #expect(await waitUntil { receiver.taken.count == 1 })
      #expect(await waitUntil { (try? await server.count("webhook_post")) == 0 })
      #expect(receiver.all.count == 3)
      #expect(receiver.taken.first?.text?.contains("write the runbook") == true)
    }
  }

  @Test("a push answers at its normal speed while the receiver hangs")
  func aPushDoesNotWaitForTheReceiver() async throws {
    let server = try await TestServer.make()
    let receiver = try await ChatReceiver.start(hanging: true)
    defer { receiver.stop() }
    try await server.setWebhook(receiver.url())
    // A post waits for its answer as long as the test could last.
    let settings = WebhookSettings.quick.timing(out: .seconds(600))
    try await server.test(webhooks: settings) { http, _ async throws in
      let syncUp = Fixture.syncUp()
      let first = Fixture.meeting(in: syncUp.id, said: Fixture.standUp)
      let push = Push(device: UUID(), pushID: UUID(), syncUps: [syncUp], meetings: [first])
      #expect(try await http.push(push, token: server.writerToken).status == .ok)
      // The receiver holds the post and never answers.
      #expect(await waitUntil { receiver.all.count == 1 })
      let begun = ContinuousClock.now
      let second = Fixture.meeting(in: syncUp.id, said: [("Ben", "today i will ship it")])
      let next = Push(device: UUID(), pushID: UUID(), meetings: [second])
      #expect(try await http.push(next, token: server.writerToken).status == .ok)
      // Waiting for the held post would take its 600 s; a push that does not wait answers far
      // sooner, also on a loaded machine (a bound only, far above a normal push).
      let took = ContinuousClock.now - begun
      #expect(took < .seconds(120), "\(took)")
      #expect(receiver.taken.isEmpty && receiver.all.count == 1)
      #expect(try await server.count("webhook_post") == 2)
    }
  }

  @Test("a 404 is given up at once and kept with its error, the key never said")
  func finalFailures() async throws {
    let server = try await TestServer.make()
    let receiver = try await ChatReceiver.start()
    defer { receiver.stop() }
    // A path the receiver does not have: 404.
    try await server.setWebhook("http://127.0.0.1:\(receiver.port)/gone/secret-key")
    try await server.test(webhooks: .quick) { http, _ in
      let syncUp = Fixture.syncUp()
      let meeting = Fixture.meeting(in: syncUp.id, said: Fixture.standUp)
      let push = Push(device: UUID(), pushID: UUID(), syncUps: [syncUp], meetings: [meeting])
      #expect(try await http.push(push, token: server.writerToken).status == .ok)
      #expect(await waitUntil { (try? await server.pendingPosts().first?.error) != nil })
      let pending = try #require(try await server.pendingPosts().first)
      #expect(pending.attempts == 1 && pending.givenUp)
      #expect(pending.error?.contains("answered 404") == true, "\(pending.error ?? "")")
      #expect(pending.error?.contains("secret-key") == false)
    }
  }
}

extension WebhookSettings {
  /// Tries again within a fraction of a second, so the tests wait for events, not minutes.
  static var quick: WebhookSettings {
    var settings = WebhookSettings()
    settings.firstWait = .milliseconds(50)
    settings.longestWait = .milliseconds(200)
    settings.idle = .milliseconds(200)
    settings.timeout = .seconds(10)
    return settings
  }

  func timing(out timeout: Duration) -> WebhookSettings {
    var settings = self
    settings.timeout = timeout
    return settings
  }
}

extension TestServer {
  /// Sets the first team's webhook, as `team webhook team URL` does.
  func setWebhook(_ url: String) async throws {
    let webhook = try WebhookURL(url)
    try await store { try await $0.setWebhook(webhook, team: "team") }
  }

  /// The posts still waiting: their tries, last error, and whether they were given up.
  func pendingPosts() async throws -> [(attempts: Int, error: String?, givenUp: Bool)] {
    try await store { store in
      var posts: [(attempts: Int, error: String?, givenUp: Bool)] = []
      for try await (attempts, error, givenUp) in try await store.client.query(
        "SELECT attempts, last_error, due_at = 'infinity' FROM webhook_post ORDER BY created_at"
      ).decode((Int, String?, Bool).self) {
        posts.append((attempts, error, givenUp))
      }
      return posts
    }
  }
}

/// A port of 127.0.0.1 where nothing listens (bound, read, closed): connecting is refused.
enum ClosedPort {
  static func find() throws -> Int {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { _ = Glibc.close(descriptor) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = 0
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0
      }
    }
    guard descriptor >= 0, bound else {
      throw TestPostgresProblem(reason: "no free port on 127.0.0.1")
    }
    return Int(UInt16(bigEndian: address.sin_port))
  }
}
