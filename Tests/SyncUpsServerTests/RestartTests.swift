import Foundation
import PostgresNIO
import SyncUpsServer
import SyncUpsWire
import TestSupport
import Testing

/// PostgreSQL restarted or killed under a running `syncups-server`, each on a cluster of the
/// test's own: the server carries on by itself, and a push is kept once.
@Suite(
  .enabled(
    if: TestPostgres.available
      && FileManager.default.isExecutableFile(
        atPath: PrivateCluster.bin + "/pg_ctl"),
    "skipped: no PostgreSQL 15 for the server's tests"))
struct RestartTests {
  /// `pg_ctl restart -m fast` while readers keep asking: answers are 200, or a 5xx in words
  /// while it restarts; afterwards every request succeeds without restarting the server, and a
  /// long-polling pull is woken by a push again (its LISTEN connection came back).
  @Test func theServerReconnectsWhenPostgreSQLRestarts() async throws {
    let cluster = try await PrivateCluster.start()
    let started = Started()
    do {
      let server = try await TestServer.make(on: try cluster.url)
      let running = try await started.add(ServerProcess.start(server))
      try await restartUnderLoad(cluster, server, running)
    } catch {
      print("server's log:", started.logs)
      started.killAll()
      await cluster.remove()
      throw error
    }
    started.killAll()
    await cluster.remove()
  }

  private func restartUnderLoad(
    _ cluster: PrivateCluster, _ server: TestServer, _ running: ServerProcess
  ) async throws {
    let token = server.readerToken
    #expect(try await running.send("GET", "/api/v1/sync-ups", token: token).status == 200)
    // Four readers keep asking, from before the restart until each has had an answer to a
    // request sent after the server was seen answering again.
    let answers = Answers(readers: 4)
    let load = Task {
      await withTaskGroup(of: Void.self) { group in
        for reader in 0..<4 {
          group.addTask {
            // Stopped by a flag, not by cancelling: cancelling a task inside URLSession's
            // `data(for:)` deadlocked FoundationNetworking (its cancel waits on a queue).
            while !answers.stopped {
              let sent = ContinuousClock.now
              do {
                let answer = try await running.send("GET", "/api/v1/sync-ups", token: token)
                answers.add(
                  reader, sent: sent, answer.status, String(decoding: answer.body, as: UTF8.self))
              } catch {
                // Any failure (no answer at all) is counted as 0.
                answers.add(reader, sent: sent, 0, "\(error)")
              }
              try? await Task.sleep(for: .milliseconds(10))
            }
          }
        }
      }
    }
    // The load runs before the restart: eight answers in all, so the count below holds on a
    // loaded machine too (a fixed pause gave fewer there).
    #expect(await waitUntil { answers.all.count >= 8 })
    try await cluster.restart()
    // Back without restarting the server: the next requests succeed (the pool opens new
    // connections; the loop is a safety net far above the few tries it takes).
    var status = 0
    _ = await waitUntil(every: .milliseconds(100)) {
      status = (try? await running.send("GET", "/api/v1/sync-ups", token: token).status) ?? 0
      return status == 200
    }
    #expect(status == 200)
    let back = ContinuousClock.now
    // No request waits forever on a connection that closed (see ClosedConnectionTests): every
    // reader gets answers to what it sends once the server is back (the safety net bounds it).
    #expect(await waitUntil { answers.everyReaderAnswered(sentAfter: back) })
    answers.stop()
    await load.value
    let all = answers.all
    #expect(all.count > 8)
    // Every answer was a 200 or a 5xx in words (never a hang, a 4xx or a body not JSON) ...
    for answer in all where answer.status != 200 {
      #expect((500..<600).contains(answer.status), "\(answer.status) \(answer.body)")
      #expect(answer.body.contains("\"error\""), "\(answer.body)")
    }
    // ... and every request sent once the server was back was answered with a 200.
    let after = all.filter { $0.sent >= back }
    #expect(after.allSatisfy { $0.status == 200 }, "\(after.map(\.status))")
    #expect(running.child.isRunning)

    // A pull waiting on the server is woken by a push: the listener is back.
    let begun = ContinuousClock.now
    async let pulled = running.send(
      "GET", "/api/v1/sync/changes?since=0&wait=30", token: token)
    try await Task.sleep(for: .milliseconds(500))
    let syncUp = Fixture.syncUp()
    let push = try WireJSON.encoder().encode(
      Push(device: UUID(), pushID: UUID(), syncUps: [syncUp]))
    let pushed = try await running.send(
      "POST", "/api/v1/sync/push", token: server.writerToken, body: push)
    #expect(pushed.status == 200, "\(String(decoding: pushed.body, as: UTF8.self))")
    let page = try WireJSON.decoder().decode(ChangesPage.self, from: try await pulled.body)
    #expect(page.syncUps.map(\.id) == [syncUp.id])
    // Woken by the NOTIFY, not by the 30 s timeout.
    #expect(ContinuousClock.now - begun < .seconds(20))
  }

