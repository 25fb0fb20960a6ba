import Foundation
import SyncUpsWire
import TestSupport
import Testing

@testable import SyncUpsServer

/// `syncups-server team webhook TEAM URL|--clear`, each mistake one line that never repeats a
/// secret; and two `serve` processes on one database posting each new meeting once.
@Suite(
  .enabled(
    if: TestPostgres.available,
    "skipped: no PostgreSQL for the server's tests (.ci/postgres could not start one)"))
struct WebhookCommandTests {
  @Test("team webhook: set, shown by host only, cleared; bad URLs one line, secrets never said")
  func theCommand() async throws {
    let server = try await TestServer.make()
    let url = server.urlText
    let hook = "https://hooks.example.com/services/T000/B000/secret-key-123"
    let set = try await runServer(["team", "webhook", "team", hook], database: url)
    #expect(set.status == 0, "\(set.stderr)")
    #expect(set.stdout.contains("https://hooks.example.com/…") && !set.stdout.contains("secret"))
    #expect(try await server.store { try await $0.webhook(team: "team") } == hook)
    let shown = try await runServer(["team", "webhook", "team"], database: url)
    #expect(shown.stdout == "Team team posts to https://hooks.example.com/….\n")
    let list = try await runServer(["team", "list"], database: url)
    #expect(
      list.stdout.split(separator: "\n").map { $0.split(separator: " ").map(String.init) } == [
        ["TEAM", "PEOPLE", "SYNC-UPS", "WEBHOOK"],
        ["team", "2", "0", "https://hooks.example.com/…"],
      ])
    for (arguments, says) in [
      (["team", "webhook", "team", "ftp://hooks.example.com/x"], "starts with https://"),
      (
        ["team", "webhook", "team", "https://ana:hunter2@hooks.example.com/secret-path"],
        "has a user or password"
      ),
      (
        ["team", "webhook", "team", "https://" + String(repeating: "a", count: 2100)],
        "at most 2048"
      ),
      (["team", "webhook", "team", "https://hooks.example.com/a b"], "visible ASCII"),
      (["team", "webhook", "team", "https:///no-host"], "no host"),
      (["team", "webhook", "red", hook], "there is no team 'red' here"),
      (["team", "webhook", "team", hook, "--clear"], "give the webhook's URL or --clear"),
    ] {
      let failed = try await runServer(arguments, database: url)
      #expect(failed.status != 0, "\(arguments)")
      #expect(failed.stderr.contains(says), "\(arguments): \(failed.stderr)")
      #expect(failed.stderr.split(separator: "\n").count == 1, "\(arguments): \(failed.stderr)")
      for secret in ["hunter2", "secret-path", "secret-key-123"] {
        #expect(!failed.stderr.contains(secret), "\(arguments): \(failed.stderr)")
      }
    }
    // The mistakes changed nothing; --clear does.
    #expect(try await server.store { try await $0.webhook(team: "team") } == hook)
    let cleared = try await runServer(["team", "webhook", "team", "--clear"], database: url)
    #expect(cleared.status == 0 && cleared.stdout.contains("no longer posted"))
    #expect(try await server.store { try await $0.webhook(team: "team") } == nil)
  }

  @Test("two servers on one database post each new meeting once")
  func twoServersPostOnce() async throws {
    let server = try await TestServer.make()
    let receiver = try await ChatReceiver.start()
    defer { receiver.stop() }
    try await server.setWebhook(receiver.url())
    let started = Started()
    defer { started.killAll() }
    let one = try await started.add(ServerProcess.start(server))
    let other = try await started.add(ServerProcess.start(server))
    let count = 6
    for index in 0..<count {
      let syncUp = Fixture.syncUp(title: "Sync \(index)")
      let meeting = Fixture.meeting(
        in: syncUp.id, said: [("Ana", "yesterday i fixed item \(index)")])
      let pushed = try await (index % 2 == 0 ? one : other).send(
        "POST", "/api/v1/sync/push", token: server.writerToken,
        body: WireJSON.encoder().encode(
          Push(device: UUID(), pushID: UUID(), syncUps: [syncUp], meetings: [meeting])))
      #expect(pushed.status == 200)
    }
    // Every post made and its row gone: no server can post any of them again.
    #expect(
      await waitUntil {
        guard receiver.taken.count >= count else { return false }
        return (try? await server.count("webhook_post")) == 0
      }, "\(started.logs)")
    #expect(receiver.all.count == count)
    for index in 0..<count {
      #expect(
        receiver.taken.filter { $0.text?.contains("Digest of Sync \(index):") == true }.count == 1)
    }
  }
}