  /// PostgreSQL killed while a push is inside its transaction (its rows written, its receipt
  /// waiting on a lock): the push fails in words and nothing of it is kept; the same bytes sent
  /// again once PostgreSQL is back save one copy, and a third time nothing more.
  @Test func postgreSQLKilledMidPushThenARetrySavesOnce() async throws {
    let cluster = try await PrivateCluster.start()
    let started = Started()
    var blocker: ChildProcess?
    do {
      let server = try await TestServer.make(on: try cluster.url)
      let running = try await started.add(ServerProcess.start(server))
      try await killMidPush(cluster, server, running, blocker: &blocker)
    } catch {
      print("server's log:", started.logs)
      blocker?.signal(SIGKILL)
      started.killAll()
      await cluster.remove()
      throw error
    }
    blocker?.signal(SIGKILL)
    started.killAll()
    await cluster.remove()
  }

  private func killMidPush(
    _ cluster: PrivateCluster, _ server: TestServer, _ running: ServerProcess,
    blocker: inout ChildProcess?
  ) async throws {
    let syncUp = Fixture.syncUp()
    let device = UUID()
    let pushID = UUID()
    let said = (0..<200).map { ("Ana", "part \($0) of the stand-up about the staging server") }
    let body = try WireJSON.encoder().encode(
      Push(
        device: device, pushID: pushID, syncUps: [syncUp],
        meetings: [Fixture.meeting(in: syncUp.id, said: said)]))
    // Another session holds the push's receipt key in an open transaction, so the push waits
    // on it at its very end, with everything else written.
    blocker = try ChildProcess(
      URL(fileURLWithPath: PrivateCluster.bin + "/psql"),
      [
        server.urlText, "-qAt", "-c",
        "BEGIN; INSERT INTO push_receipt (device, push_id, receipt) VALUES "
          + "('\(device.uuidString.lowercased())', '\(pushID.uuidString.lowercased())', 'held'); "
          + "SELECT pg_sleep(600);",
      ])
    // The blocker must hold the key before the push is sent, or the push would take it first.
    let holding = await waitUntil(every: .milliseconds(100)) {
      await sessions(server, "wait_event = 'PgSleep' AND query LIKE '%INSERT INTO push_receipt%'")
        == 1
    }
    try #require(holding, "the blocking session never took the receipt's key")
    async let answer = running.send(
      "POST", "/api/v1/sync/push", token: server.writerToken, body: body)
    let waiting = await waitUntil(every: .milliseconds(100)) {
      await sessions(server, "wait_event_type = 'Lock' AND query LIKE '%INSERT INTO push_receipt%'")
        == 1
    }
    try #require(waiting, "the push never reached its receipt")
    try await cluster.crash()
    let failed = try await answer
    #expect((500..<600).contains(failed.status), "\(failed.status)")
    #expect(String(decoding: failed.body, as: UTF8.self).contains("\"error\""))
    blocker?.signal(SIGKILL)
    try await cluster.start()

    #expect(try await server.count("meeting") == 0)
    #expect(try await server.count("segment") == 0)
    #expect(try await server.count("push_receipt") == 0)
    // The laptop sends the same bytes again (the server was not restarted).
    var retried = (status: 0, body: Data())
    _ = await waitUntil(every: .milliseconds(100)) {
      retried =
        (try? await running.send(
          "POST", "/api/v1/sync/push", token: server.writerToken, body: body)) ?? (0, Data())
      return retried.status == 200
    }
    #expect(retried.status == 200, "\(String(decoding: retried.body, as: UTF8.self))")
    let again = try await running.send(
      "POST", "/api/v1/sync/push", token: server.writerToken, body: body)
    #expect(again.status == 200)
    #expect(
      try WireJSON.decoder().decode(PushReceipt.self, from: again.body)
        == WireJSON.decoder().decode(PushReceipt.self, from: retried.body))
    #expect(try await server.count("meeting") == 1)
    #expect(try await server.count("segment") == 200)
    #expect(try await server.count("push_receipt") == 1)
  }
}

/// How many of the server database's sessions match `condition` (SQL over `pg_stat_activity`).
private func sessions(_ server: TestServer, _ condition: String) async -> Int? {
  try? await server.store { store in
    var count = 0
    for try await value in try await store.client.query(
      PostgresQuery(unsafeSQL: "SELECT count(*) FROM pg_stat_activity WHERE \(condition)")
    ).decode(Int.self) {
      count = value
    }
    return count
  }
}

/// What each reader of `restartUnderLoad` was answered, and when it sent each request.
private final class Answers: @unchecked Sendable {
  struct Answer {
    var reader: Int
    var sent: ContinuousClock.Instant
    var status: Int
    var body: String
  }
  private let lock = NSLock()
  private var answers: [Answer] = []
  private let readers: Int

  init(readers: Int) { self.readers = readers }

  private var stopRequested = false

  var all: [Answer] { lock.withLock { answers } }
  var stopped: Bool { lock.withLock { stopRequested } }
  func stop() { lock.withLock { stopRequested = true } }

  func add(_ reader: Int, sent: ContinuousClock.Instant, _ status: Int, _ body: String) {
    lock.withLock { answers.append(Answer(reader: reader, sent: sent, status: status, body: body)) }
  }

  /// Every reader has an answer to a request sent at or after `instant`.
  func everyReaderAnswered(sentAfter instant: ContinuousClock.Instant) -> Bool {
    lock.withLock { Set(answers.filter { $0.sent >= instant }.map(\.reader)).count == readers }
  }
}
